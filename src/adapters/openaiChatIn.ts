/**
 * OpenAI Chat Completions messages → gssc messages, one to one and lossless.
 *
 * | OpenAI | gssc |
 * | --- | --- |
 * | `system`, `developer` | `system` (form `role: 'developer'`) |
 * | `user`: text, `image_url`, `file` | `user`: Text, Image (a `data:` URL read as base64), Document |
 * | `assistant`: text and `refusal` parts, `refusal`, `tool_calls` | `assistant`: Text (`refusal: true`), ToolCall with `argsText` |
 * | `tool` | `tool` with one ToolResult (its name from the call that it answers) |
 *
 * Everything else a message or part holds (`name` on a tool message, `audio`, `detail`,
 * `prompt_cache_breakpoint`, fields gssc does not know) is kept in `native`, and so is how the
 * content was written (`string`, `array`, `null`, absent). Audio input parts, custom tool calls,
 * the deprecated `function_call` and `function` messages cannot be carried: each is an error
 * naming its path.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { show } from '../error.js'
import type { ChatMessage, DocumentPart, ImagePart, Part, TextPart, ToolCallPart } from '../message.js'
import { argumentsAt, arrayAt, eachAt, fail, keys, objectAt, optionalStringAt, restOf, stringAt, withNative, type Dec, type Obj } from './decode.js'
import { imageSourceOfUrl, parseDataUrl } from './media.js'
import { oneToOne, type Decoded, type DecodeOptions } from './shape.js'

/** The shape name the OpenAI Chat adapter writes into `native`. */
export const OPENAI_CHAT = 'openai-chat'

const SYSTEM_KEYS = keys('role', 'content', 'name')
const ASSISTANT_KEYS = keys('role', 'content', 'name', 'refusal', 'tool_calls')
const TOOL_KEYS = keys('role', 'content', 'tool_call_id')
const TEXT_KEYS = keys('type', 'text')
const REFUSAL_KEYS = keys('type', 'refusal')
const IMAGE_KEYS = keys('type', 'image_url')
const URL_KEYS = keys('url')
const FILE_KEYS = keys('type', 'file')
const FILE_INNER_KEYS = keys('file_data', 'file_id', 'filename')
const CALL_KEYS = keys('id', 'type', 'function')
const FUNCTION_KEYS = keys('name', 'arguments')

/** A content part, at `at`, with the part kinds a role allows. */
const contentPart = (v: unknown, at: string, allowed: ReadonlySet<string>): Dec<TextPart | ImagePart | DocumentPart> => {
  const r = objectAt(v, at, 'a content part')
  if (E.isLeft(r)) return r
  const p = r.right
  const type = p['type']
  if (typeof type !== 'string' || !allowed.has(type))
    return fail(`${at}.type`, `must be one of ${[...allowed].join(', ')} here (got ${show(type)})${type === 'input_audio' ? '; audio input cannot be carried' : ''}`)
  if (type === 'text') return E.map((text: string): TextPart => ({ _tag: 'Text', text, ...withNative(OPENAI_CHAT, restOf(p, TEXT_KEYS)) }))(stringAt(p, 'text', at))
  if (type === 'refusal')
    return E.map((text: string): TextPart => ({ _tag: 'Text', text, refusal: true, ...withNative(OPENAI_CHAT, restOf(p, REFUSAL_KEYS)) }))(stringAt(p, 'refusal', at))
  if (type === 'image_url') return imagePart(p, at)
  return filePart(p, at)
}

const imagePart = (p: Obj, at: string): Dec<ImagePart> => {
  const inner = objectAt(p['image_url'], `${at}.image_url`)
  if (E.isLeft(inner)) return inner
  const url = stringAt(inner.right, 'url', `${at}.image_url`)
  if (E.isLeft(url)) return url
  const imageUrl = restOf(inner.right, URL_KEYS)
  return E.right({ _tag: 'Image', source: imageSourceOfUrl(url.right), ...withNative(OPENAI_CHAT, restOf(p, IMAGE_KEYS), { imageUrl }) })
}

const filePart = (p: Obj, at: string): Dec<DocumentPart> => {
  const inner = objectAt(p['file'], `${at}.file`)
  if (E.isLeft(inner)) return inner
  const f = inner.right
  const data = optionalStringAt(f, 'file_data', `${at}.file`)
  const id = optionalStringAt(f, 'file_id', `${at}.file`)
  const name = optionalStringAt(f, 'filename', `${at}.file`)
  if (E.isLeft(data)) return data
  if (E.isLeft(id)) return id
  if (E.isLeft(name)) return name
  if ((data.right === undefined) === (id.right === undefined)) return fail(`${at}.file`, `must have one of file_data and file_id (got ${show(f)})`)
  const inline = data.right === undefined ? undefined : parseDataUrl(data.right)
  if (data.right !== undefined && inline === undefined) return fail(`${at}.file.file_data`, `must be a base64 data: URL (got ${show(data.right.slice(0, 40))})`)
  return E.right({
    _tag: 'Document',
    source: inline === undefined ? { _tag: 'FileId', id: id.right! } : { _tag: 'Base64', ...inline },
    ...(name.right === undefined ? {} : { name: name.right }),
    ...withNative(OPENAI_CHAT, restOf(p, FILE_KEYS), { file: restOf(f, FILE_INNER_KEYS) }),
  })
}

const TEXT_ONLY: ReadonlySet<string> = new Set(['text'])
const USER_PARTS: ReadonlySet<string> = new Set(['text', 'image_url', 'file'])
const ASSISTANT_PARTS: ReadonlySet<string> = new Set(['text', 'refusal'])

/** `content` as parts, and how it was written. */
const content = (m: Obj, at: string, allowed: ReadonlySet<string>, nullable: boolean): Dec<readonly [ReadonlyArray<Part>, string]> => {
  const c = m['content']
  if (typeof c === 'string') return E.right([[{ _tag: 'Text', text: c }], 'string'])
  if (Array.isArray(c)) return E.map((parts: ReadonlyArray<Part>) => [parts, 'array'] as const)(eachAt(c, `${at}.content`, (p, pat) => contentPart(p, pat, allowed)))
  if (nullable && (c === null || c === undefined)) return E.right([[], c === null ? 'null' : 'absent'])
  return fail(`${at}.content`, `must be a string or an array of content parts (got ${show(c)})`)
}

const toolCall = (v: unknown, at: string): Dec<ToolCallPart> => {
  const r = objectAt(v, at, 'a tool call')
  if (E.isLeft(r)) return r
  const c = r.right
  if (c['type'] !== 'function') return fail(`${at}.type`, `must be "function"; custom tool calls cannot be carried (got ${show(c['type'])})`)
  const id = stringAt(c, 'id', at)
  const fn = objectAt(c['function'], `${at}.function`)
  if (E.isLeft(id)) return id
  if (E.isLeft(fn)) return fn
  const name = stringAt(fn.right, 'name', `${at}.function`)
  const text = stringAt(fn.right, 'arguments', `${at}.function`)
  if (E.isLeft(name)) return name
  if (E.isLeft(text)) return text
  const args = argumentsAt(text.right, `${at}.function.arguments`)
  if (E.isLeft(args)) return args
  return E.right({
    _tag: 'ToolCall',
    id: id.right,
    name: name.right,
    args: args.right,
    argsText: text.right,
    ...withNative(OPENAI_CHAT, restOf(c, CALL_KEYS), { function: restOf(fn.right, FUNCTION_KEYS) }),
  })
}

const named = (m: Obj, at: string): Dec<{ readonly name?: string }> =>
  E.map((name: string | undefined) => (name === undefined ? {} : { name }))(optionalStringAt(m, 'name', at))

const assistant = (m: Obj, at: string): Dec<ChatMessage> => {
  if (m['function_call'] !== undefined && m['function_call'] !== null)
    return fail(`${at}.function_call`, 'the deprecated function_call cannot be carried; send it as tool_calls')
  const body = content(m, at, ASSISTANT_PARTS, true)
  const refusal = m['refusal']
  if (refusal !== undefined && refusal !== null && typeof refusal !== 'string') return fail(`${at}.refusal`, `must be a string or null (got ${show(refusal)})`)
  const calls = m['tool_calls'] === undefined ? E.right([]) : E.chain((a: ReadonlyArray<unknown>) => eachAt(a, `${at}.tool_calls`, toolCall))(arrayAt(m['tool_calls'], `${at}.tool_calls`))
  const name = named(m, at)
  if (E.isLeft(body)) return body
  if (E.isLeft(calls)) return calls
  if (E.isLeft(name)) return name
  const refusalPart: ReadonlyArray<TextPart> =
    typeof refusal === 'string' ? [{ _tag: 'Text', text: refusal, refusal: true, native: { shape: OPENAI_CHAT, form: { field: 'refusal' } } }] : []
  const form = {
    content: body.right[1],
    refusal: refusal === null ? 'null' : undefined,
    toolCalls: Array.isArray(m['tool_calls']) && m['tool_calls'].length === 0 ? 'empty' : undefined,
  }
  return E.right({ role: 'assistant', parts: [...body.right[0], ...refusalPart, ...calls.right], ...name.right, ...withNative(OPENAI_CHAT, restOf(m, ASSISTANT_KEYS), form) })
}

/** Reads one message; `callNames` maps the ids of the calls read so far to their tool names. */
const chatMessage = (v: unknown, at: string, callNames: Map<string, string>): Dec<ChatMessage> => {
  const r = objectAt(v, at, 'a message')
  if (E.isLeft(r)) return r
  const m = r.right
  const role = m['role']
  if (role === 'system' || role === 'developer' || role === 'user') {
    const body = content(m, at, role === 'user' ? USER_PARTS : TEXT_ONLY, false)
    const name = named(m, at)
    if (E.isLeft(body)) return body
    if (E.isLeft(name)) return name
    const form = { content: body.right[1], role: role === 'developer' ? 'developer' : undefined }
    return E.right({ role: role === 'user' ? 'user' : 'system', parts: body.right[0], ...name.right, ...withNative(OPENAI_CHAT, restOf(m, SYSTEM_KEYS), form) })
  }
  if (role === 'assistant') {
    const a = assistant(m, at)
    if (E.isRight(a)) for (const p of a.right.parts) if (p._tag === 'ToolCall') callNames.set(p.id, p.name)
    return a
  }
  if (role === 'tool') {
    const id = stringAt(m, 'tool_call_id', at)
    const body = content(m, at, TEXT_ONLY, false)
    if (E.isLeft(id)) return id
    if (E.isLeft(body)) return body
    const result = { _tag: 'ToolResult' as const, callId: id.right, name: callNames.get(id.right) ?? '', content: body.right[0] as ReadonlyArray<TextPart>, isError: false }
    return E.right({ role: 'tool', parts: [result], ...withNative(OPENAI_CHAT, restOf(m, TOOL_KEYS), { content: body.right[1] }) })
  }
  if (role === 'function') return fail(`${at}.role`, 'deprecated function messages cannot be carried; send tool messages')
  return fail(`${at}.role`, `must be one of system, developer, user, assistant, tool (got ${show(role)})`)
}

/**
 * Reads OpenAI Chat Completions messages into gssc messages, one for one. Anything gssc cannot
 * carry is an error naming its path; nothing is dropped.
 *
 * @example
 * fromOpenAIChat([{ role: 'user', content: 'Hi' }])
 * // Right({ shape: 'openai-chat', messages: [{ role: 'user', parts: [{ _tag: 'Text', text: 'Hi' }], native: … }], sources: [0] })
 * @category readers
 * @since 0.2.0
 */
export const fromOpenAIChat = (input: unknown, options: DecodeOptions = {}): Dec<Decoded> => {
  const root = options.path ?? 'messages'
  const callNames = new Map<string, string>()
  return E.map((messages: ReadonlyArray<ChatMessage>) => oneToOne('openai-chat', messages))(
    E.chain((items: ReadonlyArray<unknown>) => eachAt(items, root, (m, at) => chatMessage(m, at, callNames)))(arrayAt(input, root)),
  )
}
