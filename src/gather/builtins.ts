/**
 * The seed's gatherers: instructions, task, history (last N), memory and RAG, plus the
 * request's extra packets.
 *
 * @module
 */
import { availableTokens } from '../config.js'
import { show } from '../error.js'
import type { ChatMessage, Part } from '../message.js'
import { messageText, withEpochTimestamp } from '../message.js'
import { isRecord } from '../messageProblem.js'
import { timestampMs, type TimestampInput } from '../timestamp.js'
import { toolGroups, windowOpening } from '../toolUnits.js'
import { capMessage, itemCapOf, type Capped } from './itemCap.js'
import { DEFAULT_PRIORITY, packet, type Packet, type PacketInput, type PacketType } from '../packet.js'
import type { ContentCut, Exclusion, SimpleMessage } from '../phase.js'
import { gatherer, type Gatherer, type GatheringWithExclusions } from './gatherer.js'
import { own } from './own.js'

/**
 * The system instructions as P0 packets (`instructions`, or `instructions:<i>` for several).
 *
 * @category constructors
 * @since 0.1.0
 */
export const instructions = (): Gatherer =>
  own('instructions', ({ request, now }) => {
    const texts = typeof request.instructions === 'string' ? [request.instructions] : (request.instructions ?? [])
    const kept = texts.filter((t) => t.trim().length > 0)
    return { packets: kept.map((content, i) => packet({ id: kept.length === 1 ? 'instructions' : `instructions:${i}`, type: 'instructions', content, source: 'system' }, now)), failures: [] }
  })

/**
 * The query as the `task` packet. With `media`, the packet also carries the user turn:
 * images first, then the text (the order nanobot sends).
 *
 * @category constructors
 * @since 0.1.0
 */
export const task = (): Gatherer =>
  own('task', ({ request, now }) => {
    const media = request.media ?? []
    if (request.query.trim().length === 0 && media.length === 0) return { packets: [], failures: [] }
    const parts: ReadonlyArray<Part> = [...media, ...(request.query.trim().length === 0 ? [] : [{ _tag: 'Text' as const, text: request.query }])]
    const input: PacketInput = { id: 'task', type: 'task', content: request.query, source: 'user', ...(media.length === 0 ? {} : { message: { role: 'user' as const, parts, timestamp: now } }) }
    return { packets: [packet(input, now)], failures: [] }
  })

/**
 * The last `limit` history turns (default `config.maxHistoryMessages`) as history packets
 * with ids `history:<index in the full history>`, stable as the conversation grows.
 *
 * - The conversation's own system prompt (its leading system turns) is always gathered, as
 *   P0: laid out with the instructions, first, and never dropped for the window or budget.
 * - An assistant turn with tool calls and the turns holding their results share a `group`,
 *   so they are kept or dropped together; the window never starts on a tool result whose
 *   call fell outside it (such results go with the turns before the window).
 * - A turn holding a text longer than `config.maxItemShare` of the budget has it cut to its
 *   size before anything counts it in full (`./itemCap.ts`: by its content's compressor,
 *   else to head and tail); the packet records the cut in `metadata.capped` and the report
 *   lists it, with what was removed, with the truncations.
 * - Turns before the window are reported as one range exclusion (`history:0..49`,
 *   `history_limit`), never made into packets.
 * - Turns that cannot fit are never made into packets either: walking back from the newest,
 *   once the turns' token lower bounds add up to more than the whole available budget, no
 *   older turn can be selected (the bounds are `tokenizer.lowerBound`'s; a `build` whose
 *   history has the budget to itself gives a tokenizer whose bounds are counted,
 *   `./walkBound.ts`). They are reported as one range exclusion
 *   (`history:50..4211`, `over_budget`), so a 50,000-turn history costs what its last few
 *   hundred turns cost. Unless the build reads every turn (`readAllHistory`: its compressor
 *   summarizes what cannot fit, and so needs it).
 *
 * @category constructors
 * @since 0.1.0
 */
export const history = (limit?: number): Gatherer =>
  own('history', ({ request, config, now, tokenizer, readAllHistory }) => {
    // validateRequest has read an SDK-shaped history into chat messages already
    const all = (request.history ?? []) as ReadonlyArray<SimpleMessage | ChatMessage>
    const n = Math.max(0, limit ?? config.maxHistoryMessages)
    // a build that summarizes what cannot fit reads every turn: no budget stops the walk back
    const budget = readAllHistory === true ? Number.POSITIVE_INFINITY : availableTokens(config)
    // the conversation's own system prompt: always gathered, as instructions (P0)
    const lead: Packet[] = []
    let bound = 0
    for (let i = 0; i < all.length; i++) {
      const m = toChatMessage(all[i]!)
      if (m.role !== 'system') break
      const text = messageText(m)
      bound += tokenizer.lowerBound(text) + 1
      lead.push({ id: `history:${i}`, type: 'history', priority: 0, content: text, timestamp: m.timestamp ?? now, source: 'history', metadata: { role: m.role, index: i }, message: m })
    }
    const windowStart = n === Number.POSITIVE_INFINITY ? lead.length : Math.max(lead.length, all.length - n)
    let start = windowStart
    const turns: ChatMessage[] = []
    const texts: string[] = []
    const cap = itemCapOf(config)
    const cuts = new Map<number, Capped>()
    for (let i = all.length - 1; i >= start; i--) {
      let m = toChatMessage(all[i]!)
      const capped = cap === undefined ? undefined : capMessage(m, cap, tokenizer)
      if (capped !== undefined) {
        cuts.set(i, capped)
        m = capped.message
      }
      const text = messageText(m)
      bound += tokenizer.lowerBound(text) + 1
      if (bound > budget) {
        start = i + 1
        break
      }
      turns.push(m)
      texts.push(text)
    }
    turns.reverse()
    texts.reverse()
    const skipped = start
    // results whose call lies before the window leave with the turns before it
    const first = skipped > lead.length ? windowOpening(turns, 0) : 0
    const groups = toolGroups(first === 0 ? turns : turns.slice(first), skipped + first)
    const packets: Packet[] = [...lead]
    for (let k = first; k < turns.length; k++) {
      const i = skipped + k
      packets.push(historyPacket(turns[k]!, i, texts[k]!, now, groups[k - first], cuts.get(i)))
    }
    const excluded = historyRanges({ lead: lead.length, windowStart, reach: skipped, start: skipped + first, limit: n, budget, own: limit !== undefined })
    return { packets, failures: [], excluded }
  })

/**
 * The packet of history turn `i` (its message `m`, its text `content`), as the history
 * gatherer makes it; the in-memory rebuild (`src/rebuild/`) makes a new turn's the same way.
 *
 * @category utils
 */
export const historyPacket = (m: ChatMessage, i: number, content: string, now: number, group?: string, capped?: { readonly keptTokens: number; readonly originalTokens: number; readonly content: ReadonlyArray<ContentCut> }): Packet => {
  // literals, not a conditional spread: a spread costs ~1 µs per packet on Node 20
  const id = `history:${i}`
  const timestamp = m.timestamp ?? now
  const metadata = capped === undefined ? { role: m.role, index: i } : { role: m.role, index: i, capped: { keptTokens: capped.keptTokens, originalTokens: capped.originalTokens, content: capped.content } }
  const priority = DEFAULT_PRIORITY.history
  return group === undefined
    ? { id, type: 'history', priority, content, timestamp, source: 'history', metadata, message: m }
    : { id, type: 'history', priority, content, timestamp, source: 'history', metadata, message: m, group }
}

/** Where the history gatherer's packets start and why: see {@link historyRanges}. */
export interface HistoryWindow {
  /** Leading system turns. */
  readonly lead: number
  /** The first turn the message limit lets in. */
  readonly windowStart: number
  /** The first turn the budget lets in (the walk back from the newest stopped before it). */
  readonly reach: number
  /** The first turn made into a packet: `reach`, or after the tool results opening it whose call lies before it. */
  readonly start: number
  /** The message limit. */
  readonly limit: number
  /** The available budget. */
  readonly budget: number
  /** The limit is the gatherer's own, not `maxHistoryMessages`. */
  readonly own: boolean
}

/**
 * The turns before the history gatherer's packets, as range exclusions: those before the
 * message limit (`history_limit`), then those the budget rules out (`over_budget`).
 *
 * @category utils
 */
export const historyRanges = (w: HistoryWindow): ReadonlyArray<Exclusion> => {
  const overBudget = w.reach > w.windowStart
  const limitEnd = overBudget ? w.windowStart : w.start
  const excluded: Exclusion[] = []
  if (limitEnd > w.lead)
    excluded.push({
      id: rangeId(w.lead, limitEnd),
      reason: 'history_limit',
      detail: `${limitEnd - w.lead} older turn(s) before the last ${w.limit} (${w.own ? 'the history gatherer\'s limit' : 'maxHistoryMessages'}); not counted`,
    })
  if (overBudget)
    excluded.push({
      id: rangeId(w.windowStart, w.start),
      reason: 'over_budget',
      detail: `${w.start - w.windowStart} older turn(s) cannot fit: the newer turns alone need at least ${w.budget} tokens; not counted`,
    })
  return excluded
}

/** The id of the history turns `[from, to)`: `history:3`, or `history:0..49` for several. */
const rangeId = (from: number, to: number): string => (to - from === 1 ? `history:${from}` : `history:${from}..${to - 1}`)

/**
 * Normalizes a `{ role, content }` turn to a {@link ChatMessage}; chat messages pass as they are.
 *
 * @category utils
 */
export const toChatMessage = (m: SimpleMessage | ChatMessage): ChatMessage => {
  if ('parts' in m && !('content' in m)) return withEpochTimestamp(m)
  const { role, content, name } = m as SimpleMessage
  const parts: ReadonlyArray<Part> = typeof content === 'string' ? [{ _tag: 'Text', text: content }] : content
  const timestamp = timestampMs(m.timestamp)
  // literals, not conditional spreads: this runs for every turn a build reads
  if (name === undefined) return timestamp === undefined ? { role, parts } : { role, parts, timestamp }
  return timestamp === undefined ? { role, parts, name } : { role, parts, timestamp, name }
}

/** What a memory search returns. */
export interface MemoryResult {
  readonly content: string
  /** Similarity in [0, 1], used as the packet's relevance; other values are kept in metadata only. */
  readonly score?: number
  /** `evidence` (default) for facts, `task_state` for progress and open questions. */
  readonly kind?: Extract<PacketType, 'evidence' | 'task_state'>
  readonly id?: string
  readonly timestamp?: TimestampInput
  readonly source?: string
  readonly metadata?: Readonly<Record<string, unknown>>
}

/** A memory search: the query, how many results, and a signal that aborts on timeout. */
export type MemorySearch = (query: string, limit: number, signal: AbortSignal) => Promise<ReadonlyArray<MemoryResult>>

/**
 * Memory results as evidence or task-state packets (source `memory`).
 *
 * @example
 * memory(async (q, limit) => store.search(q, limit), { limit: 5 })
 * @category constructors
 * @since 0.1.0
 */
export const memory = (search: MemorySearch, options: RetrievalOptions & { readonly limit?: number } = {}): Gatherer =>
  searched('memory', search, options.limit ?? 5, options, (r, i) => fromResult(r, r.kind ?? 'evidence', r.source ?? 'memory', `memory:${r.id ?? i}`))

/** What a retriever returns. `source` names the document (shown as `[Source: …]`). */
export interface RagResult {
  readonly content: string
  readonly source: string
  readonly score?: number
  readonly id?: string
  readonly timestamp?: TimestampInput
  readonly metadata?: Readonly<Record<string, unknown>>
}

/** A retriever: the query, how many hits, and a signal that aborts on timeout. */
export type Retrieve = (query: string, topK: number, signal: AbortSignal) => Promise<ReadonlyArray<RagResult>>

/**
 * Retrieved passages as evidence packets.
 *
 * @example
 * rag(async (q, k) => (await search(db, { term: q, limit: k })).hits.map(toResult), { topK: 5 })
 * @category constructors
 * @since 0.1.0
 */
export const rag = (retrieve: Retrieve, options: RetrievalOptions & { readonly topK?: number } = {}): Gatherer =>
  searched('rag', retrieve, options.topK ?? 5, options, (r, i) => fromResult(r, 'evidence', r.source, `rag:${r.id ?? `${r.source}#${i}`}`))

/**
 * How a retriever's hits are judged. Its scores are ranks on its own scale, not
 * probabilities, so its top K are kept whatever `minRelevance` says (see `isRetrieved`);
 * `minScore` drops hits whose raw score is below it (reported as `below_min_relevance`).
 */
export interface RetrievalOptions {
  readonly minScore?: number
}

/**
 * Hits as packets in the retriever's order: `metadata.rank` (1 = best) and `metadata.score`
 * (raw), relevance by rank (the best 1, then evenly down), and hits under `minScore` left out.
 */
const ranked = <R extends { readonly score?: number }>(
  results: ReadonlyArray<R>,
  options: RetrievalOptions,
  toPacket: (r: R, i: number) => PacketInput,
): GatheringWithExclusions => {
  const packets: PacketInput[] = []
  const excluded: Exclusion[] = []
  results.forEach((r, i) => {
    const p = toPacket(r, i)
    if (options.minScore !== undefined && !(typeof r.score === 'number' && r.score >= options.minScore))
      excluded.push({ id: p.id!, reason: 'below_min_relevance', detail: `retriever score ${show(r.score)} < minScore ${options.minScore}` })
    else packets.push({ ...p, relevance: (results.length - i) / results.length, metadata: { ...p.metadata, rank: i + 1 } })
  })
  return { packets, excluded }
}

/**
 * A search's answer, checked before it is read: it must be an array of objects. (Their fields
 * are checked with the packets they become, by `gatherer`.)
 */
/** A search as a gatherer (memory, RAG): the query and how many, its first `n` results checked, ranked into packets. */
const searched = <R extends { readonly score?: number }>(
  name: string,
  search: (query: string, n: number, signal: AbortSignal) => Promise<ReadonlyArray<R>>,
  n: number,
  options: RetrievalOptions,
  toPacket: (r: R, i: number) => PacketInput,
): Gatherer => gatherer(name, async ({ request, signal }) => ranked(checkResults(await search(request.query, n, signal)).slice(0, n), options, toPacket))

const checkResults = <R>(results: ReadonlyArray<R>): ReadonlyArray<R> => {
  if (!Array.isArray(results)) throw new TypeError(`must resolve to an array of results (got ${show(results)})`)
  const bad = results.findIndex((r) => !isRecord(r))
  if (bad >= 0) throw new TypeError(`results[${bad}]: must be an object with content (got ${show(results[bad])})`)
  return results
}

const fromResult = (
  r: MemoryResult | RagResult,
  type: PacketType,
  source: string,
  id: string,
): PacketInput => {
  return {
    id,
    type,
    content: r.content,
    source,
    ...(r.timestamp === undefined ? {} : { timestamp: r.timestamp }),
    metadata: { ...(r.metadata ?? {}), ...(r.score === undefined ? {} : { score: r.score }) },
  }
}

/**
 * The request's extra packets, completed (`packet`).
 *
 * Not checked again: the gather stage checks the request (`validateRequest`, every packet
 * with `packetProblem`) before any gatherer reads it, and a second check of each of a
 * thousand evidence passages found nothing the first had not.
 *
 * @category constructors
 * @since 0.1.0
 */
export const additional = (): Gatherer =>
  own('packets', ({ request, now }) => {
    const inputs = request.packets ?? []
    const packets: Packet[] = []
    for (const p of inputs) packets.push(packet(p, now))
    return { packets, failures: [] }
  })
