/**
 * A built session's history as packets of only the turns that could fit: the route from a
 * session to a context that costs what the newest turns cost, not what the whole history
 * costs.
 *
 * Session items carry their exact token counts, so walking back from the newest, once the
 * counts add up to more than the whole available budget no older turn can be selected (a
 * turn's cost in the output is at least its own count; a turn over the per-item cap costs at
 * least its capped count, taken when the walk reaches it). Those turns are reported as one
 * range, never made into packets; a turn that answers a call left behind goes with it (the
 * window never opens on an orphan result). With `rebuildSession`, a turn's build then reads
 * and counts only the appended lines and lays out only the window.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { availableTokens } from '../config.js'
import { builtin, type Gatherer } from '../gather/gatherer.js'
import { capPacket, itemCapOf } from '../gather/itemCap.js'
import { packet, type PacketInput } from '../packet.js'
import type { Exclusion } from '../phase.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { messageCost } from '../render/cost.js'
import { counter, type HistoryItem } from './items.js'
import { historyPackets, sessionSource, type PacketSource } from './packets.js'
import type { SessionFormat, Unread } from './model.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** How far back a window reaches, and how each turn is capped. */
export interface WindowOptions {
  /** The build's available budget; none: every turn (a history strategy fits them all). */
  readonly budget?: number
  /** The per-item cap ({@link itemCapOf}); none: no cap. */
  readonly cap?: number
  readonly tokenizer: Tokenizer
  /** The branch's oldest entries, never converted (a build with `reach`): reported with the older turns. */
  readonly unread?: Unread
}

/** The window's packets (capped), and the report of the turns before it. */
export interface Windowed {
  readonly packets: ReadonlyArray<PacketInput>
  readonly excluded: ReadonlyArray<Exclusion>
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * The index of the oldest item a budget can reach: walking back from the newest, the first
 * whose cost (default its count), added to the newer ones', passes `budget` is left out with
 * all older ones; then items sharing a group with the one before the window leave with it.
 *
 * @example
 * windowStart(items, 6000) // items.slice(windowStart(items, 6000)) is what a 6,000-token build can reach
 * @category utils
 * @since 0.2.0
 */
export const windowStart = (items: ReadonlyArray<HistoryItem>, budget: number, cost: (i: number) => number = (i) => items[i]!.tokens): number => {
  let total = 0
  let start = items.length
  while (start > 0 && total + cost(start - 1) <= budget) total += cost(--start)
  if (start === 0) return 0
  // a group (a call and its results) is kept or dropped whole
  const cut = items[start - 1]!.group
  while (cut !== undefined && start < items.length && items[start]!.group === cut) start++
  return start
}

/**
 * The report of the turns before `start` (see {@link windowStart}), and of the branch's
 * entries never converted before them: one range, or nothing.
 *
 * @category utils
 * @since 0.2.0
 */
export const olderTurns = (from: PacketSource, items: ReadonlyArray<HistoryItem>, start: number, budget: number, unread?: Unread): ReadonlyArray<Exclusion> => {
  if (start === 0 && unread === undefined) return []
  const first = unread?.firstId ?? items[0]!.id
  const last = start === 0 ? unread!.lastId : items[start - 1]!.id
  const never =
    unread === undefined
      ? ''
      : `; before them ${unread.entries} older entries (lines ${unread.firstLine}-${unread.lastLine}, ${unread.bytes} bytes) were never converted or counted`
  return [
    {
      id: `${from.source}#${first}..${last}`,
      reason: 'over_budget',
      detail: `${start} older turn(s) cannot fit: the newer turns alone need more than ${budget} tokens; not made into packets${never}`,
    },
  ]
}

/** An item's cost in a window: its count, or its capped count when over the cap (kept in `made`, which the caller owns). */
const cappedCost =
  (items: ReadonlyArray<HistoryItem>, options: WindowOptions, asPacket: (i: number) => PacketInput, made: Map<number, PacketInput>) =>
  (i: number): number => {
    const item = items[i]!
    const { cap, tokenizer } = options
    if (cap === undefined || item.tokens <= cap) return item.tokens
    const p = capPacket(asPacket(i), cap, tokenizer)
    made.set(i, p)
    return p.tokens ?? messageCost(p.message ?? item.message, { count: counter(tokenizer) })
  }

/**
 * The turns a budget can reach as history packets, each capped to the per-item cap, and one
 * `over_budget` exclusion naming the older ones. Only the window's turns become packets and
 * only those the walk reaches are capped.
 *
 * @example
 * windowed(sessionSource(s), s.history.items, { budget: 6000, cap: 2000, tokenizer }).excluded // [{ id: 'pi:run.jsonl#a1..a90', reason: 'over_budget', … }]
 * @category utils
 * @since 0.2.0
 */
export const windowed = (from: PacketSource, items: ReadonlyArray<HistoryItem>, options: WindowOptions): Windowed => {
  const { budget, cap, tokenizer } = options
  const asPacket = (i: number): PacketInput => historyPackets(from)([items[i]!])[0]!
  // the capped packets the walk made, so a long turn is cut once
  const made = new Map<number, PacketInput>()
  const capped = (i: number): PacketInput => made.get(i) ?? capPacket(asPacket(i), cap, tokenizer)
  const start = budget === undefined ? 0 : windowStart(items, budget, cappedCost(items, options, asPacket, made))
  const packets: PacketInput[] = []
  for (let i = start; i < items.length; i++) packets.push(capped(i))
  return { packets, excluded: budget === undefined ? [] : olderTurns(from, items, start, budget, options.unread) }
}

/**
 * The index of the oldest item a window reaches (see {@link windowed}): 0 when every item
 * fits or there is no budget.
 *
 * @category utils
 */
export const reachStart = (items: ReadonlyArray<HistoryItem>, options: WindowOptions): number => {
  if (options.budget === undefined) return 0
  // the packets' names never change a cost
  const asPacket = (i: number): PacketInput => historyPackets({ source: '' })([items[i]!])[0]!
  return windowStart(items, options.budget, cappedCost(items, options, asPacket, new Map()))
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The session's history as a gatherer: packets (as {@link historyPackets} makes them, capped
 * by the build's per-item cap) for the turns the build's budget can reach, and one
 * `over_budget` exclusion naming the older ones.
 *
 * @example
 * const session = await rebuildSession(file, { tokenizer }, previous)()
 * const result = await build({ query }, { tokenizer, gatherers: [sessionHistory(session.right)] })()
 * @category constructors
 * @since 0.2.0
 */
export const sessionHistory = (
  session: { readonly file: string; readonly format: SessionFormat; readonly context: { readonly leafId: string | null }; readonly history: { readonly items: ReadonlyArray<HistoryItem> }; readonly unread?: Unread },
  from: PacketSource = sessionSource(session),
): Gatherer =>
  builtin('session', ({ config, now, tokenizer }) => async () => {
    const cap = itemCapOf(config)
    const w = windowed(from, session.history.items, {
      budget: availableTokens(config),
      tokenizer,
      ...(cap === undefined ? {} : { cap }),
      ...(session.unread === undefined ? {} : { unread: session.unread }),
    })
    return E.right({ packets: w.packets.map((p) => packet(p, now)), failures: [], excluded: w.excluded })
  })
