/**
 * The conversation-level half of the repair pass: every tool call answered by its result in
 * the very next turn, every result after its call.
 *
 * - A call's result is the first unused result with its id anywhere after it; when that result
 *   is not already right after the call it is moved up (`MovedResult`): a real result is worth
 *   more than a synthetic one. Results keep the order they were written in, not the calls'
 *   order (pi and Claude Code send them so).
 * - A call without a result gets pi's synthetic error result "No result provided"
 *   (`SyntheticResult`), placed right after the call.
 * - A result without a call before it, or whose call already has a result, is dropped
 *   (`DroppedOrphanResult`).
 * - Ids the target rejects, or that an earlier call already used, are rewritten (`RewroteCallId`).
 *
 * Linear in the number of parts: results are indexed by id once, and each id's results are
 * consumed in order.
 *
 * @module
 */
import type { ChatMessage, ToolCallPart, ToolResultPart } from '../message.js'
import { toolCallsOf, toolResult } from '../message.js'
import { isValidCallId, rewriteCallId } from './callId.js'
import type { Cleaned } from './clean.js'
import type { Finding } from './finding.js'
import { SYNTHETIC_RESULT_TEXT, type Format } from './options.js'

/** A message placed in the repaired conversation, and the input index it comes from. */
export interface Placed {
  readonly message: ChatMessage
  readonly source: number
}

type Slot =
  | { readonly _tag: 'Message'; readonly index: number; readonly message: ChatMessage }
  | { readonly _tag: 'Result'; readonly index: number; readonly part: ToolResultPart; readonly from: ChatMessage | undefined }

const toolTurn = (part: ToolResultPart, timestamp: number | undefined): ChatMessage => ({
  role: 'tool',
  parts: [part],
  ...(timestamp === undefined ? {} : { timestamp }),
})

/**
 * Pairs tool calls with their results over cleaned messages.
 *
 * @category utils
 * @since 0.1.0
 */
export const pairToolCalls = (
  cleaned: ReadonlyArray<Cleaned>,
  format: Format,
  original: ReadonlyArray<ChatMessage>,
): { readonly placed: ReadonlyArray<Placed>; readonly findings: ReadonlyArray<Finding> } => {
  // results a turn carries logically precede its own text (Claude Code keeps them in user turns)
  const slots: ReadonlyArray<Slot> = cleaned.flatMap((c): ReadonlyArray<Slot> => [
    ...c.results.map((part): Slot => ({ _tag: 'Result', index: c.index, part, from: original[c.index] })),
    ...(c.message === undefined ? [] : [{ _tag: 'Message', index: c.index, message: c.message } as const]),
  ])
  const resultsById = new Map<string, Array<number>>()
  slots.forEach((s, pos) => {
    if (s._tag !== 'Result') return
    const list = resultsById.get(s.part.callId)
    if (list === undefined) resultsById.set(s.part.callId, [pos])
    else list.push(pos)
  })
  const cursor = new Map<string, number>()
  const consumed = new Set<number>()
  const usedIds = new Set<string>()
  const findings: Array<Finding> = []
  const placed: Array<Placed> = []

  const resultFor = (id: string, after: number): number | undefined => {
    const positions = resultsById.get(id) ?? []
    let k = cursor.get(id) ?? 0
    while (k < positions.length && positions[k]! < after) k++
    const pos = positions[k]
    cursor.set(id, pos === undefined ? k : k + 1)
    if (pos !== undefined) consumed.add(pos)
    return pos
  }

  slots.forEach((slot, pos) => {
    if (slot._tag === 'Result') {
      if (!consumed.has(pos)) findings.push({ _tag: 'DroppedOrphanResult', index: slot.index, callId: slot.part.callId })
      return
    }
    const calls = toolCallsOf(slot.message)
    if (calls.length === 0) {
      placed.push({ message: slot.message, source: slot.index })
      return
    }
    let trailing = pos
    while (slots[trailing + 1]?._tag === 'Result') trailing++
    const renamed = new Map<ToolCallPart, string>()
    // real results keep the order they were written in (as pi and Claude Code send them); synthetic ones follow
    const answers: Array<Placed & { readonly at: number }> = []
    for (const call of calls) {
      const id = isValidCallId(call.id, format) && !usedIds.has(call.id) ? call.id : rewriteCallId(call.id, format, (c) => usedIds.has(c))
      usedIds.add(id)
      if (id !== call.id) {
        renamed.set(call, id)
        findings.push({ _tag: 'RewroteCallId', index: slot.index, from: call.id, to: id })
      }
      const at = resultFor(call.id, pos)
      const found = at === undefined ? undefined : slots[at]
      if (found?._tag === 'Result') {
        if (at! > trailing) findings.push({ _tag: 'MovedResult', index: found.index, callId: call.id, to: slot.index })
        answers.push({ message: toolTurn({ ...found.part, callId: id }, found.from?.timestamp), source: found.index, at: at! })
      } else {
        findings.push({ _tag: 'SyntheticResult', index: slot.index, callId: call.id })
        answers.push({ message: toolTurn(toolResult(id, call.name, SYNTHETIC_RESULT_TEXT, true), undefined), source: slot.index, at: Number.POSITIVE_INFINITY })
      }
    }
    const message =
      renamed.size === 0
        ? slot.message
        : { ...slot.message, parts: slot.message.parts.map((p) => (p._tag === 'ToolCall' && renamed.has(p) ? { ...p, id: renamed.get(p)! } : p)) }
    placed.push({ message, source: slot.index }, ...answers.sort((a, b) => a.at - b.at).map(({ message: m, source }) => ({ message: m, source })))
  })
  return { placed, findings }
}
