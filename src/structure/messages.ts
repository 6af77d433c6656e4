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
 * Every turn comes with the ids of the packets it shows, and every text joined from item
 * texts with the spans of those texts: the provenance the renderers pass on.
 *
 * @module
 */
import { absurd } from 'fp-ts/lib/function.js'
import { match } from 'ts-pattern'
import { message, type ChatMessage, type Part } from '../message.js'
import { isRendered, renderBlocks, type Document, type Item, type Literal, type Section, type Span } from './document.js'

/** Chat turns with their provenance. */
export interface Turns {
  readonly messages: ReadonlyArray<ChatMessage>
  /** For each message, the ids of the packets it shows. */
  readonly sources: ReadonlyArray<ReadonlyArray<string>>
  /** For each message, for each of its parts, the ids of the packets it shows. */
  readonly partSources: ReadonlyArray<ReadonlyArray<ReadonlyArray<string>>>
  /** Texts joined from item texts, and where each item's text lies in them. */
  readonly spans: ReadonlyMap<string, ReadonlyArray<Span>>
}

/** A turn under construction: its parts, the spans and packets of each part, and its packets. */
interface Draft {
  readonly role: ChatMessage['role']
  readonly base: ChatMessage
  parts: Part[]
  spans: Array<ReadonlyArray<Span>>
  partSources: Array<ReadonlyArray<string>>
  sources: string[]
}

const plain = (m: ChatMessage): boolean => m.parts.every((p) => p._tag === 'Text' || p._tag === 'Image')

const whole = (text: string, packetId: string | undefined): ReadonlyArray<Span> =>
  packetId === undefined || text.length === 0 ? [] : [{ start: 0, end: text.length, packetId, content: text }]

/**
 * The parts an item shows as a turn, each text part with its spans. A turn's decoration (a
 * speaker label) is dropped, since the role says it; on the final user turn it stays (the
 * delimiters around a document).
 */
const itemParts = (i: Item, decorated: boolean): { readonly parts: ReadonlyArray<Part>; readonly spans: ReadonlyArray<ReadonlyArray<Span>> } => {
  if (i.message !== undefined && i.cut === undefined) {
    // a structured turn: a lone text part is the packet's content
    const single = i.message.parts.length === 1 && i.message.parts[0]!._tag === 'Text'
    return { parts: i.message.parts, spans: i.message.parts.map((p) => (single && p._tag === 'Text' ? whole(p.text, i.packetId) : [])) }
  }
  if (!decorated || (i.prefix === '' && (i.suffix ?? '') === '')) return { parts: [{ _tag: 'Text', text: i.text }], spans: [whole(i.text, i.packetId)] }
  const shift = i.prefix.length
  const spans = whole(i.text, i.packetId).map((x) => ({ ...x, start: x.start + shift, end: x.end + shift }))
  return { parts: [{ _tag: 'Text', text: `${i.prefix}${i.text}${i.suffix ?? ''}` }], spans: [spans] }
}

/** Adjacent text parts become one, separated by a line break; their spans follow. */
const joinText = (d: Draft): void => {
  const parts: Part[] = []
  const spans: Array<ReadonlyArray<Span>> = []
  const partSources: Array<ReadonlyArray<string>> = []
  d.parts.forEach((p, k) => {
    const prev = parts[parts.length - 1]
    if (prev?._tag === 'Text' && p._tag === 'Text') {
      const shift = prev.text.length + 1
      spans[spans.length - 1] = [...spans[spans.length - 1]!, ...d.spans[k]!.map((s) => ({ ...s, start: s.start + shift, end: s.end + shift }))]
      partSources[partSources.length - 1] = [...new Set([...partSources[partSources.length - 1]!, ...d.partSources[k]!])]
      parts[parts.length - 1] = { _tag: 'Text', text: `${prev.text}\n${p.text}` }
    } else {
      parts.push(p)
      spans.push(d.spans[k]!)
      partSources.push(d.partSources[k]!)
    }
  })
  d.parts = parts
  d.spans = spans
  d.partSources = partSources
}

const draftOf = (i: Item, base: ChatMessage): Draft => {
  const { parts, spans } = itemParts(i, false)
  const own = i.packetId === undefined ? [] : [i.packetId]
  return { role: base.role, base, parts: [...parts], spans: [...spans], partSources: parts.map(() => own), sources: [...own] }
}

/** Adds an item's parts to a turn under construction (`decorated`: with its prefix and suffix). */
const extend = (d: Draft, i: Item, decorated: boolean): void => {
  const { parts, spans } = itemParts(i, decorated)
  const own = i.packetId === undefined ? [] : [i.packetId]
  d.parts.push(...parts)
  d.spans.push(...spans)
  d.partSources.push(...parts.map(() => own))
  if (i.packetId !== undefined) d.sources.push(i.packetId)
}

/**
 * The turn an item shows on the `turns` channel: its message, or a plain text turn of its
 * role once cut.
 *
 * @category utils
 */
export const turnOf = (i: Item): ChatMessage =>
  i.message === undefined || i.cut !== undefined ? message(i.message?.role ?? 'user', i.text) : i.message

/**
 * The turns of a document, with provenance; the system prompt, when present, comes first.
 *
 * @example
 * const { messages, sources } = docToTurns(result.doc)
 * @category utils
 * @since 0.1.0
 */
export const docToTurns = (doc: Document): Turns => {
  const system: Array<Section | Literal> = []
  const turns: Draft[] = []
  const user: Draft = { role: 'user', base: message('user', []), parts: [], spans: [], partSources: [], sources: [] }
  const place = (b: Section): void => {
    if (!isRendered(b) || b.items.length === 0) return
    match(b.channel)
      .with('system', () => system.push(b))
      .with('user', () => {
        for (const i of b.items) extend(user, i, true)
      })
      .with('turns', () => {
        for (const i of b.items) {
          const base = turnOf(i)
          const last = turns[turns.length - 1]
          if (b.mergeTurns !== undefined && b.mergeTurns !== false && last !== undefined && last.role === base.role && plain(last.base) && plain(base)) {
            extend(last, i, false)
            if (b.mergeTurns === true) joinText(last)
          } else turns.push(draftOf(i, base))
        }
      })
      .exhaustive()
  }
  // a switch ending in absurd, not match: a chat renderer runs this on every render the
  // fitting engine measures (match costs ~1 µs a block, the switch ~0.01–0.1 µs)
  for (const b of doc.blocks)
    switch (b._tag) {
      case 'Literal':
        // fixed text goes to the system prompt
        if (b.text.trim() !== '') system.push({ _tag: 'Literal', text: b.text.trim() })
        break
      case 'Section':
        place(b)
        break
      default:
        absurd(b)
    }
  joinText(user)
  const spans = new Map<string, ReadonlyArray<Span>>()
  const note = (d: Draft): void =>
    d.parts.forEach((p, k) => {
      if (p._tag === 'Text' && d.spans[k]!.length > 0) spans.set(p.text, d.spans[k]!)
    })
  const messages: ChatMessage[] = []
  const sources: Array<ReadonlyArray<string>> = []
  const partSources: Array<ReadonlyArray<ReadonlyArray<string>>> = []
  if (system.length > 0) {
    const joined = renderBlocks(system, doc.joiner === '' ? '\n\n' : doc.joiner)
    messages.push(message('system', joined.text))
    sources.push(joined.ids)
    partSources.push([joined.ids])
    if (joined.spans.length > 0) spans.set(joined.text, joined.spans)
  }
  for (const d of turns) {
    // an untouched structured turn passes as it is; a merged one takes the joined parts
    messages.push(d.parts.length === d.base.parts.length && d.parts.every((p, k) => p === d.base.parts[k]) ? d.base : { ...d.base, parts: d.parts })
    sources.push(d.sources)
    partSources.push(d.partSources)
    note(d)
  }
  if (user.parts.length > 0) {
    messages.push(message('user', user.parts))
    sources.push(user.sources)
    partSources.push(user.partSources)
    note(user)
  }
  return { messages, sources, partSources, spans }
}

/**
 * The turns of a document; the system prompt, when present, comes first.
 *
 * @category utils
 * @since 0.1.0
 */
export const docToMessages = (doc: Document): ReadonlyArray<ChatMessage> => docToTurns(doc).messages
