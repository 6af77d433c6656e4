/**
 * A document as chat turns, for the chat-message renderers:
 *
 * - sections on the `system` channel (and a template's fixed text) form the system prompt,
 *   rendered with their headings, in layout order;
 * - the `turns` channel's items become real turns: a history item keeps its structured
 *   message (roles, tool calls and results, images), decoration dropped; a section with
 *   `mergeTurns` merges consecutive plain turns of one role;
 * - the `user` channel (the task) becomes the final user turn, without its heading; an item
 *   carrying a message (a query with images) keeps its parts.
 *
 * A history item whose text was cut becomes a plain text turn of its role.
 *
 * @module
 */
import { message, type ChatMessage, type Part } from '../message.js'
import { isRendered, renderSection, type Document, type Item } from './document.js'

const turnOf = (i: Item): ChatMessage =>
  i.message === undefined || i.cut !== undefined ? message(i.message?.role ?? 'user', i.text) : i.message

const plain = (m: ChatMessage): boolean => m.parts.every((p) => p._tag === 'Text' || p._tag === 'Image')

/** Appends a turn, merging it into the previous one when both are plain and of one role. */
const pushMerged = (turns: ChatMessage[], m: ChatMessage): void => {
  const last = turns[turns.length - 1]
  if (last !== undefined && last.role === m.role && plain(last) && plain(m))
    turns[turns.length - 1] = { ...last, parts: joinText([...last.parts, ...m.parts]) }
  else turns.push(m)
}

/** Adjacent text parts become one, separated by a line break. */
const joinText = (parts: ReadonlyArray<Part>): ReadonlyArray<Part> =>
  parts.reduce<Part[]>((out, p) => {
    const prev = out[out.length - 1]
    if (prev?._tag === 'Text' && p._tag === 'Text') out[out.length - 1] = { _tag: 'Text', text: `${prev.text}\n${p.text}` }
    else out.push(p)
    return out
  }, [])

/**
 * The turns of a document; the system prompt, when present, comes first.
 *
 * @category utils
 * @since 0.1.0
 */
export const docToMessages = (doc: Document): ReadonlyArray<ChatMessage> => {
  const system: string[] = []
  const turns: ChatMessage[] = []
  const user: Part[] = []
  for (const b of doc.blocks) {
    if (b._tag === 'Literal') {
      if (b.text.trim() !== '') system.push(b.text.trim())
      continue
    }
    if (!isRendered(b) || b.items.length === 0) continue
    if (b.channel === 'system') system.push(renderSection(b))
    else if (b.channel === 'user') for (const i of b.items) user.push(...(i.message !== undefined && i.cut === undefined ? i.message.parts : [{ _tag: 'Text' as const, text: i.text }]))
    else for (const i of b.items) b.mergeTurns === true ? pushMerged(turns, turnOf(i)) : turns.push(turnOf(i))
  }
  return [
    ...(system.length === 0 ? [] : [message('system', system.join(doc.joiner === '' ? '\n\n' : doc.joiner))]),
    ...turns,
    ...(user.length === 0 ? [] : [message('user', joinText(user))]),
  ]
}
