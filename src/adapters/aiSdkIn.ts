/**
 * Vercel AI SDK `ModelMessage[]` (package `ai`, v5 and later) → gssc messages, one to one and
 * lossless.
 *
 * | AI SDK part | gssc part |
 * | --- | --- |
 * | `text`, `reasoning` | Text, Thinking |
 * | `image` (base64, bytes, URL) | Image; `mediaType` when given, else read from the bytes |
 * | `file` | Document (`mediaType`, `filename` as its name) |
 * | `tool-call` | ToolCall (`input` is the arguments object) |
 * | `tool-result` | ToolResult: `text` / `json` (as JSON text) / `error-text` / `error-json` / `execution-denied` / `content` (text and images) |
 *
 * `providerOptions` (Anthropic signatures and cache hints among them), `providerExecuted` and
 * fields gssc does not know are kept in `native`, with how data was given (base64 text, a URL,
 * `Uint8Array`, `ArrayBuffer`). Tool approvals and files or custom parts inside a tool result
 * cannot be carried: each is an error naming its path (`messages[3].content[1]`).
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { show } from '../error.js'
import type { ChatMessage, DocumentPart, ImagePart, Part, Role, TextPart, ToolResultPart } from '../message.js'
import { isRecord } from '../messageProblem.js'
import { arrayAt, eachAt, fail, keys, objectAt, optionalStringAt, restOf, stringAt, withNative, type Dec, type Obj } from './decode.js'
import { readData, sniffImageType } from './media.js'
import { oneToOne, type Decoded, type DecodeOptions } from './shape.js'

/** The shape name the AI SDK adapter writes into `native`. */
export const AI_SDK = 'ai-sdk'

const MESSAGE_KEYS = keys('role', 'content')
const TEXT_KEYS = keys('type', 'text')
const IMAGE_KEYS = keys('type', 'image')
const FILE_KEYS = keys('type', 'data', 'mediaType', 'filename')
const CALL_KEYS = keys('type', 'toolCallId', 'toolName', 'input')
const RESULT_KEYS = keys('type', 'toolCallId', 'toolName', 'output')

const PARTS: Record<Role, ReadonlySet<string>> = {
  system: new Set(),
  user: new Set(['text', 'image', 'file']),
  assistant: new Set(['text', 'file', 'reasoning', 'tool-call', 'tool-result']),
  tool: new Set(['tool-result']),
}

const image = (p: Obj, at: string): Dec<ImagePart> => {
  const mediaType = optionalStringAt(p, 'mediaType', at)
  if (E.isLeft(mediaType)) return mediaType
  const data = p['image']
  const read = readData(data, mediaType.right ?? '')
  if (read === undefined) return fail(`${at}.image`, `must be base64 text, a URL, a Uint8Array or an ArrayBuffer (got ${show(data)})`)
  // no media type given (it is optional): read it from the bytes, as the SDK does
  const sniffed = read.source._tag === 'Base64' && read.source.mimeType === ''
  const source = sniffed ? { ...read.source, mimeType: sniffImageType(read.source.data) ?? 'application/octet-stream' } : read.source
  // the form note `sniffed` marks the part as the SDK's own, so writing it back adds no mediaType the caller left out
  return E.right({ _tag: 'Image', source, ...withNative(AI_SDK, restOf(p, IMAGE_KEYS), { data: read.form, sniffed: sniffed ? true : undefined }) })
}

const file = (p: Obj, at: string): Dec<DocumentPart> => {
  const mediaType = stringAt(p, 'mediaType', at)
  const name = optionalStringAt(p, 'filename', at)
  if (E.isLeft(mediaType)) return mediaType
  if (E.isLeft(name)) return name
  const read = readData(p['data'], mediaType.right)
  if (read === undefined) return fail(`${at}.data`, `must be base64 text, a URL, a Uint8Array or an ArrayBuffer (got ${show(p['data'])})`)
  // the media type is the file's own, also when it comes by URL
  // a data: URL whose type is not the file's stays a URL, so it goes back as it came
  const differs = read.form === 'url' && read.source._tag === 'Base64' && read.source.mimeType !== mediaType.right
  const source: DocumentPart['source'] = differs ? { _tag: 'Url', url: p['data'] as string, mimeType: mediaType.right } : { ...read.source, mimeType: mediaType.right }
  return E.right({ _tag: 'Document', source, ...(name.right === undefined ? {} : { name: name.right }), ...withNative(AI_SDK, restOf(p, FILE_KEYS), { data: read.form }) })
}

/** One item of a `content` tool output. */
const outputItem = (v: unknown, at: string): Dec<TextPart | ImagePart> => {
  const o = objectAt(v, at)
  if (E.isLeft(o)) return o
  const p = o.right
  const type = p['type']
  if (type === 'text') return E.map((text: string): TextPart => ({ _tag: 'Text', text, ...withNative(AI_SDK, restOf(p, TEXT_KEYS)) }))(stringAt(p, 'text', at))
  if (type === 'image-url') return E.map((url: string): ImagePart => ({ _tag: 'Image', source: { _tag: 'Url', url }, ...withNative(AI_SDK, restOf(p, keys('type', 'url'))) }))(stringAt(p, 'url', at))
  if (type === 'image-data' || (type === 'media' && typeof p['mediaType'] === 'string' && p['mediaType'].startsWith('image/'))) {
    const data = stringAt(p, 'data', at)
    const mimeType = stringAt(p, 'mediaType', at)
    if (E.isLeft(data)) return data
    if (E.isLeft(mimeType)) return mimeType
    return E.right({ _tag: 'Image', source: { _tag: 'Base64', mimeType: mimeType.right, data: data.right }, ...withNative(AI_SDK, restOf(p, keys('type', 'data', 'mediaType')), { kind: type === 'media' ? 'media' : undefined }) })
  }
  return fail(`${at}.type`, `must be text, image-data or image-url (got ${show(type)}); files and custom parts in a tool result cannot be carried`)
}

const toolResult = (p: Obj, at: string): Dec<ToolResultPart> => {
  const id = stringAt(p, 'toolCallId', at)
  const name = stringAt(p, 'toolName', at)
  const out = objectAt(p['output'], `${at}.output`)
  if (E.isLeft(id)) return id
  if (E.isLeft(name)) return name
  if (E.isLeft(out)) return out
  const o = out.right
  const at2 = `${at}.output`
  const type = o['type']
  const result = (content: ReadonlyArray<TextPart | ImagePart>, isError: boolean, output: string, known: ReadonlySet<string>, value?: unknown): ToolResultPart => ({
    _tag: 'ToolResult',
    callId: id.right,
    name: name.right,
    content,
    isError,
    ...withNative(AI_SDK, restOf(p, RESULT_KEYS), { output, outputFields: restOf(o, known), value }),
  })
  const VALUE = keys('type', 'value')
  if (type === 'text' || type === 'error-text')
    return E.map((value: string) => result([{ _tag: 'Text', text: value }], type === 'error-text', 'text', VALUE))(stringAt(o, 'value', at2))
  if (type === 'json' || type === 'error-json') {
    if (!('value' in o)) return fail(`${at2}.value`, 'must be a JSON value (got undefined)')
    // the value itself is kept too: its JSON text cannot tell -0 from 0, and the writer gives back what it was given
    return E.right(result([{ _tag: 'Text', text: JSON.stringify(o['value']) }], type === 'error-json', 'json', VALUE, o['value']))
  }
  if (type === 'execution-denied')
    return E.map((reason: string | undefined) => result(reason === undefined ? [] : [{ _tag: 'Text', text: reason }], true, 'denied', keys('type', 'reason')))(optionalStringAt(o, 'reason', at2))
  if (type === 'content')
    return E.map((parts: ReadonlyArray<TextPart | ImagePart>) => result(parts, false, 'content', VALUE))(E.chain((items: ReadonlyArray<unknown>) => eachAt(items, `${at2}.value`, outputItem))(arrayAt(o['value'], `${at2}.value`)))
  return fail(`${at2}.type`, `must be text, json, error-text, error-json, execution-denied or content (got ${show(type)})`)
}

const part = (v: unknown, at: string, role: Role): Dec<Part> => {
  const o = objectAt(v, at, 'a content part')
  if (E.isLeft(o)) return o
  const p = o.right
  const type = p['type']
  if (typeof type !== 'string' || !PARTS[role].has(type))
    return fail(`${at}.type`, `must be one of ${[...PARTS[role]].join(', ')} in ${role === 'assistant' ? 'an' : 'a'} ${role} message (got ${show(type)})${String(type).startsWith('tool-approval') ? '; tool approvals cannot be carried' : ''}`)
  if (type === 'text') return E.map((text: string): TextPart => ({ _tag: 'Text', text, ...withNative(AI_SDK, restOf(p, TEXT_KEYS)) }))(stringAt(p, 'text', at))
  if (type === 'reasoning') return E.map((text: string): Part => ({ _tag: 'Thinking', text, ...withNative(AI_SDK, restOf(p, TEXT_KEYS)) }))(stringAt(p, 'text', at))
  if (type === 'image') return image(p, at)
  if (type === 'file') return file(p, at)
  if (type === 'tool-result') return toolResult(p, at)
  const id = stringAt(p, 'toolCallId', at)
  const name = stringAt(p, 'toolName', at)
  if (E.isLeft(id)) return id
  if (E.isLeft(name)) return name
  const input = p['input']
  if (!isRecord(input)) return fail(`${at}.input`, `must be an object: gssc's tool calls carry an arguments object (got ${show(input)})`)
  return E.right({ _tag: 'ToolCall', id: id.right, name: name.right, args: input, ...withNative(AI_SDK, restOf(p, CALL_KEYS)) })
}

const modelMessage = (v: unknown, at: string): Dec<ChatMessage> => {
  const o = objectAt(v, at, 'a message')
  if (E.isLeft(o)) return o
  const m = o.right
  const role = m['role']
  if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') return fail(`${at}.role`, `must be one of system, user, assistant, tool (got ${show(role)})`)
  const c = m['content']
  if (typeof c === 'string' && role !== 'tool') return E.right({ role, parts: [{ _tag: 'Text', text: c }], ...withNative(AI_SDK, restOf(m, MESSAGE_KEYS), { content: 'string' }) })
  if (role === 'system') return fail(`${at}.content`, `must be a string (got ${show(c)})`)
  return E.map((parts: ReadonlyArray<Part>): ChatMessage => ({ role, parts, ...withNative(AI_SDK, restOf(m, MESSAGE_KEYS)) }))(
    E.chain((items: ReadonlyArray<unknown>) => eachAt(items, `${at}.content`, (p, pat) => part(p, pat, role)))(arrayAt(c, `${at}.content`)),
  )
}

/**
 * Reads AI SDK `ModelMessage[]` into gssc messages, one for one. Anything gssc cannot carry is
 * an error naming its path; nothing is dropped.
 *
 * @example
 * fromAISDK([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }])
 * // Right({ shape: 'ai-sdk', messages: [{ role: 'user', parts: [{ _tag: 'Text', text: 'Hi' }] }], sources: [0] })
 * @category readers
 * @since 0.2.0
 */
export const fromAISDK = (input: unknown, options: DecodeOptions = {}): Dec<Decoded> => {
  const root = options.path ?? 'messages'
  return E.map((messages: ReadonlyArray<ChatMessage>) => oneToOne('ai-sdk', messages))(E.chain((items: ReadonlyArray<unknown>) => eachAt(items, root, modelMessage))(arrayAt(input, root)))
}
