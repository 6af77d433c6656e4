/**
 * An Anthropic Messages conversation → gssc messages, one to one and lossless.
 *
 * The input is `{ system?, messages }` (a `MessageCreateParams`; its other fields, such as
 * `model` or `tools`, are not messages and are not read) or a bare `MessageParam[]`. `system`
 * becomes a system message (source `'system'`); each turn becomes one message of its role,
 * with its blocks as parts in order:
 *
 * | block | part |
 * | --- | --- |
 * | `text`, `image` (base64 or URL), `document` (PDF, plain text, URL, file) | Text, Image, Document |
 * | `tool_use` | ToolCall (`input` is the arguments object) |
 * | `tool_result` (`is_error`, string or nested text and image content) | ToolResult, in the user message that holds it |
 * | `thinking`, `redacted_thinking` | Thinking with its signature; redacted: `redacted`, the data in `signature` |
 *
 * `cache_control` becomes the part's `cacheControl`; everything else (`citations`, `caller`,
 * `context`, fields gssc does not know) is kept in `native`. Server-tool blocks, search
 * results, images by file id and documents made of content blocks cannot be carried: each is
 * an error naming its path (`messages[3].content[1]`).
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { show } from '../error.js'
import type { CacheControl, ChatMessage, DocumentPart, ImagePart, Part, TextPart, ThinkingPart, ToolCallPart, ToolResultPart } from '../message.js'
import { isRecord } from '../messageProblem.js'
import { arrayAt, eachAt, fail, keys, objectAt, restOf, stringAt, withNative, type Dec, type Obj } from './decode.js'
import type { Decoded, DecodeOptions, Source } from './shape.js'

/** The shape name the Anthropic adapter writes into `native`. */
export const ANTHROPIC = 'anthropic'

const BLOCK = {
  text: keys('type', 'text', 'cache_control'),
  image: keys('type', 'source', 'cache_control'),
  document: keys('type', 'source', 'title', 'cache_control'),
  tool_use: keys('type', 'id', 'name', 'input', 'cache_control'),
  tool_result: keys('type', 'tool_use_id', 'content', 'is_error', 'cache_control'),
  thinking: keys('type', 'thinking', 'signature'),
  redacted_thinking: keys('type', 'data'),
}
const MESSAGE_KEYS = keys('role', 'content')
const SOURCE_KEYS = { base64: keys('type', 'media_type', 'data'), text: keys('type', 'media_type', 'data'), url: keys('type', 'url'), file: keys('type', 'file_id') }

/** `cache_control` as the part's `cacheControl` (a `null` stays a native field). */
const cache = (b: Obj, at: string): Dec<{ readonly cacheControl?: CacheControl }> => {
  const c = b['cache_control']
  if (c === undefined || c === null) return E.right({})
  return isRecord(c) && c['type'] === 'ephemeral' ? E.right({ cacheControl: c as unknown as CacheControl }) : fail(`${at}.cache_control`, `must be { type: 'ephemeral', ttl? } or null (got ${show(c)})`)
}

/** The block's kept fields: its unknown fields, and `cache_control: null` when written so. */
const rest = (b: Obj, known: ReadonlySet<string>): Obj | undefined => {
  const r = restOf(b, known)
  return b['cache_control'] === null ? { ...r, cache_control: null } : r
}

const sourceOf = (b: Obj, at: string, kinds: ReadonlyArray<keyof typeof SOURCE_KEYS>): Dec<readonly [Obj, keyof typeof SOURCE_KEYS]> => {
  const s = objectAt(b['source'], `${at}.source`)
  if (E.isLeft(s)) return s
  const type = s.right['type']
  if (!kinds.includes(type as never)) return fail(`${at}.source.type`, `must be one of ${kinds.join(', ')} (got ${show(type)}); other sources cannot be carried`)
  return E.right([s.right, type as keyof typeof SOURCE_KEYS])
}

const image = (b: Obj, at: string): Dec<ImagePart> => {
  const src = sourceOf(b, at, ['base64', 'url'])
  if (E.isLeft(src)) return src
  const [s, type] = src.right
  const read =
    type === 'url'
      ? E.map((url: string): ImagePart['source'] => ({ _tag: 'Url', url }))(stringAt(s, 'url', `${at}.source`))
      : E.chain((mimeType: string) => E.map((data: string): ImagePart['source'] => ({ _tag: 'Base64', mimeType, data }))(stringAt(s, 'data', `${at}.source`)))(stringAt(s, 'media_type', `${at}.source`))
  const cc = cache(b, at)
  if (E.isLeft(read)) return read
  if (E.isLeft(cc)) return cc
  return E.right({ _tag: 'Image', source: read.right, ...cc.right, ...withNative(ANTHROPIC, rest(b, BLOCK.image), { source: restOf(s, SOURCE_KEYS[type]) }) })
}

const document = (b: Obj, at: string): Dec<DocumentPart> => {
  const src = sourceOf(b, at, ['base64', 'text', 'url', 'file'])
  if (E.isLeft(src)) return src
  const [s, type] = src.right
  const p = `${at}.source`
  const field = (k: string): Dec<string> => stringAt(s, k, p)
  const read: Dec<DocumentPart['source']> =
    type === 'url'
      ? E.map((url: string) => ({ _tag: 'Url' as const, url }))(field('url'))
      : type === 'file'
        ? E.map((id: string) => ({ _tag: 'FileId' as const, id }))(field('file_id'))
        : E.chain((mimeType: string) =>
            E.map((data: string): DocumentPart['source'] => (type === 'text' ? { _tag: 'Text', mimeType, text: data } : { _tag: 'Base64', mimeType, data }))(field('data')),
          )(field('media_type'))
  const title = b['title']
  const cc = cache(b, at)
  if (E.isLeft(read)) return read
  if (E.isLeft(cc)) return cc
  if (title !== undefined && title !== null && typeof title !== 'string') return fail(`${at}.title`, `must be a string or null (got ${show(title)})`)
  const kept = title === null ? { ...rest(b, BLOCK.document), title: null } : rest(b, BLOCK.document)
  return E.right({ _tag: 'Document', source: read.right, ...(typeof title === 'string' ? { name: title } : {}), ...cc.right, ...withNative(ANTHROPIC, kept, { source: restOf(s, SOURCE_KEYS[type]) }) })
}

const text = (b: Obj, at: string): Dec<TextPart> => {
  const t = stringAt(b, 'text', at)
  const cc = cache(b, at)
  if (E.isLeft(t)) return t
  if (E.isLeft(cc)) return cc
  return E.right({ _tag: 'Text', text: t.right, ...cc.right, ...withNative(ANTHROPIC, rest(b, BLOCK.text)) })
}

const resultContent = (v: unknown, at: string): Dec<readonly [ReadonlyArray<TextPart | ImagePart>, string | undefined]> => {
  if (v === undefined) return E.right([[], 'absent'])
  if (typeof v === 'string') return E.right([[{ _tag: 'Text', text: v }], 'string'])
  return E.map((parts: ReadonlyArray<TextPart | ImagePart>) => [parts, undefined] as const)(
    E.chain((items: ReadonlyArray<unknown>) =>
      eachAt(items, at, (item, iat): Dec<TextPart | ImagePart> => {
        const o = objectAt(item, iat, 'a content block')
        if (E.isLeft(o)) return o
        const type = o.right['type']
        if (type === 'text') return text(o.right, iat)
        if (type === 'image') return image(o.right, iat)
        return fail(`${iat}.type`, `must be "text" or "image" inside a tool_result (got ${show(type)}); other blocks cannot be carried there`)
      }),
    )(arrayAt(v, at)),
  )
}

/** Reads one block; `callNames` maps the ids of the calls read so far to their tool names. */
const block = (v: unknown, at: string, callNames: Map<string, string>): Dec<Part> => {
  const o = objectAt(v, at, 'a content block')
  if (E.isLeft(o)) return o
  const b = o.right
  const type = b['type']
  const cc = cache(b, at)
  if (E.isLeft(cc)) return cc
  if (type === 'text') return text(b, at)
  if (type === 'image') return image(b, at)
  if (type === 'document') return document(b, at)
  if (type === 'thinking') {
    const t = stringAt(b, 'thinking', at)
    const s = stringAt(b, 'signature', at)
    if (E.isLeft(t)) return t
    if (E.isLeft(s)) return s
    return E.right<never, ThinkingPart>({ _tag: 'Thinking', text: t.right, signature: s.right, ...withNative(ANTHROPIC, restOf(b, BLOCK.thinking)) })
  }
  if (type === 'redacted_thinking')
    return E.map((data: string): ThinkingPart => ({ _tag: 'Thinking', text: '', signature: data, redacted: true, ...withNative(ANTHROPIC, restOf(b, BLOCK.redacted_thinking)) }))(stringAt(b, 'data', at))
  if (type === 'tool_use') {
    const id = stringAt(b, 'id', at)
    const name = stringAt(b, 'name', at)
    if (E.isLeft(id)) return id
    if (E.isLeft(name)) return name
    if (!isRecord(b['input'])) return fail(`${at}.input`, `must be an object: gssc's tool calls carry an arguments object (got ${show(b['input'])})`)
    callNames.set(id.right, name.right)
    return E.right<never, ToolCallPart>({ _tag: 'ToolCall', id: id.right, name: name.right, args: b['input'], ...cc.right, ...withNative(ANTHROPIC, rest(b, BLOCK.tool_use)) })
  }
  if (type === 'tool_result') {
    const id = stringAt(b, 'tool_use_id', at)
    const body = resultContent(b['content'], `${at}.content`)
    const isError = b['is_error']
    if (E.isLeft(id)) return id
    if (E.isLeft(body)) return body
    if (isError !== undefined && typeof isError !== 'boolean') return fail(`${at}.is_error`, `must be a boolean (got ${show(isError)})`)
    const form = { content: body.right[1], isError: isError === false ? 'false' : undefined }
    return E.right<never, ToolResultPart>({
      _tag: 'ToolResult',
      callId: id.right,
      name: callNames.get(id.right) ?? '',
      content: body.right[0],
      isError: isError === true,
      ...cc.right,
      ...withNative(ANTHROPIC, rest(b, BLOCK.tool_result), form),
    })
  }
  return fail(`${at}.type`, `must be text, image, document, tool_use, tool_result, thinking or redacted_thinking (got ${show(type)}); other blocks cannot be carried`)
}

const turn = (v: unknown, at: string, callNames: Map<string, string>): Dec<ChatMessage> => {
  const o = objectAt(v, at, 'a message { role, content }')
  if (E.isLeft(o)) return o
  const m = o.right
  const role = m['role']
  if (role !== 'user' && role !== 'assistant') return fail(`${at}.role`, `must be "user" or "assistant" (got ${show(role)})`)
  const c = m['content']
  if (typeof c === 'string') return E.right({ role, parts: [{ _tag: 'Text', text: c }], ...withNative(ANTHROPIC, restOf(m, MESSAGE_KEYS), { content: 'string' }) })
  return E.map((parts: ReadonlyArray<Part>): ChatMessage => ({ role, parts, ...withNative(ANTHROPIC, restOf(m, MESSAGE_KEYS)) }))(
    E.chain((blocks: ReadonlyArray<unknown>) => eachAt(blocks, `${at}.content`, (b, bat) => block(b, bat, callNames)))(arrayAt(c, `${at}.content`)),
  )
}

const systemMessage = (v: unknown, at: string): Dec<ChatMessage> => {
  if (typeof v === 'string') return E.right({ role: 'system', parts: [{ _tag: 'Text', text: v }], native: { shape: ANTHROPIC, form: { content: 'string' } } })
  return E.map((parts: ReadonlyArray<TextPart>): ChatMessage => ({ role: 'system', parts }))(
    E.chain((blocks: ReadonlyArray<unknown>) =>
      eachAt(blocks, at, (b, bat) => E.chain((o: Obj) => (o['type'] === 'text' ? text(o, bat) : fail(`${bat}.type`, `must be "text" (got ${show(o['type'])})`)))(objectAt(b, bat, 'a text block'))),
    )(arrayAt(v, at)),
  )
}

/**
 * Reads an Anthropic conversation (`{ system?, messages }` or `MessageParam[]`) into gssc
 * messages: the system prompt first (source `'system'`), then one message per turn. Anything
 * gssc cannot carry is an error naming its path; nothing is dropped.
 *
 * @example
 * fromAnthropicMessages({ system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] })
 * // Right({ shape: 'anthropic', messages: [system, user], sources: ['system', 0] })
 * @category readers
 * @since 0.2.0
 */
export const fromAnthropicMessages = (input: unknown, options: DecodeOptions = {}): Dec<Decoded> => {
  const request = Array.isArray(input) ? { messages: input } : input
  if (!isRecord(request)) return fail(options.path ?? 'messages', `must be { system?, messages } or an array of messages (got ${show(input)})`)
  // a request's fields are named as they are (`messages[3]`, `system[0]`), under `options.path` when given
  const prefix = options.path === undefined ? '' : `${options.path}.`
  const path = Array.isArray(input) ? (options.path ?? 'messages') : `${prefix}messages`
  const system = request['system'] === undefined ? E.right(undefined) : systemMessage(request['system'], `${prefix}system`)
  if (E.isLeft(system)) return system
  const callNames = new Map<string, string>()
  return E.map((turns: ReadonlyArray<ChatMessage>): Decoded => {
    const head: ReadonlyArray<ChatMessage> = system.right === undefined ? [] : [system.right]
    const sources: ReadonlyArray<Source> = [...(system.right === undefined ? [] : ['system' as const]), ...turns.map((_, i) => i)]
    return { shape: 'anthropic', messages: [...head, ...turns], sources }
  })(E.chain((items: ReadonlyArray<unknown>) => eachAt(items, path, (m, at) => turn(m, at, callNames)))(arrayAt(request['messages'], path)))
}
