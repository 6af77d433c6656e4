/**
 * What a build knows of each history turn it read, as numbers in arrays indexed by turn:
 * turn `history[from + k]` at `k`, NaN where a number is not known.
 *
 * Why arrays and not maps keyed by turn or by text: a rebuild runs right after other work
 * (in a bench, a cold build) has flushed the CPU's caches, and then a map lookup per turn
 * (the key's hash, its bucket, the turn and its text read to get there) costs more than the
 * rest of the rebuild. An array of numbers is read in a few cache lines, without touching
 * the turns.
 *
 * @module
 */
import { countedBound } from '../gather/walkBound.js'
import type { Meter } from '../tokenize/meter.js'
import type { Turn } from './layOut.js'

/** Per-turn numbers of the turns `[from, length)` a build read; NaN where not known. */
export interface TurnTable {
  /** The turn at index 0. */
  readonly from: number
  /** The history gatherer's walk's bound of the turn's text (`gather/walkBound.ts`): always known. */
  readonly bounds: ReadonlyArray<number>
  /** The text's length in UTF-16 code units (a fill's first test): always known. */
  readonly lengths: ReadonlyArray<number>
  /** Exact counts of the turns a fill counted. */
  readonly counts: ReadonlyArray<number>
  /** The turn's label and separator joined with its text, less its count (what layoutAware charges besides the count), where measured. */
  readonly joins: ReadonlyArray<number>
  /** The turn's decoration and separator, by its role, where the layout has shown the role. */
  readonly costs: ReadonlyArray<number>
  /** 1 where the build's report shows the turn's count (a fill took it), else 0. */
  readonly counted: ReadonlyArray<number>
  /**
   * Sums from each turn to the newest (`x[k]` = the sum over `[from + k, length)`, one more
   * entry, 0): of `bounds` plus one (the history gatherer's walk), `counts` and `joins`; NaN
   * where a number in the sum is not known. A window ends at the newest turn,
   * so its sum is one entry, and a fill finds where it stops by a binary search instead of
   * a step per turn (`./fill.ts`, `./walk.ts`).
   */
  readonly sums: {
    readonly bounds: ReadonlyArray<number>
    readonly counts: ReadonlyArray<number>
    readonly joins: ReadonlyArray<number>
  }
}

const add = (v: number, rest: number): number => v + rest
const addOne = (v: number, rest: number): number => v + 1 + rest

/** Sums from each index to the end of `values` (each mapped by `f`), one more entry: `end`. */
const fromEach = (values: ReadonlyArray<number>, f: (v: number, rest: number) => number, end: number): number[] => {
  const out = new Array<number>(values.length + 1)
  out[values.length] = end
  for (let k = values.length - 1; k >= 0; k--) out[k] = f(values[k]!, out[k + 1]!)
  return out
}

/**
 * The sums of a table's numbers.
 *
 * @category utils
 */
export const sumsOf = (t: Pick<TurnTable, 'bounds' | 'counts' | 'joins'>): TurnTable['sums'] => ({
  bounds: fromEach(t.bounds, addOne, 0),
  counts: fromEach(t.counts, add, 0),
  joins: fromEach(t.joins, add, 0),
})

/**
 * The oldest index in `[lo, hi]` at which `holds` is true, by binary search: `holds` must be
 * true at `hi` and, going back from it, stay false once false (a sum of the memo's turns
 * grows as it goes back). What the rebuild's fills and its history walk step past the memo's
 * turns with. `hint` is tried first (with the index before it): where the previous build's
 * walk or fill stopped, which a rebuild's moves by a few turns at most, and often not at all.
 *
 * @category utils
 */
export const oldestHolding = (lo: number, hi: number, holds: (i: number) => boolean, hint = hi): number => {
  if (hint > lo && hint <= hi && holds(hint) && !holds(hint - 1)) return hint
  if (holds(lo)) return lo
  // holds from a on, not from b on
  let a = hi
  let b = lo
  while (a - b > 1) {
    const m = (a + b) >>> 1
    if (holds(m)) a = m
    else b = m
  }
  return a
}

/**
 * The sum of the memo's numbers `sums` over its turns `[a, b)` (`t.memo.from <= a <= b <= t.length`): NaN when one is not known.
 *
 * @category utils
 */
export const sumOver = (t: BuildTable, sums: ReadonlyArray<number>, a: number, b: number): number => sums[a - t.memo.from]! - sums[b - t.memo.from]!

/** A new turn's numbers in a build's table: its text's length, then NaN until taken. */
export interface NewTurn {
  bound: number
  readonly length: number
  count: number
  join: number
  cost: number
}

/** Numbers of the memo's turns that its table does not know and a build took. */
export interface Taken {
  readonly counts: Map<number, number>
  readonly joins: Map<number, number>
}

/**
 * One build's view of the table: the memo's numbers of its turns (read, never copied), the
 * new turns' (`[length, n)`), and what the build takes besides (counts, joins, lower bounds,
 * which counts a fill took): a few numbers, not a table's worth. Read and written through the
 * functions below, in the build that made it only. What a rebuild seldom needs is made when
 * first needed: a rebuild runs too few times for V8 to optimize it, and what it costs is
 * mostly what it runs and makes (see `./append.ts`).
 */
export interface BuildTable {
  readonly memo: TurnTable
  /** The memo's turns end here; the new ones follow up to `n`. */
  readonly length: number
  readonly n: number
  /**
   * The new turns' numbers, at `i − length`: the text lengths (set when the table is made),
   * the walk's bounds, counts, joins and costs (NaN until taken: {@link takeBound},
   * {@link takeCount}, {@link setJoin}, {@link setCost}), the build's to write.
   */
  readonly added: ReadonlyArray<NewTurn>
  /** Counts and joins of the memo's turns that its table has not and this build took (made when first needed: the window moves toward the new turns, whose numbers are `added`). */
  taken: Taken | undefined
  /** The turns whose count a fill of this build took: `[low, n)` (a fill counts the newest first), and any others apart (made when first needed). */
  readonly counted: { low: number; apart: Set<number> | undefined }
  /** The history: the turns are read by index (`turns[i]`). */
  readonly turns: ReadonlyArray<Turn>
  /** The build's meter: counts are taken through it ({@link takeCount}). */
  readonly meter: Meter
  /** The meter's lower bounds of turns not counted yet, taken once per build ({@link atLeastOf}): turn, bound, turn, bound… (a fill takes one or two). */
  readonly cut: number[]
  /** A turn's decoration and separator by its role: the memo's layout's, with the roles this build's new turns show. */
  roleCost: ReadonlyMap<string, number>
}

/**
 * The build's view of memo table `memo` of the turns `[memo.from, length)`, in the history
 * `turns` (its `length` first turns the memo's), counted with `meter`; a turn's role costs
 * `roleCost`.
 *
 * @category utils
 */
export const buildTable = (memo: TurnTable, length: number, turns: ReadonlyArray<Turn>, meter: Meter, roleCost: ReadonlyMap<string, number>): BuildTable => {
  // a record a new turn (most rebuilds have one or two), not an array a number
  const added: NewTurn[] = []
  for (let i = length; i < turns.length; i++) added.push({ bound: Number.NaN, length: turns[i]!.content.length, count: Number.NaN, join: Number.NaN, cost: Number.NaN })
  return { memo, length, n: turns.length, added, taken: undefined, counted: { low: turns.length, apart: undefined }, turns, meter, cut: [], roleCost }
}

/** The numbers the build took, made when first needed. */
const takenOf = (t: BuildTable): Taken => (t.taken ??= { counts: new Map(), joins: new Map() })

/**
 * The exact count of turn `i`: the table's, else counted by the build's meter (and kept).
 * Plain functions of the table rather than closures made per build: see `./append.ts`.
 *
 * @category utils
 */
export const takeCount = (t: BuildTable, i: number): number => {
  let c = countOf(t, i)
  if (c !== c) {
    const text = t.turns[i]!.content
    // its word edges with it, in one pass where the tokenizer can: joining the turn to its
    // label and counting the output around it need them
    t.meter.edges(text)
    c = t.meter.text(text)
    if (i >= t.length) t.added[i - t.length]!.count = c
    else takenOf(t).counts.set(i, c)
  }
  return c
}

/**
 * The walk's bound of new turn `i` (`i >= t.length`): the table's, else counted as a cold
 * build's walk counts it (`gather/walkBound.ts`), and kept.
 *
 * @category utils
 */
export const takeBound = (t: BuildTable, i: number): number => {
  const a = t.added[i - t.length]!
  let b = a.bound
  if (b !== b) a.bound = b = countedBound(t.meter, t.turns[i]!.content)
  return b
}

/**
 * Keeps turn `i`'s join (its decoration and separator joined with its text).
 *
 * @category utils
 */
export const setJoin = (t: BuildTable, i: number, j: number): void => {
  if (i >= t.length) t.added[i - t.length]!.join = j
  else takenOf(t).joins.set(i, j)
}

/**
 * The meter's lower bound of turn `i` not counted yet: taken once per build, cut short past
 * the room it was first asked about (`above`; a fill's detail shows it).
 *
 * @category utils
 */
export const atLeastOf = (t: BuildTable, i: number, above: number): number => {
  const { cut } = t
  for (let k = 0; k < cut.length; k += 2) if (cut[k] === i) return cut[k + 1]!
  const b = t.meter.tokenizer.lowerBound(t.turns[i]!.content, above)
  cut.push(i, b)
  return b
}

/**
 * Turn `i`'s decoration and separator: the table's, else its role's (NaN for a role the
 * layout has not shown).
 *
 * @category utils
 */
export const roleCostOf = (t: BuildTable, i: number): number => {
  const c = i < t.length ? t.memo.costs[i - t.memo.from]! : t.added[i - t.length]!.cost
  return c === c ? c : (t.roleCost.get(t.turns[i]!.role) ?? Number.NaN)
}

/** A memo number of turn `i` (`i < t.length`), else the build's (NaN when neither knows it). */
const known = (memo: ReadonlyArray<number>, at: number, own: ReadonlyMap<number, number> | undefined, i: number): number => {
  const v = memo[i - at]!
  return v === v || own === undefined ? v : (own.get(i) ?? Number.NaN)
}

/** @category utils */
export const boundOf = (t: BuildTable, i: number): number => (i < t.length ? t.memo.bounds[i - t.memo.from]! : t.added[i - t.length]!.bound)
/** @category utils */
export const textLengthOf = (t: BuildTable, i: number): number => (i < t.length ? t.memo.lengths[i - t.memo.from]! : t.added[i - t.length]!.length)
/** The exact count of turn `i`, NaN when not known yet. @category utils */
export const countOf = (t: BuildTable, i: number): number => (i < t.length ? known(t.memo.counts, t.memo.from, t.taken?.counts, i) : t.added[i - t.length]!.count)
/** @category utils */
export const joinOf = (t: BuildTable, i: number): number => (i < t.length ? known(t.memo.joins, t.memo.from, t.taken?.joins, i) : t.added[i - t.length]!.join)
/** A new turn's decoration and separator, once its role's is measured. @category utils */
export const setCost = (t: BuildTable, i: number, c: number): void => {
  t.added[i - t.length]!.cost = c
}
/** Whether a fill of this build took turn `i`'s count. @category utils */
export const isCounted = (t: BuildTable, i: number): boolean => i >= t.counted.low || (t.counted.apart !== undefined && t.counted.apart.has(i))
/**
 * The first turn of the memo's `[from, to)` whose count this build's fills took where the
 * memo's build did not, or the other way round (`t.memo.counted`), else `to`: a report entry
 * that says the same both times is kept. One loop over the flags, no call per turn.
 *
 * @category utils
 */
export const sameCounted = (t: BuildTable, from: number, to: number): number => {
  const { low, apart } = t.counted
  const flags = t.memo.counted
  const at = t.memo.from
  for (let i = from; i < to; i++) if ((i >= low || (apart !== undefined && apart.has(i))) !== (flags[i - at] === 1)) return i
  return to
}

/** @category utils */
export const markCounted = (t: BuildTable, i: number): void => {
  if (i === t.counted.low - 1) t.counted.low = i
  else if (i < t.counted.low) (t.counted.apart ??= new Set()).add(i)
}
