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
