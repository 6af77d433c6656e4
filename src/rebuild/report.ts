/**
 * The rebuilt result's report: the previous report with the turns from the history
 * gatherer's reach on reported again (kept, or left out with the fill's reason), the new
 * turns scored as a cold build scores them, and the exclusions of the turns before the reach.
 *
 * @module
 */
import type { Config } from '../config.js'
import { historyPacket, historyRanges, toChatMessage } from '../gather/builtins.js'
import { DEFAULT_PRIORITY, type Packet } from '../packet.js'
import type { Exclusion } from '../phase.js'
import type { PacketReport } from '../report.js'
import { typeScorers } from '../select/selector.js'
import type { Appendable } from './append.js'
import { exclusionsOf, type Window } from './fill.js'
import type { Turn } from './layOut.js'

/** Where the history gatherer's walk went, and what the final fill took. */
export interface Walk {
  readonly n: number
  readonly windowStart: number
  readonly reach: number
  readonly limit: number
  readonly budget: number
  readonly final: Window
  readonly turn: (i: number) => Turn
  /** A turn's exact count, when a fill took it. */
  readonly counted: (i: number) => number | undefined
}

/**
 * The report's packets and exclusions, or undefined when the previous report lists no turn.
 *
 * @category utils
 */
export const reportOf = (prev: Appendable, config: Config, now: number, w: Walk): { readonly packets: ReadonlyArray<PacketReport>; readonly excluded: ReadonlyArray<Exclusion> } | undefined => {
  const memo = prev.rebuild
  const { n, reach, final } = w
  const excludedFinal = exclusionsOf(final, reach, n)
  const { rec, comp } = typeScorers(config, now)('history')
  const reachReports: PacketReport[] = []
  // the previous reports of turns from its reach on, in order; this build's exclusions, newest first below the window
  const at = prev.packets.findIndex((p) => p.id === `history:${memo.reach}`)
  if (at < 0) return undefined
  const missAt = n - 1 - final.taken.length
  const priority = DEFAULT_PRIORITY.history
  for (let i = reach; i < n; i++) {
    const id = `history:${i}`
    const before = i < memo.length ? prev.packets[at + i - memo.reach]! : undefined
    const scores = before !== undefined ? before.scores : scoresOf(historyPacket(toChatMessage(w.turn(i) as never), i, w.turn(i).content, now), rec, comp)
    const tokens = w.counted(i)
    const x = i > missAt ? undefined : excludedFinal[missAt - i]!
    // the previous report of the turn when it says the same (the same object, not a copy)
    if (before !== undefined && before.tokens === tokens && (x === undefined ? before.status === 'kept' : before.status === 'dropped' && before.reason === x.reason && before.detail === x.detail)) {
      reachReports.push(before)
      continue
    }
    // literals, as in finish: a spread followed by more properties costs ~2 µs per object on Node 20
    reachReports.push(
      x === undefined
        ? { id, type: 'history', priority, source: 'history', tokens, scores, status: 'kept', section: 'context' }
        : { id, type: 'history', priority, source: 'history', tokens, scores, status: 'dropped', reason: x.reason, detail: x.detail! },
    )
  }
  const packets = [...prev.packets.slice(0, at), ...reachReports, ...prev.packets.slice(at + memo.length - memo.reach)]
  const excluded = [...historyRanges({ lead: memo.lead, windowStart: w.windowStart, reach, start: reach, limit: w.limit, budget: w.budget, own: false }), ...excludedFinal]
  return { packets, excluded }
}

/** The scores a cold build gives a history packet (relevance is not judged for history). */
const scoresOf = (p: Packet, rec: (p: Packet) => number, comp: (r: number | undefined, c: number) => number) => {
  const c = rec(p)
  return { relevance: undefined, recency: c, composite: comp(undefined, c) }
}
