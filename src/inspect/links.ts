/**
 * Which packets a chat turn came from. Renderers turn the document into messages without
 * keeping item boundaries, so the link is recovered from the document: a tool call is
 * matched by its id, other items by their text appearing in the turn. History keeps its
 * order, so a conversation turn is only matched at or after the previous one; a short
 * repeated text ("ok") therefore links to the right turn.
 *
 * @module
 */
import { sectionsOf, type Channel, type Document } from '../structure/document.js'
import { turnText, type ChatTurn } from './chat.js'

/** Call ids as `call:<id>` and result ids as `result:<id>`: a call and its result share an id but not a turn. */
const callKeys = (t: ChatTurn): ReadonlySet<string> =>
  new Set(t.blocks.flatMap((b) => (b._tag === 'ToolCall' ? [`call:${b.id}`] : b._tag === 'ToolResult' ? [`result:${b.callId}`] : [])))

const roleFits = (channel: Channel, role: string): boolean =>
  channel === 'system' ? role === 'system' || role === 'developer' : channel === 'user' ? role === 'user' : true

/**
 * For each turn, the ids of the packets it shows, in document order.
 *
 * @example
 * turnSources(turns, result.doc) // [['instructions', 'evidence:0'], ['history:3'], …]
 * @category utils
 */
export const turnSources = (turns: ReadonlyArray<ChatTurn>, doc: Document): ReadonlyArray<ReadonlyArray<string>> => {
  const texts = turns.map(turnText)
  const keys = turns.map(callKeys)
  const links: string[][] = turns.map(() => [])
  let cursor = 0
  for (const section of sectionsOf(doc)) {
    for (const item of section.items) {
      if (item.packetId === undefined) continue
      const text = item.text.trim()
      const calls = (item.message?.parts ?? []).flatMap((p) => (p._tag === 'ToolCall' ? [`call:${p.id}`] : p._tag === 'ToolResult' ? [`result:${p.callId}`] : []))
      const shows = (i: number): boolean => calls.some((c) => keys[i]!.has(c)) || (text !== '' && texts[i]!.includes(text))
      const order = turns.map((_, i) => i)
      const candidates =
        section.channel === 'turns'
          ? order.slice(cursor)
          : // the query is the last user turn; instructions open the conversation
            (section.channel === 'user' ? [...order].reverse() : order).filter((i) => roleFits(section.channel, turns[i]!.role))
      const hit = candidates.find(shows)
      if (hit === undefined) continue
      links[hit]!.push(item.packetId)
      if (section.channel === 'turns') cursor = hit
    }
  }
  return links
}
