/**
 * LangChain.js messages → gssc messages, one to one and lossless.
 *
 * Takes real `BaseMessage` instances (SystemMessage, HumanMessage, AIMessage, ToolMessage) or
 * their serialized forms: `message.toDict()` (`{ type, data }`) and `JSON.stringify(message)`
 * (`{ lc: 1, type: 'constructor', id: [..., 'AIMessage'], kwargs }`). No import of
 * `@langchain/core`: an instance is read by its public fields.
 *
 * | LangChain | gssc |
 * | --- | --- |
 * | `system`, `human`, `ai`, `tool` | `system`, `user`, `assistant`, `tool` |
 * | content: `text`, `image_url`, `image` (URL or base64), `thinking`, `redacted_thinking`, `reasoning` blocks | Text, Image, Thinking |
 * | AIMessage `tool_calls` | ToolCall parts, after the content (a `tool_use` / `tool_call` block repeating a call is kept with it) |
 * | ToolMessage (`tool_call_id`, `name`, `status: 'error'`) | one ToolResult |
 *
 * `id`, `additional_kwargs`, `response_metadata`, `usage_metadata`, `artifact` and fields gssc
 * does not know are kept in `native`. Invalid tool calls, tool calls without an id, other
 * message types and other content blocks (files, audio) cannot be carried: each is an error
 * naming its path (`messages[3].content[1]`).
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { show } from '../error.js'
import type { ChatMessage, ImagePart, Part, Role, TextPart, ToolCallPart } from '../message.js'
import { isRecord } from '../messageProblem.js'
import { arrayAt, eachAt, fail, keys, objectAt, restOf, stringAt, withNative, type Dec, type Obj } from './decode.js'
import { imageSourceOfUrl, sniffImageType } from './media.js'
import { oneToOne, type Decoded, type DecodeOptions } from './shape.js'

/** The shape name the LangChain adapter writes into `native`. */
export const LANGCHAIN = 'langchain'

/** The public fields of a message that the adapters read; the rest of an instance is LangChain's own machinery. */
export const LANGCHAIN_FIELDS: ReadonlyArray<string> = ['content', 'name', 'id', 'additional_kwargs', 'response_metadata', 'tool_calls', 'invalid_tool_calls', 'usage_metadata', 'tool_call_id', 'status', 'artifact', 'metadata']

const ROLES: Readonly<Record<string, Role>> = { system: 'system', human: 'user', ai: 'assistant', tool: 'tool' }
const CLASSES: Readonly<Record<string, string>> = { SystemMessage: 'system', HumanMessage: 'human', AIMessage: 'ai', ToolMessage: 'tool' }
const MESSAGE_KEYS = keys('content', 'name', 'tool_calls', 'tool_call_id', 'status')
const CALL_KEYS = keys('id', 'name', 'args')

/**
 * LangChain's serializer wraps a user object holding an `lc` key as `{ __lc_escaped__: obj }`
 * (so it is not taken for a serialized class); its loader unwraps it as it is. The serialized
 * forms are read the same way, so tool arguments come back as the user gave them.
 */
const unescapeLc = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(unescapeLc)
  if (!isRecord(v)) return v
  const ks = Object.keys(v)
  if (ks.length === 1 && ks[0] === '__lc_escaped__') return v['__lc_escaped__']
  return Object.fromEntries(ks.map((k) => [k, unescapeLc(v[k])]))
}

/** A LangChain message's type and fields, and which form it came in. */
const unpack = (v: unknown, at: string): Dec<readonly [string, Obj, string | undefined]> => {
  if (!isRecord(v)) return fail(at, `must be a LangChain message (got ${show(v)})`)
  if (typeof v['_getType'] === 'function') {
    const fields: Record<string, unknown> = {}
    for (const k of LANGCHAIN_FIELDS) if (v[k] !== undefined) fields[k] = v[k]
    return E.right([String((v['_getType'] as () => unknown).call(v)), fields, undefined])
  }
  if (v['lc'] === 1 && v['type'] === 'constructor' && Array.isArray(v['id']) && isRecord(v['kwargs']))
    return E.right([CLASSES[String(v['id'][v['id'].length - 1])] ?? String(v['id'][v['id'].length - 1]), unescapeLc(v['kwargs']) as Obj, 'lc'])
  if (typeof v['type'] === 'string' && isRecord(v['data'])) return E.right([v['type'], unescapeLc(v['data']) as Obj, 'stored'])
  return fail(at, `must be a LangChain message: an instance, message.toDict() or its JSON (got ${show(v)})`)
}

const image = (b: Obj, at: string): Dec<ImagePart> => {
  if (b['type'] === 'image_url') {
    const iu = b['image_url']
    if (typeof iu === 'string') return E.right({ _tag: 'Image', source: imageSourceOfUrl(iu), ...withNative(LANGCHAIN, restOf(b, keys('type', 'image_url')), { block: 'image_url', url: 'string' }) })
    const o = objectAt(iu, `${at}.image_url`)
    if (E.isLeft(o)) return o
    return E.map((url: string): ImagePart => ({ _tag: 'Image', source: imageSourceOfUrl(url), ...withNative(LANGCHAIN, restOf(b, keys('type', 'image_url')), { block: 'image_url', imageUrl: restOf(o.right, keys('url')) }) }))(
      stringAt(o.right, 'url', `${at}.image_url`),
    )
  }
  // standard blocks: { type: 'image', url } or { type: 'image', data, mimeType } (v0.3: source_type, mime_type)
  const rest = restOf(b, keys('type', 'url', 'data'))
  if (typeof b['url'] === 'string' && b['data'] === undefined) return E.right({ _tag: 'Image', source: { _tag: 'Url', url: b['url'] }, ...withNative(LANGCHAIN, rest, { block: 'image' }) })
  const data = b['data']
  if (typeof data !== 'string' || b['url'] !== undefined) return fail(at, `must be an image by url or base64 data; images by file id cannot be carried (got ${show(Object.keys(b))})`)
  const mime = b['mimeType'] ?? b['mime_type']
  const mimeType = typeof mime === 'string' ? mime : (sniffImageType(data) ?? 'application/octet-stream')
  return E.right({ _tag: 'Image', source: { _tag: 'Base64', mimeType, data }, ...withNative(LANGCHAIN, rest, { block: 'image' }) })
}

const block = (v: unknown, at: string): Dec<Part> => {
  const o = objectAt(v, at, 'a content block')
  if (E.isLeft(o)) return o
  const b = o.right
  const type = b['type']
  if (type === 'text') return E.map((text: string): TextPart => ({ _tag: 'Text', text, ...withNative(LANGCHAIN, restOf(b, keys('type', 'text'))) }))(stringAt(b, 'text', at))
  if (type === 'image_url' || type === 'image') return image(b, at)
  if (type === 'thinking') return E.map((text: string): Part => ({ _tag: 'Thinking', text, ...(typeof b['signature'] === 'string' ? { signature: b['signature'] } : {}), ...withNative(LANGCHAIN, restOf(b, keys('type', 'thinking', 'signature')), { block: 'thinking' }) }))(stringAt(b, 'thinking', at))
  if (type === 'redacted_thinking') return E.map((data: string): Part => ({ _tag: 'Thinking', text: '', signature: data, redacted: true, ...withNative(LANGCHAIN, restOf(b, keys('type', 'data'))) }))(stringAt(b, 'data', at))
  if (type === 'reasoning') return E.map((text: string): Part => ({ _tag: 'Thinking', text, ...withNative(LANGCHAIN, restOf(b, keys('type', 'reasoning')), { block: 'reasoning' }) }))(stringAt(b, 'reasoning', at))
  return fail(`${at}.type`, `must be text, image_url, image, thinking, redacted_thinking or reasoning (got ${show(type)}); other blocks cannot be carried`)
}

const isCallBlock = (b: unknown): b is Obj => isRecord(b) && (b['type'] === 'tool_use' || b['type'] === 'tool_call')

/** An AI message's calls, each with the content block that repeats it (kept as it was, with its place). */
const toolCalls = (f: Obj, at: string, twins: ReadonlyMap<string, readonly [Obj, number]>): Dec<ReadonlyArray<ToolCallPart>> => {
  if (Array.isArray(f['invalid_tool_calls']) && f['invalid_tool_calls'].length > 0)
    return fail(`${at}.invalid_tool_calls`, 'tool calls whose arguments are not valid JSON cannot be carried (gssc carries an arguments object)')
  if (f['tool_calls'] === undefined) return E.right([])
  return E.chain((calls: ReadonlyArray<unknown>) =>
    eachAt(calls, `${at}.tool_calls`, (v, cat): Dec<ToolCallPart> => {
      const c = objectAt(v, cat, 'a tool call')
      if (E.isLeft(c)) return c
      const id = stringAt(c.right, 'id', cat)
      const name = stringAt(c.right, 'name', cat)
      if (E.isLeft(id)) return E.left({ ...id.left, message: `${id.left.message}; gssc pairs calls with results by id` })
      if (E.isLeft(name)) return name
      if (!isRecord(c.right['args'])) return fail(`${cat}.args`, `must be an object (got ${show(c.right['args'])})`)
      const twin = twins.get(id.right)
      return E.right({ _tag: 'ToolCall', id: id.right, name: name.right, args: c.right['args'], ...withNative(LANGCHAIN, restOf(c.right, CALL_KEYS), twin === undefined ? undefined : { block: twin[0], at: twin[1] }) })
    }),
  )(arrayAt(f['tool_calls'], `${at}.tool_calls`))
}

const message = (v: unknown, at: string, callNames: Map<string, string>): Dec<ChatMessage> => {
  const u = unpack(v, at)
  if (E.isLeft(u)) return u
  const [type, f, serialized] = u.right
  const role = ROLES[type]
  if (role === undefined) return fail(at, `must be a system, human, ai or tool message (got ${show(type)}); other message types cannot be carried`)
  const name = f['name']
  if (name !== undefined && typeof name !== 'string') return fail(`${at}.name`, `must be a string (got ${show(name)})`)
  const c = f['content']
  const ids = new Set(Array.isArray(f['tool_calls']) ? f['tool_calls'].map((t: unknown) => (isRecord(t) ? t['id'] : undefined)) : [])
  const twins = new Map<string, readonly [Obj, number]>()
  const parts: Dec<ReadonlyArray<Part>> =
    typeof c === 'string'
      ? E.right([{ _tag: 'Text', text: c }])
      : E.map((ps: ReadonlyArray<Part | undefined>) => ps.filter((p): p is Part => p !== undefined))(
          E.chain((items: ReadonlyArray<unknown>) =>
            eachAt(items, `${at}.content`, (b, bat, j): Dec<Part | undefined> => {
              if (role !== 'assistant' || !isCallBlock(b)) return block(b, bat)
              if (typeof b['id'] !== 'string' || !ids.has(b['id'])) return fail(bat, `a ${String(b['type'])} block must repeat one of the message's tool_calls (got id ${show(b['id'])})`)
              twins.set(b['id'], [b, j])
              return E.right(undefined)
            }),
          )(arrayAt(c, `${at}.content`)),
        )
  if (E.isLeft(parts)) return parts
  const form = { content: typeof c === 'string' ? 'string' : undefined, serialized }
  const native = withNative(LANGCHAIN, restOf(f, MESSAGE_KEYS), form)
  if (role === 'tool') {
    const id = stringAt(f, 'tool_call_id', at)
    if (E.isLeft(id)) return id
    const bad = parts.right.findIndex((p) => p._tag !== 'Text' && p._tag !== 'Image')
    if (bad >= 0) return fail(`${at}.content[${bad}]`, 'must be text or an image in a tool message')
    const status = f['status']
    const result = {
      _tag: 'ToolResult' as const,
      callId: id.right,
      name: name ?? callNames.get(id.right) ?? '',
      content: parts.right as ReadonlyArray<TextPart | ImagePart>,
      isError: status === 'error',
      ...withNative(LANGCHAIN, undefined, { name: name === undefined ? 'absent' : undefined, status: status === 'success' ? 'success' : undefined }),
    }
    return E.right({ role, parts: [result], ...native })
  }
  const calls = role === 'assistant' ? toolCalls(f, at, twins) : E.right([])
  if (E.isLeft(calls)) return calls
  for (const call of calls.right) callNames.set(call.id, call.name)
  return E.right({ role, parts: [...parts.right, ...calls.right], ...(name === undefined ? {} : { name }), ...native })
}

/**
 * Reads LangChain.js messages (instances or their serialized forms) into gssc messages, one
 * for one. Anything gssc cannot carry is an error naming its path; nothing is dropped.
 *
 * @example
 * fromLangChain([new HumanMessage('Hi'), new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'ls', args: {} }] })])
 * // Right({ shape: 'langchain', messages: [user, assistant with one ToolCall], sources: [0, 1] })
 * @category readers
 * @since 0.2.0
 */
export const fromLangChain = (input: unknown, options: DecodeOptions = {}): Dec<Decoded> => {
  const root = options.path ?? 'messages'
  const callNames = new Map<string, string>()
  return E.map((messages: ReadonlyArray<ChatMessage>) => oneToOne('langchain', messages))(
    E.chain((items: ReadonlyArray<unknown>) => eachAt(items, root, (m, at) => message(m, at, callNames)))(arrayAt(input, root)),
  )
}
