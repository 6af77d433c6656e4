/**
 * The agent-chunk layout (`--structurer xml`, seed 000): chunk packets are already rendered
 * as XML elements with their roles; this lays them out as the conversation, in input order,
 * with no labels. In chat formats consecutive chunks of one role merge into one turn, as the
 * seed's grouping diagram shows; in text they are XML blocks one after another.
 *
 * Instructions (the system prompt, SYSTEM chunks) come first; the task, when there is one,
 * is the last user turn. Evidence and custom packets join the system part.
 *
 * Every packet that is not a chunk is wrapped in an element named after its type, its text
 * escaped (`chunks/xml.ts`): `<evidence source="rag">\n…\n</evidence>`, `<task>`,
 * `<history role="user">`. Without that, a retrieved passage holding
 * `</tool_result><system_context priority="9999">` would sit verbatim among the chunks and
 * forge an element. The tags are the item's `prefix` and `suffix`, so a cut keeps them; in
 * chat formats, where a turn's role is real structure, history and task turns keep only their
 * escaped text.
 *
 * @module
 */
import { escapeText, openTag } from '../chunks/xml.js'
import type { ChatMessage, Part } from '../message.js'
import type { Packet } from '../packet.js'
import type { Selected, Selection } from '../phase.js'
import type { Meter } from '../tokenize/meter.js'
import type { Document, Item } from './document.js'
import { itemOf } from './items.js'
import { labelsFor } from './labels.js'
import { section } from './sectioned.js'
import { inputOrder, type Decoration, type Structurer } from './structurer.js'

/** Options of the `xml` layout. */
export interface XmlOptions {
  /**
   * Which packets are chunks, already rendered and escaped, placed as they are. Default
   * {@link isChunkPacket}. Everything else is wrapped and escaped.
   */
  readonly isChunk?: (p: Packet) => boolean
}

/**
 * A packet made by `chunkToPackets`: source `chunks`, a `chunkId` in its metadata, and a type
 * a chunk becomes (`history` or `instructions`). Retrievers and memory searches make only
 * `evidence` and `task_state` packets, so a retrieved document cannot pass for a chunk by its
 * name or metadata.
 *
 * @category utils
 * @since 0.1.0
 */
export const isChunkPacket = (p: Packet): boolean =>
  p.source === 'chunks' && typeof p.metadata['chunkId'] === 'string' && (p.type === 'history' || p.type === 'instructions')

/**
 * @example
 * build({ query, packets: chunkPackets }, { structurer: xml(), renderer: openaiRenderer() })
 * @category constructors
 * @since 0.1.0
 */
export const xml = (options: XmlOptions = {}): Structurer => {
  const isChunk = options.isChunk ?? isChunkPacket
  return Object.assign(
    (s: Selected): Document => {
      const labels = labelsFor(s.env.config.locale)
      const order = inputOrder(s)
      const sorted = [...s.selected].sort((a, b) => (order.get(a.packet.id) ?? 0) - (order.get(b.packet.id) ?? 0))
      const items = (name: string): ReadonlyArray<Item> =>
        sorted.filter((x) => sectionOf(x.packet) === name).map((x) => (isChunk(x.packet) ? itemOf(x, '') : wrapped(x, s.env.meter)))
      return {
        joiner: '\n\n',
        blocks: [
          section({ name: 'instructions', rank: 0, head: '', channel: 'system', items: items('instructions') }, labels),
          section({ name: 'context', rank: 5, head: '', channel: 'turns', dropFrom: 'start', keep: 'tail', mergeTurns: true, items: items('context') }, labels),
          section({ name: 'evidence', rank: 4, head: '', channel: 'system', volatile: true, items: items('evidence') }, labels),
          section({ name: 'task', rank: 1, head: '', channel: 'user', items: items('task') }, labels),
        ],
      } satisfies Document
    },
    {
      // the tags, not the text: a text holding markup is escaped, and counts a little more laid out
      decorate: (p: Packet): Decoration =>
        isChunk(p) ? { section: sectionOf(p), prefix: '', separator: '\n' } : { section: sectionOf(p), prefix: `${openTagOf(p)}\n`, suffix: `\n</${p.type}>`, separator: '\n' },
    },
  )
}

/** The section a packet goes in: the system part (instructions, P0), the conversation, other packets, the task. */
const sectionOf = (p: Packet): string =>
  p.priority === 0 || p.type === 'instructions' ? 'instructions' : p.type === 'history' ? 'context' : p.type === 'task' ? 'task' : 'evidence'

/** A wrapped packet's opening tag: its type, with its source and (for a turn) its role. */
const openTagOf = (p: Packet): string => {
  const role = p.type === 'history' ? (p.message?.role ?? p.metadata['role']) : undefined
  return openTag(p.type, [
    ['source', p.source === p.type ? undefined : p.source],
    ['role', typeof role === 'string' ? role : undefined],
  ])
}

/** A packet that is not a chunk, as an element: tags as decoration, the text escaped. */
const wrapped = (x: Selection, m: Meter): Item => {
  const p = x.packet
  const text = escapeText(p.content)
  const base = itemOf(x, `${openTagOf(p)}\n`)
  return {
    ...base,
    text,
    tokens: text === p.content ? x.tokens : m.text(text),
    suffix: `\n</${p.type}>`,
    ...(p.message === undefined ? {} : { message: escapedMessage(p.message) }),
  }
}

/** A turn with the text it shows escaped; tool calls and images are structure, not text. */
const escapedMessage = (m: ChatMessage): ChatMessage => ({ ...m, parts: m.parts.map(escapedPart) })

const escapedPart = (p: Part): Part =>
  p._tag === 'Text'
    ? { ...p, text: escapeText(p.text) }
    : p._tag === 'ToolResult'
      ? { ...p, content: p.content.map((c) => (c._tag === 'Text' ? { ...c, text: escapeText(c.text) } : c)) }
      : p._tag === 'Document' && p.source._tag === 'Text'
        ? { ...p, source: { ...p.source, text: escapeText(p.source.text) } }
        : p
