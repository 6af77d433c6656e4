/**
 * From a rebuilt context to a history providers accept, counted once:
 *
 * 1. thinking follows the replay rule ({@link replayThinking});
 * 2. `error` and `aborted` assistant turns are dropped, as are empty text blocks and turns
 *    left with nothing to send;
 * 3. each turn is counted once;
 * 4. tool calls and results are paired by id: results follow their call's turn, a call with
 *    no result gets an error result "No result provided" (pi's rule), a result with no call
 *    is dropped. An assistant turn with calls and its results share a `group`.
 *
 * Every change is reported as a {@link Repair}; nothing is changed silently.
 *
 * @module
 */
import type { ChatMessage, Origin, Part, ToolCallPart, ToolResultPart } from '../message.js'
import { message, toolCallsOf, toolResult } from '../message.js'
import type { TokenCache } from '../tokenize/cache.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { messageCost } from '../render/cost.js'
import { counter, type Count, type HistoryItem, type Repair } from './items.js'
import type { ContextMessage } from './model.js'
import { replayThinking, type CrossModelThinking } from './thinking.js'
import { SYNTHETIC_RESULT_TEXT } from '../render/options.js'

/** How to turn a context into a history. */
export interface HistoryOptions {
  readonly tokenizer: Tokenizer
  /** Shared token counts across builds. */
  readonly cache?: TokenCache
  /** The model the history will be sent to; decides whether thinking is replayed as thinking. */
  readonly target?: Origin
  /** Another model's thinking: `text` (default, as pi) or `drop`. */
  readonly crossModelThinking?: CrossModelThinking
}

/** A well-formed, counted history and what was changed to make it so. */
export interface History {
  readonly items: ReadonlyArray<HistoryItem>
  readonly repairs: ReadonlyArray<Repair>
}

/** One context message after the per-turn rules (steps 1–3): an item, or only repairs. */
export interface Prepared {
  readonly item?: HistoryItem
  readonly repairs: ReadonlyArray<Repair>
}

/** The text of pi's synthetic result for a call that never got one (the renderers' own). */
export const NO_RESULT = SYNTHETIC_RESULT_TEXT

const FAILED = new Set(['error', 'aborted'])

/**
 * An item's id: the entry id, then `<entry>#<n>` for its n-th later turn. An entry's turns
 * are next to each other, except in a Claude Code user turn, where a line's results come
 * first among the other lines' results and its text after them: so the look-back goes over
 * the entry's own turns and tool results only.
 */
const itemId = (messages: ReadonlyArray<ContextMessage>, i: number): string => {
  const entryId = messages[i]!.entryId
  let k = 0
  for (let j = i - 1; j >= 0; j--) {
    const prev = messages[j]!
    if (prev.entryId === entryId) k++
    else if (prev.message.role !== 'tool') break
  }
  return k === 0 ? entryId : `${entryId}#${k}`
}

const nonEmpty = (p: Part): boolean => p._tag !== 'Text' || p.text.trim().length > 0

/**
 * Steps 1–3 for the messages from index `from` on (earlier ones only give ids their
 * numbering). Incremental rebuilds prepare just the new messages.
 *
 * @category utils
 */
export const prepareFrom = (
  messages: ReadonlyArray<ContextMessage>,
  from: number,
  options: HistoryOptions,
  count: Count = counter(options.tokenizer, options.cache),
): ReadonlyArray<Prepared> => {
  const thinking = replayThinking(options.target, options.crossModelThinking)
  const out: Prepared[] = []
  for (let i = from; i < messages.length; i++) {
    const cm = messages[i]!
    const id = itemId(messages, i)
    const stop = cm.message.stopReason
    if (cm.message.role === 'assistant' && stop !== undefined && FAILED.has(stop)) {
      out.push({ repairs: [{ _tag: 'DroppedFailedTurn', itemId: id, stopReason: stop, toolCalls: toolCallsOf(cm.message).length }] })
      continue
    }
    const t = thinking(cm.message)
    const repairs: Repair[] = t.toText + t.dropped > 0 ? [{ _tag: 'ThinkingConverted', itemId: id, toText: t.toText, dropped: t.dropped }] : []
    const parts = t.message.parts.filter(nonEmpty)
    if (parts.length === 0) {
      out.push({ repairs: [...repairs, { _tag: 'DroppedEmptyTurn', itemId: id, role: cm.message.role }] })
      continue
    }
    const m: ChatMessage = parts.length === t.message.parts.length ? t.message : { ...t.message, parts }
    out.push({ item: { id, entryId: cm.entryId, kind: cm.kind, message: m, tokens: messageCost(m, { count }) }, repairs })
  }
  return out
}

/** A point where pairing can resume: no turn is waiting for results, so all before it is final. */
export interface PairPoint {
  /** Index into the prepared turns. */
  readonly prepared: number
  /** Items and repairs produced before it. */
  readonly items: number
  readonly repairs: number
}

/** A paired history and the last point it can be resumed from. */
export interface Paired extends History {
  readonly resumable: PairPoint
}

/**
 * Step 4: pairs tool calls with results over prepared turns, from the start or from a
 * {@link PairPoint} of an earlier pairing of the same turns (incremental rebuilds resume
 * there). Linear, and it tokenizes nothing but the synthetic result text (once).
 *
 * @category utils
 */
export const pairFrom = (prepared: ReadonlyArray<Prepared>, count: Count, from?: { readonly history: History; readonly at: PairPoint }): Paired => {
  const at = from?.at ?? { prepared: 0, items: 0, repairs: 0 }
  // the items and repairs made here, after the `at.items` and `at.repairs` kept: joined to them
  // once at the end (one copy of a long history, not a copy that pushing then grows again)
  const items: HistoryItem[] = []
  const repairs: Repair[] = []
  let resumable = at
  let turn: { readonly id: string; readonly group: string; readonly calls: ReadonlyArray<ToolCallPart>; readonly timestamp?: number } | undefined
  let answered = new Set<string>()
  const close = (): void => {
    if (turn === undefined) return
    for (const call of turn.calls) {
      if (answered.has(call.id)) continue
      const id = `${turn.id}:no-result:${call.id}`
      const m = message('tool', [toolResult(call.id, call.name, NO_RESULT, true)], turn.timestamp === undefined ? {} : { timestamp: turn.timestamp })
      items.push({ id, kind: 'syntheticResult', message: m, tokens: messageCost(m, { count }), group: turn.group })
      repairs.push({ _tag: 'SyntheticResult', itemId: id, callId: call.id, name: call.name })
    }
    turn = undefined
    answered = new Set()
  }
  const accept = (item: HistoryItem): void => {
    const m = item.message
    if (m.role !== 'tool') {
      close()
      const calls = m.role === 'assistant' ? toolCallsOf(m) : []
      if (calls.length === 0) items.push(item)
      else {
        turn = { id: item.id, group: `turn:${item.id}`, calls, ...(m.timestamp === undefined ? {} : { timestamp: m.timestamp }) }
        items.push({ ...item, group: turn.group })
      }
      return
    }
    // copy the parts only when one is dropped or renamed
    let parts: Part[] | undefined
    m.parts.forEach((part, k) => {
      let keep: Part | undefined = part
      if (part._tag === 'ToolResult') {
        const call = turn?.calls.find((c) => c.id === part.callId)
        if (call === undefined) {
          repairs.push({ _tag: 'DroppedOrphanResult', itemId: item.id, callId: part.callId })
          keep = undefined
        } else if (answered.has(call.id)) {
          repairs.push({ _tag: 'DroppedDuplicateResult', itemId: item.id, callId: part.callId })
          keep = undefined
        } else {
          answered.add(call.id)
          if (part.name === '') keep = { ...part, name: call.name } satisfies ToolResultPart
        }
      }
      if (keep !== part && parts === undefined) parts = m.parts.slice(0, k)
      if (parts !== undefined && keep !== undefined) parts.push(keep)
    })
    const final = parts ?? m.parts
    if (turn !== undefined && final.some((p) => p._tag === 'ToolResult'))
      items.push({ ...item, ...(parts === undefined ? {} : { message: { ...m, parts } }), group: turn.group })
  }
  for (let i = at.prepared; i < prepared.length; i++) {
    const p = prepared[i]!
    repairs.push(...p.repairs)
    if (p.item !== undefined) accept(p.item)
    if (turn === undefined) resumable = { prepared: i + 1, items: at.items + items.length, repairs: at.repairs + repairs.length }
  }
  close()
  return { items: after(from?.history.items, at.items, items), repairs: after(from?.history.repairs, at.repairs, repairs), resumable }
}

/** The first `n` of `kept` (none without it), then `made`. */
const after = <A>(kept: ReadonlyArray<A> | undefined, n: number, made: ReadonlyArray<A>): ReadonlyArray<A> => {
  if (kept === undefined || n === 0) return made
  const head = n === kept.length ? kept : kept.slice(0, n)
  return made.length === 0 ? head : head.concat(made)
}

/**
 * Step 4 from the start: see {@link pairFrom}.
 *
 * @category utils
 */
export const pairTurns = (prepared: ReadonlyArray<Prepared>, count: Count): History => {
  const { items, repairs } = pairFrom(prepared, count)
  return { items, repairs }
}

/**
 * Converts a rebuilt context into a well-formed, counted history (see the module comment).
 *
 * @example
 * const history = pipe(context.messages, toHistory({ tokenizer, target: { provider: 'anthropic', model: 'claude-sonnet-4-5' } }))
 * history.items   // turns with tokens and tool groups
 * history.repairs // e.g. [{ _tag: 'SyntheticResult', callId: 'toolu_01', ... }]
 * @category constructors
 * @since 0.1.0
 */
export const toHistory =
  (options: HistoryOptions) =>
  (messages: ReadonlyArray<ContextMessage>): History => {
    const count = counter(options.tokenizer, options.cache)
    return pairTurns(prepareFrom(messages, 0, options, count), count)
  }

/**
 * The same conversion for turns that do not come from a session file (an app's own chat
 * log): item ids are `h<index>`.
 *
 * @example
 * historyOf({ tokenizer })([message('user', 'hi'), message('assistant', 'hello')]).items.length // 2
 * @category constructors
 * @since 0.1.0
 */
export const historyOf =
  (options: HistoryOptions) =>
  (messages: ReadonlyArray<ChatMessage>): History =>
    toHistory(options)(messages.map((m, i) => ({ entryId: `h${i}`, kind: 'message', message: m })))
