/**
 * History items as pipeline packets.
 *
 * @module
 */
import { messageText } from '../message.js'
import type { PacketInput } from '../packet.js'
import type { HistoryItem } from './items.js'
import type { SessionFormat } from './model.js'

/** Where the items came from, for packet ids, sources and metadata. */
export interface PacketSource {
  /** Packet `source`, e.g. `pi:/home/alice/.pi/…/session.jsonl`. Ids and groups are prefixed with it. */
  readonly source: string
  /** Extra metadata on every packet (the file, the format, the leaf…). */
  readonly metadata?: Readonly<Record<string, unknown>>
}

/**
 * One `history` packet per item: `message` set, `content` its plain text, `tokens` the
 * count already taken, `group` tying a tool-calling turn to its results, and the entry id
 * and kind in `metadata`.
 *
 * @example
 * historyPackets({ source: `pi:${file}` })(history.items)
 * // [{ id: 'pi:/…/s.jsonl#a0000003', type: 'history', content: 'Why does…', group: undefined, … }, …]
 * @category constructors
 * @since 0.1.0
 */
export const historyPackets = (from: PacketSource): ((items: ReadonlyArray<HistoryItem>) => ReadonlyArray<PacketInput>) => {
  const own = from.metadata ?? {}
  // `{ ...own, itemId }` costs about 10 µs an object on Node 20 (a spread clone that then
  // grows), `Object.assign` about 0.1: a window of a few hundred turns is made every turn.
  // Assigning would call the `__proto__` setter, which spreading defines as a plain key.
  const metadata = Object.hasOwn(own, '__proto__')
    ? (item: HistoryItem): Readonly<Record<string, unknown>> => ({ ...own, itemId: item.id, kind: item.kind, ...(item.entryId === undefined ? {} : { entryId: item.entryId }) })
    : (item: HistoryItem): Readonly<Record<string, unknown>> =>
        Object.assign({}, own, item.entryId === undefined ? { itemId: item.id, kind: item.kind } : { itemId: item.id, kind: item.kind, entryId: item.entryId })
  return (items) =>
    items.map((item): PacketInput => {
      const p: Mutable<PacketInput> = { id: `${from.source}#${item.id}`, type: 'history', content: messageText(item.message), message: item.message }
      if (item.message.timestamp !== undefined) p.timestamp = item.message.timestamp
      p.source = from.source
      p.metadata = metadata(item)
      p.tokens = item.tokens
      if (item.group !== undefined) p.group = `${from.source}#${item.group}`
      return p
    })
}

/** A value of `A` being made, before it is handed out read-only. */
type Mutable<A> = { -readonly [K in keyof A]: A[K] }

/**
 * The packet source of a built session: `<format>:<file>`, with the file, format and leaf in
 * every packet's metadata.
 *
 * @example
 * historyPackets(sessionSource(build))(fitted.items)
 * @category utils
 * @since 0.1.0
 */
export const sessionSource = (build: { readonly file: string; readonly format: SessionFormat; readonly context: { readonly leafId: string | null } }): PacketSource => ({
  source: `${build.format}:${build.file}`,
  metadata: { file: build.file, format: build.format, leafId: build.context.leafId },
})
