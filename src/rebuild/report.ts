/**
 * The rebuilt result's report: the previous report with the turns from the history
 * gatherer's reach on reported again (kept, or left out with the fill's reason), the new
 * turns scored as a cold build scores them, and the exclusions of the turns before the reach.
 *
 * A turn whose entry says what it said before (kept both times, or left out behind the
 * window both times with its count shown or not both times) keeps the previous entry, the
 * same object: which ones is told from the two windows and the tables' `counted` flags,
 * without reading the entries, so a rebuild reads and makes only the entries that change.
 *
 * @module
 */
import type { Config } from '../config.js'
import { historyRanges } from '../gather/builtins.js'
import { DEFAULT_PRIORITY } from '../packet.js'
import type { Exclusion } from '../phase.js'
import type { PacketReport } from '../report.js'
import { BEHIND_WINDOW } from '../select/fill.js'
import { typeScorers } from '../select/selector.js'
import { madeAt, type Layouts } from './layOut.js'
import type { Window } from './fill.js'
import { isCounted, sameCounted, takeCount } from './table.js'

/** Where the history gatherer's walk went, and what the final fill took. */
export interface Walk {
  readonly n: number
  readonly windowStart: number
  readonly reach: number
  readonly limit: number
  readonly budget: number
  readonly final: Window
}

/**
 * The report's packets and exclusions of the layouts `l` (their table: the turns, and the
 * counts its fills took), or undefined when the previous report lists no turn.
 *
 * @category utils
 */
export const reportOf = (l: Layouts, config: Config, now: number, w: Walk): { readonly packets: ReadonlyArray<PacketReport>; readonly excluded: ReadonlyArray<Exclusion> } | undefined => {
  const { prev, table } = l
  const memo = prev.rebuild
  const { n, reach, final } = w
  const at = memo.reportAt
  const before = prev.packets
  if (before[at]?.id !== `history:${memo.reach}`) return undefined
  // the previous build's window and miss (the turn before its window, when past its reach)
  const prevFrom = memo.output.from
  const prevMiss = prevFrom > memo.reach ? prevFrom - 1 : -1
  const missAt = final.miss === undefined ? -1 : final.from - 1
  // where the previous exclusions of its final fill start: after those of the ranges before the reach
  const prevFinal = prev.excluded.length - (prevMiss < 0 ? 0 : prevMiss - memo.reach + 1)
  // the ranges before the reach: the previous ones when the walk stopped where it did (the
  // same turns, the same words), else made again
  const prevStart = w.limit === Number.POSITIVE_INFINITY ? memo.lead : Math.max(memo.lead, memo.length - w.limit)
  const excluded: Exclusion[] =
    reach === memo.reach && w.windowStart === prevStart
      ? prev.excluded.slice(0, prevFinal)
      : [...historyRanges({ lead: memo.lead, windowStart: w.windowStart, reach, start: reach, limit: w.limit, budget: w.budget, own: false })]
  // the final fill's: the miss, then every turn behind it, newest first; a turn behind both windows keeps its entry
  const ranges = excluded.length
  if (missAt >= 0) {
    excluded.push({ id: `history:${missAt}`, reason: 'over_budget', detail: final.miss! })
    for (let i = missAt - 1; i >= reach; i--)
      excluded.push(i < prevMiss && i >= memo.reach ? prev.excluded[prevFinal + prevMiss - i]! : { id: `history:${i}`, reason: 'over_budget', detail: BEHIND_WINDOW })
  }
  // of its final length, filled in order (pushing would grow it a few times over)
  const packets = new Array<PacketReport>(at + (n - reach) + before.length - (at + memo.length - memo.reach))
  for (let k = 0; k < at; k++) packets[k] = before[k]!
  // the previous entry where it says the same (the same object, not a copy): a turn left out
  // behind both windows, its count shown or not both times; a turn kept both times. Runs of
  // them are copied in tight loops, without a call per turn: the rebuild runs too few times
  // for V8 to optimize this loop, and a report has a few hundred turns
  let p = at
  let i = reach
  const behind = Math.max(reach, Math.min(missAt, prevMiss, memo.length))
  while (i < behind) {
    const stop = sameCounted(table, i, behind)
    for (; i < stop; i++) packets[p++] = before[at + i - memo.reach]!
    if (i < behind) packets[p++] = entry(l, config, now, excluded[ranges + missAt - i]!, i++)
  }
  const keptFrom = Math.max(final.from, prevFrom)
  for (; i < n; i++) packets[p++] = i >= keptFrom && i < memo.length ? before[at + i - memo.reach]! : entry(l, config, now, i > missAt ? undefined : excluded[ranges + missAt - i], i)
  for (let k = at + memo.length - memo.reach; k < before.length; k++) packets[p++] = before[k]!
  return { packets, excluded }
}

/**
 * Turn `i`'s new report entry: kept, or left out as `x` says. A turn the previous report
 * lists keeps its scores; a new one is scored as a cold build scores it (its packet the
 * layouts made).
 */
const entry = (l: Layouts, config: Config, now: number, x: Exclusion | undefined, i: number): PacketReport => {
  const memo = l.prev.rebuild
  let scores = i < memo.length ? l.prev.packets[memo.reportAt + i - memo.reach]!.scores : undefined
  if (scores === undefined) {
    const s = typeScorers(config, now)('history')
    const c = s.rec(madeAt(l, i).packet)
    scores = { relevance: undefined, recency: c, composite: s.comp(undefined, c) }
  }
  const id = `history:${i}`
  const tokens = isCounted(l.table, i) ? takeCount(l.table, i) : undefined
  const priority = DEFAULT_PRIORITY.history
  // literals, as in finish: a spread followed by more properties costs ~2 µs per object on Node 20
  return x === undefined
    ? { id, type: 'history', priority, source: 'history', tokens, scores, status: 'kept', section: 'context' }
    : { id, type: 'history', priority, source: 'history', tokens, scores, status: 'dropped', reason: x.reason, detail: x.detail! }
}
