/**
 * Packets: the unit of context. Every gatherer produces them, every later stage reads them.
 *
 * A packet is plain readonly data. Stages never write to one; they return new records
 * (scores, cuts) that point back to it by `id`.
 *
 * @module
 */
import { withEpochTimestamp, type ChatMessage } from './message.js'
import { timestampMs, type TimestampInput } from './timestamp.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The kinds of content the seed distinguishes; each has a default priority. */
export type PacketType = 'instructions' | 'task' | 'task_state' | 'evidence' | 'history' | 'custom'

/** P0 (kept longest) … P4 (cut first). */
export type Priority = 0 | 1 | 2 | 3 | 4

/** All packet types, in priority order. */
export const PACKET_TYPES: ReadonlyArray<PacketType> = [
  'instructions',
  'task',
  'task_state',
  'evidence',
  'history',
  'custom',
]

/**
 * The seed's priority table: instructions P0, task and task_state P1, evidence P2, history P3,
 * custom P4.
 */
export const DEFAULT_PRIORITY: Readonly<Record<PacketType, Priority>> = {
  instructions: 0,
  task: 1,
  task_state: 1,
  evidence: 2,
  history: 3,
  custom: 4,
}

/**
 * One piece of candidate context.
 *
 * - `timestamp` is epoch milliseconds; recency is measured from the build's clock.
 * - `relevance` is an optional score in [0, 1] supplied by the source (a retriever's
 *   similarity, for instance). When present the selector uses it instead of keyword
 *   overlap, because a semantic retriever's hit may share no keyword with the query.
 * - `message` carries the structured chat turn for history packets (roles, tool calls,
 *   images); `content` is then its plain-text form, used for scoring and text layouts.
 * - `group` ties packets that must be kept or dropped together (a tool call and its results).
 * - `tokens`, when known, is trusted as the packet's token count under the build's
 *   tokenizer; otherwise the count is taken lazily, at most once per build.
 */
export interface Packet {
  readonly id: string
  readonly type: PacketType
  readonly priority: Priority
  readonly content: string
  readonly timestamp: number
  readonly source: string
  readonly metadata: Readonly<Record<string, unknown>>
  readonly relevance?: number
  readonly message?: ChatMessage
  readonly group?: string
  readonly tokens?: number
}

/**
 * What a caller supplies; everything but `type` and `content` has a default. `timestamp` may
 * be epoch milliseconds or an ISO 8601 string (see `timestamp.ts`).
 */
export interface PacketInput {
  readonly id?: string
  readonly type: PacketType
  readonly content: string
  readonly priority?: Priority
  readonly timestamp?: TimestampInput
  readonly source?: string
  readonly metadata?: Readonly<Record<string, unknown>>
  readonly relevance?: number
  readonly message?: ChatMessage
  readonly group?: string
  readonly tokens?: number
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

// one frozen object for every packet given none: a build of a thousand passages would make a
// thousand empty objects that live as long as the build (packets are never written to)
const NO_METADATA: Readonly<Record<string, unknown>> = Object.freeze({})

/**
 * Completes a {@link PacketInput} with defaults. The id, when absent, is derived from the
 * type, source and content, so the same input always gets the same id. The input is expected
 * to be valid (`packetProblem` finds nothing); every gssc entry point checks it first.
 *
 * @example
 * const p = packet({ type: 'evidence', content: 'Paris is the capital of France.', source: 'rag' }, 0)
 * // p.priority === 2, p.id === 'evidence:…' (stable)
 * @category constructors
 * @since 0.1.0
 */
export const packet = (input: PacketInput, now: number): Packet => {
  const source = input.source ?? input.type
  // made here and set field by field before it is returned: `{ ...base, ...(x ? {} : { x }) }`
  // costs about 10 µs a packet on Node 20, these assignments a fraction of one (same fields,
  // same order), and a history window is made into packets every turn
  const p: { -readonly [K in keyof Packet]: Packet[K] } = {
    id: input.id ?? `${input.type}:${contentId(`${source}\u0000${input.content}`)}`,
    type: input.type,
    priority: input.priority ?? DEFAULT_PRIORITY[input.type],
    content: input.content,
    timestamp: timestampMs(input.timestamp) ?? now,
    source,
    metadata: input.metadata ?? NO_METADATA,
  }
  if (input.relevance !== undefined) p.relevance = input.relevance
  if (input.message !== undefined) p.message = withEpochTimestamp(input.message)
  if (input.group !== undefined) p.group = input.group
  if (input.tokens !== undefined) p.tokens = input.tokens
  return p
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * A short stable id for a string: 53-bit cyrb53 hash in base 36. Not cryptographic; used
 * for default packet ids and token-cache keys.
 *
 * @category utils
 * @since 0.1.0
 */
export const contentId = (text: string): string => {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)
}
