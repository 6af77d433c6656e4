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
  // the previous entries of the turns [reach, memo.length) as they are (the same objects, not
  // copies), in one slice, the entries that change written over them, the new turns' pushed,
  // and the entries around the history's joined in one concat: builtins, where a loop per turn
  // runs as V8's baseline code here (a rebuild runs too few times to be optimized: see
  // ./append.ts). An entry changes unless it says what it said before: a turn left out behind
  // both windows, its count shown or not both times; a turn kept both times
  const off = at - memo.reach
  const history = before.slice(off + reach, off + memo.length)
  let i = reach
  const behind = Math.max(reach, Math.min(missAt, prevMiss, memo.length))
  while (i < behind) {
    i = sameCounted(table, i, behind)
    if (i < behind) {
      put(history, entry(l, config, now, excluded[ranges + missAt - i]!, i), i - reach)
      i++
    }
  }
  const keptFrom = Math.max(final.from, prevFrom)
  for (; i < n; i++) {
    if (i >= keptFrom && i < memo.length) i = memo.length - 1
    else put(history, entry(l, config, now, i > missAt ? undefined : excluded[ranges + missAt - i], i), i - reach)
  }
  const packets = before.slice(0, at).concat(history, before.slice(off + memo.length))
  return { packets, excluded }
}

/** Entry `e` at `k` of `history`: over the previous one, or after the last. */
const put = (history: PacketReport[], e: PacketReport, k: number): void => {
  if (k < history.length) history[k] = e
  else history.push(e)
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
