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
import { historyPacket, historyRanges, toChatMessage } from '../gather/builtins.js'
import { DEFAULT_PRIORITY, type Packet } from '../packet.js'
import type { Exclusion } from '../phase.js'
import type { PacketReport } from '../report.js'
import { BEHIND_WINDOW } from '../select/fill.js'
import { typeScorers } from '../select/selector.js'
import type { Appendable } from './append.js'
import type { Window } from './fill.js'
import { isCounted, sameCounted, takeCount, type BuildTable } from './table.js'

/** Where the history gatherer's walk went, and what the final fill took. */
export interface Walk {
  readonly n: number
  readonly windowStart: number
  readonly reach: number
  readonly limit: number
  readonly budget: number
  readonly final: Window
  /** The build's table: the turns, and the counts its fills took. */
  readonly table: BuildTable
}

/** A turn's exact count, when a fill of this build took it. */
const countedOf = (t: BuildTable, i: number): number | undefined => (isCounted(t, i) ? takeCount(t, i) : undefined)

/**
 * The report's packets and exclusions, or undefined when the previous report lists no turn.
 *
 * @category utils
 */
export const reportOf = (prev: Appendable, config: Config, now: number, w: Walk): { readonly packets: ReadonlyArray<PacketReport>; readonly excluded: ReadonlyArray<Exclusion> } | undefined => {
  const memo = prev.rebuild
  const { n, reach, final } = w
  const at = memo.reportAt
  if (prev.packets[at]?.id !== `history:${memo.reach}`) return undefined
  // the previous build's window and miss (the turn before its window, when past its reach)
  const prevFrom = memo.output.from
  const prevMiss = prevFrom > memo.reach ? prevFrom - 1 : -1
  const missAt = final.miss === undefined ? -1 : final.from - 1
  // the exclusions: the miss, then every turn behind it, newest first; a turn behind both windows keeps its entry
  const excludedFinal: Exclusion[] = []
  const prevFinal = prev.excluded.length - (prevMiss < 0 ? 0 : prevMiss - memo.reach + 1)
  if (missAt >= 0) {
    excludedFinal.push({ id: `history:${missAt}`, reason: 'over_budget', detail: final.miss! })
    for (let i = missAt - 1; i >= reach; i--)
      excludedFinal.push(i < prevMiss && i >= memo.reach ? prev.excluded[prevFinal + prevMiss - i]! : { id: `history:${i}`, reason: 'over_budget', detail: BEHIND_WINDOW })
  }
  // of its final length, filled in order (pushing would grow it a few times over)
  const packets = new Array<PacketReport>(at + (n - reach) + prev.packets.length - (at + memo.length - memo.reach))
  for (let k = 0; k < at; k++) packets[k] = prev.packets[k]!
  const made: Made = { prev, config, now, table: w.table, missAt, excludedFinal, scorers: undefined }
  // the previous entry where it says the same (the same object, not a copy): a turn left out
  // behind both windows, its count shown or not both times; a turn kept both times. Runs of
  // them are copied in tight loops, without a call per turn: the rebuild runs too few times
  // for V8 to optimize this loop, and a report has a few hundred turns
  let p = at
  let i = reach
  const behind = Math.max(reach, Math.min(missAt, prevMiss, memo.length))
  while (i < behind) {
    const stop = sameCounted(w.table, i, behind)
    for (; i < stop; i++) packets[p++] = prev.packets[at + i - memo.reach]!
    if (i < behind) packets[p++] = entry(made, i++)
  }
  const keptFrom = Math.max(final.from, prevFrom)
  for (; i < n; i++) packets[p++] = i >= keptFrom && i < memo.length ? prev.packets[at + i - memo.reach]! : entry(made, i)
  for (let k = at + memo.length - memo.reach; k < prev.packets.length; k++) packets[p++] = prev.packets[k]!
  const excluded = [...historyRanges({ lead: memo.lead, windowStart: w.windowStart, reach, start: reach, limit: w.limit, budget: w.budget, own: false }), ...excludedFinal]
  return { packets, excluded }
}

/** What a new report entry is made from. */
interface Made {
  readonly prev: Appendable
  readonly config: Config
  readonly now: number
  readonly table: BuildTable
  /** The turn the final fill missed (-1: none), and the exclusions from it back, newest first. */
  readonly missAt: number
  readonly excludedFinal: ReadonlyArray<Exclusion>
  /** The history packets' scorers, made when first needed (a new turn). */
  scorers: { readonly rec: (p: Packet) => number; readonly comp: (r: number | undefined, c: number) => number } | undefined
}

/** Turn `i`'s new report entry: kept, or left out with the final fill's reason. */
const entry = (m: Made, i: number): PacketReport => {
  const memo = m.prev.rebuild
  const before = i < memo.length ? m.prev.packets[memo.reportAt + i - memo.reach]! : undefined
  const id = `history:${i}`
  let scores = before?.scores
  if (scores === undefined) {
    const s = (m.scorers ??= typeScorers(m.config, m.now)('history'))
    const t = m.table.turns[i]!
    scores = scoresOf(historyPacket(toChatMessage(t as never), i, t.content, m.now), s.rec, s.comp)
  }
  const tokens = countedOf(m.table, i)
  const priority = DEFAULT_PRIORITY.history
  const x = i > m.missAt ? undefined : m.excludedFinal[m.missAt - i]!
  // literals, as in finish: a spread followed by more properties costs ~2 µs per object on Node 20
  return x === undefined
    ? { id, type: 'history', priority, source: 'history', tokens, scores, status: 'kept', section: 'context' }
    : { id, type: 'history', priority, source: 'history', tokens, scores, status: 'dropped', reason: x.reason, detail: x.detail! }
}

/** The scores a cold build gives a history packet (relevance is not judged for history). */
const scoresOf = (p: Packet, rec: (p: Packet) => number, comp: (r: number | undefined, c: number) => number) => {
  const c = rec(p)
  return { relevance: undefined, recency: c, composite: comp(undefined, c) }
}
