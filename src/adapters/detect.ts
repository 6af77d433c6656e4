/**
 * Which SDK shape a list of messages is in, from what its messages hold, and reading any of
 * them: what `build()`'s `history` and a later `fitMessages` use so that a caller can pass the
 * messages they already have.
 *
 * Each message gives evidence: the shapes it could belong to (`tool_calls` only in OpenAI Chat,
 * `tool-call` parts only in the AI SDK, `tool_use` blocks only in Anthropic, …). The shapes all
 * messages allow are kept; when several remain, the first of {@link SHAPES} wins (they read
 * those messages alike). No evidence at all (`{ role, content: 'text' }` only) is `plain`;
 * messages with gssc's own `parts` or `_tag`ged parts are `gssc`. Messages that no one shape
 * allows are an error naming two that disagree.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { show } from '../error.js'
import { isRecord } from '../messageProblem.js'
import { fromAISDK } from './aiSdkIn.js'
import { fromAnthropicMessages } from './anthropicIn.js'
import { fail, type Dec } from './decode.js'
import { fromLangChain } from './langchainIn.js'
import { fromOpenAIChat } from './openaiChatIn.js'
import { fromOpenAIResponses } from './responsesIn.js'
import { SHAPES, type Decoded, type DecodeOptions, type Shape } from './shape.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What messages look like: an SDK shape, gssc's own messages, or plain text turns any shape reads alike. */
export type Detected = Shape | 'gssc' | 'plain'

type Kind = Shape | 'gssc'
type Evidence = ReadonlySet<Kind> | undefined

const set = (...kinds: ReadonlyArray<Kind>): ReadonlySet<Kind> => new Set(kinds)
const CHAT = set('openai-chat')
const RESPONSES = set('openai-responses')
const ANTHROPIC = set('anthropic')
const AI = set('ai-sdk')
const GSSC = set('gssc')

/** The shapes a role is found in. */
const ROLE: Readonly<Record<string, ReadonlySet<Kind>>> = {
  system: set('openai-chat', 'openai-responses', 'ai-sdk', 'gssc'),
  developer: set('openai-chat', 'openai-responses'),
  user: set('openai-chat', 'openai-responses', 'anthropic', 'ai-sdk', 'gssc'),
  assistant: set('openai-chat', 'openai-responses', 'anthropic', 'ai-sdk', 'gssc'),
  tool: set('openai-chat', 'ai-sdk', 'gssc'),
}

/**
 * The shapes a message's own fields are found in (`tool_calls`, `refusal`, … only in OpenAI
 * Chat, `providerOptions` only in the AI SDK, `phase` only in Responses, `parts` only in gssc);
 * undefined: none of them. Each field read by name, not `m[k]` over a list of them: a read
 * whose key changes from one call to the next is a slow generic lookup, and every turn a
 * build reads comes here (measured: checking 168 plain turns 25 -> 8 µs).
 */
const fieldEvidence = (m: Record<string, unknown>): Evidence => {
  let e: Evidence
  if (m['tool_calls'] !== undefined || m['tool_call_id'] !== undefined || m['refusal'] !== undefined || m['audio'] !== undefined || m['function_call'] !== undefined) e = CHAT
  if (m['providerOptions'] !== undefined) e = meet(e, AI)
  if (m['phase'] !== undefined) e = meet(e, RESPONSES)
  if (m['parts'] !== undefined) e = meet(e, GSSC)
  return e
}

/** The shapes a content part type is found in (some need a field to tell them apart). */
const partEvidence = (p: Record<string, unknown>): Evidence => {
  if (p['_tag'] !== undefined) return GSSC
  if (p['providerOptions'] !== undefined) return AI
  if (p['cache_control'] !== undefined || p['citations'] !== undefined) return ANTHROPIC
  const t = p['type']
  if (t === 'text') return set('openai-chat', 'anthropic', 'ai-sdk')
  if (t === 'refusal') return set('openai-chat', 'openai-responses')
  if (t === 'image_url' || t === 'input_audio') return CHAT
  if (t === 'file') return 'file' in p ? CHAT : AI
  if (t === 'image') return 'source' in p ? ANTHROPIC : AI
  if (t === 'input_text' || t === 'input_image' || t === 'input_file' || t === 'output_text') return RESPONSES
  if (t === 'tool-call' || t === 'tool-result' || t === 'reasoning' || t === 'tool-approval-request' || t === 'tool-approval-response') return AI
  if (t === 'document' || t === 'tool_use' || t === 'tool_result' || t === 'thinking' || t === 'redacted_thinking' || t === 'server_tool_use' || t === 'search_result') return ANTHROPIC
  return undefined
}

const meet = (a: Evidence, b: Evidence): Evidence => (a === undefined ? b : b === undefined ? a : new Set([...a].filter((k) => b.has(k))))

/** What one message says about the shape; undefined: nothing. */
const evidence = (m: unknown): Evidence => {
  if (!isRecord(m)) return undefined
  if (typeof m['_getType'] === 'function' || (m['lc'] === 1 && m['type'] === 'constructor') || (typeof m['type'] === 'string' && isRecord(m['data']))) return set('langchain')
  if (m['role'] === undefined) return typeof m['type'] === 'string' ? RESPONSES : undefined
  let e: Evidence = meet(m['type'] === 'message' ? RESPONSES : undefined, fieldEvidence(m))
  const c = m['content']
  if (c === null) e = meet(e, CHAT)
  if (Array.isArray(c)) for (const p of c) if (isRecord(p)) e = meet(e, partEvidence(p))
  // a role narrows what the rest says; alone, only `developer` tells (the others are in every shape)
  const role = typeof m['role'] === 'string' ? ROLE[m['role']] : undefined
  return e === undefined ? (m['role'] === 'developer' ? role : undefined) : meet(e, role ?? new Set())
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const describe = (e: ReadonlySet<Kind>): string => (e.size === 0 ? 'no known shape' : [...e].join(' or '))

/**
 * Which shape messages are in. An Anthropic request object (`{ system?, messages }`) is
 * `anthropic`.
 *
 * @example
 * detect([{ role: 'assistant', content: null, tool_calls: [] }]) // Right('openai-chat')
 * detect([{ role: 'user', content: 'Hi' }])                       // Right('plain')
 * @category utils
 * @since 0.2.0
 */
export const detect = (input: unknown, options: DecodeOptions = {}): Dec<Detected> => {
  const root = options.path ?? 'messages'
  if (isRecord(input) && Array.isArray(input['messages'])) return E.right('anthropic')
  if (!Array.isArray(input)) return fail(root, `must be an array of messages, or an Anthropic { system, messages } (got ${show(input)})`)
  let found: Evidence
  let by = -1
  for (let i = 0; i < input.length; i++) {
    const e = evidence(input[i])
    if (e === undefined) continue
    const next = meet(found, e)!
    if (next.size === 0)
      return fail(`${root}[${i}]`, by < 0 ? 'is in no known message shape' : `looks like ${describe(e)}, but ${root}[${by}] looks like ${describe(found!)}; one list must be in one shape`)
    if (found === undefined || next.size < found.size) by = i
    found = next
  }
  if (found === undefined) return E.right('plain')
  return E.right(SHAPES.find((s) => found.has(s)) ?? 'gssc')
}

const READERS: Readonly<Record<Shape, (input: unknown, options?: DecodeOptions) => Dec<Decoded>>> = {
  'openai-chat': fromOpenAIChat,
  'openai-responses': fromOpenAIResponses,
  anthropic: fromAnthropicMessages,
  'ai-sdk': fromAISDK,
  langchain: fromLangChain,
}

/**
 * Reads messages in whatever SDK shape they are ({@link detect}); plain text turns read as
 * OpenAI Chat. `Decoded.shape` says which, so the result can go back out the same way.
 *
 * @example
 * fromAny(anthropicRequest) // Right({ shape: 'anthropic', messages, sources: ['system', 0, 1] })
 * @category readers
 * @since 0.2.0
 */
export const fromAny = (input: unknown, options: DecodeOptions = {}): Dec<Decoded> =>
  E.chain((d: Detected): Dec<Decoded> =>
    d === 'gssc' ? fail(options.path ?? 'messages', 'holds gssc messages already ({ role, parts }); no adapter is needed') : READERS[d === 'plain' ? 'openai-chat' : d](input, options),
  )(detect(input, options))

/**
 * A build request's history in gssc messages: an SDK-shaped history read by its adapter (so no
 * tool call is lost), or `undefined` for gssc's own and plain turns, which the request check
 * reads as before. Errors name `history[i]…`.
 *
 * @category readers
 * @since 0.2.0
 */
export const readHistory = (history: ReadonlyArray<unknown>): Dec<Decoded | undefined> =>
  E.chain((d: Detected): Dec<Decoded | undefined> => (d === 'gssc' || d === 'plain' ? E.right(undefined) : READERS[d](history, { path: 'history' })))(detect(history, { path: 'history' }))
