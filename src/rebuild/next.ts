/**
 * The memo a rebuilt result carries for the next build (`./memo.ts`): the same settings, the
 * turns it read, and what it knows of them (its table, from the build's: `nextTable`), shared
 * with the previous memo where unchanged.
 *
 * @module
 */
import { availableTokens } from '../config.js'
import type { RebuildMemo } from './memo.js'
import { boundOf, isCounted, sumsOf, type BuildTable, type TurnTable } from './table.js'

/** What this build learned, for {@link nextMemo}. */
export interface Learned {
  readonly reach: number
  /** The build's table: the memo's numbers and those it took. */
  readonly table: BuildTable
  readonly output: RebuildMemo['output']
  readonly frame: RebuildMemo['frame']
  readonly roleCost: ReadonlyMap<string, number>
}

/**
 * The memo of the rebuilt result of history `h`.
 *
 * @category utils
 */
export const nextMemo = (memo: RebuildMemo, h: ReadonlyArray<unknown>, l: Learned): RebuildMemo => {
  const { reach, table } = l
  const budget = availableTokens(memo.key.config)
  // the request check's reach, from the table's bounds: it only moves on as turns are
  // appended, so it never walks before the table (if it did, the table's start reads more)
  const limit = memo.key.config.maxHistoryMessages
  const oldest = limit === Number.POSITIVE_INFINITY ? memo.lead : Math.max(memo.lead, h.length - limit)
  const from = Math.min(reach, reachFrom(table, memo.table.from, memo.lead, budget, oldest) ?? memo.table.from)
  return {
    ...memo,
    length: h.length,
    from,
    reach,
    turns: [...h.slice(0, memo.lead), ...h.slice(from)],
    table: nextTable(table, from, reach),
    output: l.output,
    frame: l.frame,
    // the previous table when no role was added (the same object)
    layout: l.roleCost.size === memo.layout.roleCost.size ? memo.layout : { ...memo.layout, roleCost: l.roleCost },
  }
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
  const { n, added, taken } = t
  const at = from - t.memo.from
  const counts = merged(t.memo.counts, added.map((a) => a.count), at, n - from, from, taken?.counts)
  const joins = merged(t.memo.joins, added.map((a) => a.join), at, n - from, from, taken?.joins)
  for (let k = 0; k < reach - from; k++) counts[k] = joins[k] = Number.NaN
  const counted: number[] = []
  for (let i = from; i < n; i++) counted.push(isCounted(t, i) ? 1 : 0)
  const bounds = merged(t.memo.bounds, added.map((a) => a.bound), at, n - from, from)
  const costs = merged(t.memo.costs, added.map((a) => a.cost), at, n - from, from)
  const lengths = merged(t.memo.lengths, added.map((a) => a.length), at, n - from, from)
  return { from, bounds, lengths, counts, joins, costs, counted, sums: sumsOf({ bounds, counts, joins }) }
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
