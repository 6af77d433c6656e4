/**
 * The tool-call unit: an assistant turn that calls tools, with the turns holding the results
 * that answer it. Providers reject a call without its result and a result without its call,
 * so every builder keeps or drops a unit whole; this module is the one place that says which
 * turns form one.
 *
 * @module
 */
import type { ChatMessage } from './message.js'

/**
 * For each turn, the index of the turn that opens its tool-call unit: itself when it calls
 * tools; for a turn of results, the latest earlier turn that made the call its first result
 * answers; -1 for a turn outside any unit (including a result whose call is nowhere before
 * it). Linear.
 *
 * @example
 * toolUnitOf([user, assistantCalling('c1'), toolResultFor('c1'), user]) // [-1, 1, 1, -1]
 * @category utils
 * @since 0.2.0
 */
export const toolUnitOf = (messages: ReadonlyArray<ChatMessage>): ReadonlyArray<number> => {
  const callAt = new Map<string, number>()
  return messages.map((m, i) => {
    let opens = false
    let owner = -1
    for (const p of m.parts) {
      if (p._tag === 'ToolCall') {
        callAt.set(p.id, i)
        opens = true
      } else if (p._tag === 'ToolResult' && owner < 0) owner = callAt.get(p.callId) ?? -1
    }
    return opens ? i : owner
  })
}

/**
 * The `group` of each turn for a layout: `tools:<opening index + offset>` for the turns of a
 * tool-call unit, undefined for the rest. `offset` is added to the index (a window that starts
 * later in a longer history keeps the history's own numbering).
 *
 * @category utils
 * @since 0.2.0
 */
export const toolGroups = (messages: ReadonlyArray<ChatMessage>, offset = 0): ReadonlyArray<string | undefined> =>
  toolUnitOf(messages).map((owner) => (owner < 0 ? undefined : `tools:${owner + offset}`))

/**
 * The tool-call unit of items that carry call ids rather than turns (team9 memory chunks,
 * where one chunk may hold calls and results of several calls): items sharing a call id,
 * transitively, are one unit. Returns each item's unit as the index of one of its items
 * (union-find, near linear).
 *
 * @example
 * sharedCallGroups([['c1'], [], ['c1', 'c2'], ['c2']]) // [0, 1, 0, 0]
 * @category utils
 * @since 0.2.0
 */
export const sharedCallGroups = (callIds: ReadonlyArray<ReadonlyArray<string>>): ReadonlyArray<number> => {
  const parent = callIds.map((_, i) => i)
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!
    return i
  }
  const byCall = new Map<string, number>()
  callIds.forEach((ids, i) => {
    for (const id of ids) {
      const j = byCall.get(id)
      if (j === undefined) byCall.set(id, i)
      else parent[find(i)] = find(j)
    }
  })
  return callIds.map((_, i) => find(i))
}

/**
 * Where a window of turns cut at `start` may open: past the turns there that only answer
 * calls (every part a tool result), whose calls lie before the window and went with it.
 *
 * @example
 * windowOpening([user, results, results, assistant], 1) // 3
 * @category utils
 * @since 0.2.0
 */
export const windowOpening = (turns: ReadonlyArray<ChatMessage>, start: number): number => {
  let i = start
  while (i < turns.length && answersOnly(turns[i]!)) i++
  return i
}

/** Whether a turn only answers calls: every part a tool result. */
const answersOnly = (m: ChatMessage): boolean => m.parts.length > 0 && m.parts.every((p) => p._tag === 'ToolResult')
