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
  /** The turn's decoration and separator joined with its text (layoutAware's second fill), where measured. */
  readonly joins: ReadonlyArray<number>
  /** The turn's decoration and separator, by its role, where the layout has shown the role. */
  readonly costs: ReadonlyArray<number>
  /** 1 where the build's report shows the turn's count (a fill took it), else 0. */
  readonly counted: ReadonlyArray<number>
  /**
   * Sums from each turn to the newest (`x[k]` = the sum over `[from + k, length)`, one more
   * entry, 0): of `bounds` plus one (the history gatherer's walk), `counts`, `joins` and
   * `costs`; NaN where a number in the sum is not known. A window ends at the newest turn,
   * so its sum is one entry, and a fill finds where it stops by a binary search instead of
   * a step per turn (`./fill.ts`, `./walk.ts`).
   */
  readonly sums: {
    readonly bounds: ReadonlyArray<number>
    readonly counts: ReadonlyArray<number>
    readonly joins: ReadonlyArray<number>
    readonly costs: ReadonlyArray<number>
    /** The widest cost from each turn to the newest (NaN where one is not known). */
    readonly widest: ReadonlyArray<number>
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
export const sumsOf = (t: Pick<TurnTable, 'bounds' | 'counts' | 'joins' | 'costs'>): TurnTable['sums'] => {
  return {
    bounds: fromEach(t.bounds, addOne, 0),
    counts: fromEach(t.counts, add, 0),
    joins: fromEach(t.joins, add, 0),
    costs: fromEach(t.costs, add, 0),
    // NaN stays NaN (Math.max would too, but says so less plainly)
    widest: fromEach(t.costs, (v, rest) => (v !== v || rest !== rest ? Number.NaN : Math.max(v, rest)), Number.NEGATIVE_INFINITY),
  }
}

/**
 * The oldest index in `[lo, hi]` at which `holds` is true, by binary search: `holds` must be
 * true at `hi` and, going back from it, stay false once false (a sum of the memo's turns
 * grows as it goes back). What the rebuild's fills and its history walk step past the memo's
 * turns with.
 *
 * @category utils
 */
export const oldestHolding = (lo: number, hi: number, holds: (i: number) => boolean): number => {
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

/**
 * One build's view of the table: the memo's numbers of its turns (read, never copied), the
 * new turns' (`[length, n)`, set by the build), and what the build takes besides (counts,
 * joins, which counts a fill took): a few numbers, not a table's worth. Read and written
 * through the functions below, in the build that made it only.
 */
export interface BuildTable {
  readonly memo: TurnTable
  /** The memo's turns end here; the new ones follow up to `n`. */
  readonly length: number
  readonly n: number
  /** The new turns' bounds, lengths and costs, at `i − length`. */
  readonly added: { readonly bounds: number[]; readonly lengths: number[]; readonly costs: number[] }
  /** Counts, joins and costs this build took that the memo has not. */
  readonly taken: { readonly counts: Map<number, number>; readonly joins: Map<number, number>; readonly costs: Map<number, number> }
  /** The turns whose count a fill of this build took: `[low, n)` (a fill counts the newest first), and any others apart. */
  readonly counted: { low: number; readonly apart: Set<number> }
  /** The history: the turns are read by index (`turns[i]`). */
  readonly turns: ReadonlyArray<Turn>
  /** The build's meter: counts are taken through it ({@link takeCount}). */
  readonly meter: Meter
  /** The meter's lower bounds of turns not counted yet, taken once per build ({@link atLeastOf}). */
  readonly cut: Map<number, number>
  /** A turn's decoration and separator by its role: the memo's layout's, with the roles this build's new turns show. */
  roleCost: ReadonlyMap<string, number>
}

/**
 * The build's view of memo table `t` of the turns `[t.from, length)`, in the history `turns`
 * (its `length` first turns the memo's), counted with `meter`; a turn's role costs `roleCost`.
 *
 * @category utils
 */
export const buildTable = (memo: TurnTable, length: number, turns: ReadonlyArray<Turn>, meter: Meter, roleCost: ReadonlyMap<string, number>): BuildTable => ({
  memo,
  length,
  n: turns.length,
  added: { bounds: [], lengths: [], costs: [] },
  taken: { counts: new Map(), joins: new Map(), costs: new Map() },
  counted: { low: turns.length, apart: new Set() },
  turns,
  meter,
  cut: new Map(),
  roleCost,
})

/**
 * The exact count of turn `i`: the table's, else counted by the build's meter (and kept).
 * Plain functions of the table rather than closures made per build: see `./append.ts`.
 *
 * @category utils
 */
export const takeCount = (t: BuildTable, i: number): number => {
  let c = countOf(t, i)
  if (c !== c) t.taken.counts.set(i, (c = t.meter.text(t.turns[i]!.content)))
  return c
}

/**
 * The meter's lower bound of turn `i` not counted yet: taken once per build, cut short past
 * the room it was first asked about (`above`; a fill's detail shows it).
 *
 * @category utils
 */
export const atLeastOf = (t: BuildTable, i: number, above: number): number => {
  let b = t.cut.get(i)
  if (b === undefined) t.cut.set(i, (b = t.meter.tokenizer.lowerBound(t.turns[i]!.content, above)))
  return b
}

/**
 * Turn `i`'s decoration and separator: the table's, else its role's (NaN for a role the
 * layout has not shown).
 *
 * @category utils
 */
export const roleCostOf = (t: BuildTable, i: number): number => {
  const c = costOf(t, i)
  return c === c ? c : (t.roleCost.get(t.turns[i]!.role) ?? Number.NaN)
}

/** A memo number of turn `i`, else the build's (NaN when neither knows it). */
const known = (t: BuildTable, memo: ReadonlyArray<number>, own: ReadonlyMap<number, number>, i: number): number => {
  const v = i < t.length ? memo[i - t.memo.from]! : Number.NaN
  return v === v ? v : (own.get(i) ?? Number.NaN)
}

/** @category utils */
export const boundOf = (t: BuildTable, i: number): number => (i < t.length ? t.memo.bounds[i - t.memo.from]! : t.added.bounds[i - t.length]!)
/** @category utils */
export const textLengthOf = (t: BuildTable, i: number): number => (i < t.length ? t.memo.lengths[i - t.memo.from]! : t.added.lengths[i - t.length]!)
/** The exact count of turn `i`, NaN when not known yet. @category utils */
export const countOf = (t: BuildTable, i: number): number => known(t, t.memo.counts, t.taken.counts, i)
/** @category utils */
export const joinOf = (t: BuildTable, i: number): number => known(t, t.memo.joins, t.taken.joins, i)
/** @category utils */
export const costOf = (t: BuildTable, i: number): number => (i < t.length ? known(t, t.memo.costs, t.taken.costs, i) : (t.added.costs[i - t.length] ?? Number.NaN))
/** Whether a fill of this build took turn `i`'s count. @category utils */
export const isCounted = (t: BuildTable, i: number): boolean => i >= t.counted.low || (t.counted.apart.size > 0 && t.counted.apart.has(i))
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
  for (let i = from; i < to; i++) if ((i >= low || (apart.size > 0 && apart.has(i))) !== (flags[i - at] === 1)) return i
  return to
}

/** @category utils */
export const markCounted = (t: BuildTable, i: number): void => {
  if (i === t.counted.low - 1) t.counted.low = i
  else if (i < t.counted.low) t.counted.apart.add(i)
}
/** A new turn's bound and length. @category utils */
export const setNew = (t: BuildTable, i: number, bound: number, length: number): void => {
  t.added.bounds[i - t.length] = bound
  t.added.lengths[i - t.length] = length
}
/** @category utils */
export const setCost = (t: BuildTable, i: number, c: number): void => {
  if (i < t.length) t.taken.costs.set(i, c)
  else t.added.costs[i - t.length] = c
}

/** The memo's numbers `old` from `at` on, then the build's `own`, NaN up to `size`, overwritten by those `taken` (turn `i` at `i − from`). */
const merged = (old: ReadonlyArray<number>, own: ReadonlyArray<number>, at: number, size: number, from: number, taken?: ReadonlyMap<number, number>): number[] => {
  const out = old.slice(at).concat(own)
  while (out.length < size) out.push(Number.NaN)
  for (const [i, v] of taken ?? []) if (i >= from) out[i - from] = v
  return out
}

/**
 * The table of the turns `[from, n)` for the next build, counts and joins only from
 * `reach` on (the turns a later build may take).
 *
 * @category utils
 */
export const nextTable = (t: BuildTable, from: number, reach: number): TurnTable => {
  const { n } = t
  const at = from - t.memo.from
  const counts = merged(t.memo.counts, [], at, n - from, from, t.taken.counts)
  const joins = merged(t.memo.joins, [], at, n - from, from, t.taken.joins)
  for (let k = 0; k < reach - from; k++) counts[k] = joins[k] = Number.NaN
  const counted: number[] = []
  for (let i = from; i < n; i++) counted.push(isCounted(t, i) ? 1 : 0)
  const { added } = t
  const bounds = merged(t.memo.bounds, added.bounds, at, n - from, from)
  const costs = merged(t.memo.costs, added.costs, at, n - from, from, t.taken.costs)
  return { from, bounds, lengths: merged(t.memo.lengths, added.lengths, at, n - from, from), counts, joins, costs, counted, sums: sumsOf({ bounds, counts, joins, costs }) }
}

/**
 * `reachOf`'s `from` (`src/request.ts`: the first turn a build reads, walking back from the
 * newest with the walk's bounds until past `budget`, and no further than `oldest`, the
 * message limit's first turn) from the table's bounds, for a history of `n` turns whose
 * leading system turns end at `lead`; undefined when the walk would go before the table.
 *
 * @category utils
 */
export const reachFrom = (t: BuildTable, from: number, lead: number, budget: number, oldest: number): number | undefined => {
  let bound = 0
  let i = t.n - 1
  for (; i > lead && i >= oldest && bound <= budget; i--) {
    if (i < from) return undefined
    bound += boundOf(t, i) + 1
  }
  return i + 1
}
