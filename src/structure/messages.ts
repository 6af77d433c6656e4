/**
 * A document as chat turns, for the chat-message renderers:
 *
 * - sections on the `system` channel (and a template's fixed text) form the system prompt,
 *   rendered with their headings, in layout order;
 * - the `turns` channel's items become real turns: a history item keeps its structured
 *   message (roles, tool calls and results, images), decoration dropped;
 * - the `user` channel (the task) becomes the final user turn, without its heading.
 *
 * @module
 */
import { message, type ChatMessage } from '../message.js'
import { isRendered, renderSection, type Document } from './document.js'

/** The turns of a document; the system prompt, when present, comes first. */
export const docToMessages = (doc: Document): ReadonlyArray<ChatMessage> => {
  const system: string[] = []
  const turns: ChatMessage[] = []
  const user: string[] = []
  for (const b of doc.blocks) {
    if (b._tag === 'Literal') {
      if (b.text.trim() !== '') system.push(b.text.trim())
      continue
    }
    if (!isRendered(b) || b.items.length === 0) continue
    if (b.channel === 'system') system.push(renderSection(b))
    else if (b.channel === 'user') user.push(b.items.map((i) => i.text).join(b.separator))
    else for (const i of b.items) turns.push(i.message === undefined || i.cut !== undefined ? message(i.message?.role ?? 'user', i.text) : i.message)
  }
  return [
    ...(system.length === 0 ? [] : [message('system', system.join(doc.joiner === '' ? '\n\n' : doc.joiner))]),
    ...turns,
    ...(user.length === 0 ? [] : [message('user', user.join('\n\n'))]),
  ]
}
