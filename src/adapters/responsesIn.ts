/**
 * OpenAI Responses input items → gssc messages, one item to one message, lossless.
 *
 * | item | gssc |
 * | --- | --- |
 * | message (`user`, `system`, `developer`, `assistant`; string or `input_text` / `output_text` / `refusal` / `input_image` / `input_file` parts) | a message of its role (`developer` as `system`) |
 * | `function_call` | an `assistant` message with one ToolCall (`argsText` = `arguments`) |
 * | `function_call_output` | a `tool` message with one ToolResult, named after its call |
 * | `reasoning` | an `assistant` message of Thinking parts: each summary, each reasoning text, and the `encrypted_content` as a redacted part |
 *
 * Ids, statuses, annotations, `detail`, `phase` and fields gssc does not know are kept in
 * `native`. Every other item type (built-in tool calls, item references, …), images or files
 * by file id where gssc has no place for them and files inside a function output cannot be
 * carried: each is an error naming its path (`input[3].content[1]`).
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { show } from '../error.js'
import type { ChatMessage, DocumentPart, ImagePart, Part, Role, TextPart, ThinkingPart } from '../message.js'
import { argumentsAt, arrayAt, eachAt, fail, keys, objectAt, optionalStringAt, restOf, stringAt, withNative, type Dec, type Obj } from './decode.js'
import { imageSourceOfUrl, parseDataUrl } from './media.js'
import { oneToOne, type Decoded, type DecodeOptions } from './shape.js'

/** The shape name the Responses adapter writes into `native`. */
export const OPENAI_RESPONSES = 'openai-responses'

const MESSAGE_KEYS = keys('role', 'content')
const TEXT_KEYS = keys('type', 'text')
const IMAGE_KEYS = keys('type', 'image_url')
const FILE_KEYS = keys('type', 'file_data', 'file_id', 'file_url', 'filename')
const CALL_KEYS = keys('type', 'call_id', 'name', 'arguments')
const OUTPUT_KEYS = keys('type', 'call_id', 'output')
const REASONING_KEYS = keys('type', 'summary', 'content', 'encrypted_content')

/** The text part type a role writes by default; another is noted in the part's form. */
export const defaultTextType = (role: Role): string => (role === 'assistant' ? 'output_text' : 'input_text')

const image = (p: Obj, at: string): Dec<ImagePart> => {
  const url = p['image_url']
  if (typeof url !== 'string') return fail(`${at}.image_url`, `must be a URL or data: URL; images by file id cannot be carried (got ${show(url)})`)
  return E.right({ _tag: 'Image', source: imageSourceOfUrl(url), ...withNative(OPENAI_RESPONSES, restOf(p, IMAGE_KEYS)) })
}

const file = (p: Obj, at: string): Dec<DocumentPart> => {
  const read = [optionalStringAt(p, 'file_data', at), optionalStringAt(p, 'file_url', at), optionalStringAt(p, 'filename', at)] as const
  for (const r of read) if (E.isLeft(r)) return r
  const [data, url, name] = read.map((r) => (r as E.Right<string | undefined>).right)
  const id = p['file_id']
  const kept = { ...restOf(p, FILE_KEYS), ...(id === null ? { file_id: null } : {}) }
  const named = name === undefined ? {} : { name }
  const inline = data === undefined ? undefined : parseDataUrl(data)
  if (data !== undefined && inline === undefined) return fail(`${at}.file_data`, `must be a base64 data: URL (got ${show(data.slice(0, 40))})`)
  const native = withNative(OPENAI_RESPONSES, Object.keys(kept).length === 0 ? undefined : kept)
  if (inline !== undefined && url === undefined && (id === undefined || id === null)) return E.right({ _tag: 'Document', source: { _tag: 'Base64', ...inline }, ...named, ...native })
  if (url !== undefined && data === undefined && (id === undefined || id === null)) return E.right({ _tag: 'Document', source: { _tag: 'Url', url }, ...named, ...native })
  if (typeof id === 'string' && data === undefined && url === undefined) return E.right({ _tag: 'Document', source: { _tag: 'FileId', id }, ...named, ...native })
  return fail(at, `must have exactly one of file_data, file_url and file_id (got ${show(Object.keys(p))})`)
}

/** One content part of a message of `role`. */
const contentPart = (v: unknown, at: string, role: Role): Dec<Part> => {
  const o = objectAt(v, at, 'a content part')
  if (E.isLeft(o)) return o
  const p = o.right
  const type = p['type']
  const form = { type: type === defaultTextType(role) ? undefined : type }
  if (type === 'input_text' || type === 'output_text')
    return E.map((text: string): TextPart => ({ _tag: 'Text', text, ...withNative(OPENAI_RESPONSES, restOf(p, TEXT_KEYS), form) }))(stringAt(p, 'text', at))
  if (type === 'refusal')
    return E.map((text: string): TextPart => ({ _tag: 'Text', text, refusal: true, ...withNative(OPENAI_RESPONSES, restOf(p, keys('type', 'refusal'))) }))(stringAt(p, 'refusal', at))
  if (type === 'input_image') return image(p, at)
  if (type === 'input_file') return file(p, at)
  return fail(`${at}.type`, `must be input_text, output_text, refusal, input_image or input_file (got ${show(type)}); other parts cannot be carried`)
}

const message = (m: Obj, at: string): Dec<ChatMessage> => {
  const r = m['role']
  if (r !== 'user' && r !== 'assistant' && r !== 'system' && r !== 'developer') return fail(`${at}.role`, `must be one of user, assistant, system, developer (got ${show(r)})`)
  const role: Role = r === 'developer' ? 'system' : r
  const roleForm = r === 'developer' ? 'developer' : undefined
  const c = m['content']
  if (typeof c === 'string') return E.right({ role, parts: [{ _tag: 'Text', text: c }], ...withNative(OPENAI_RESPONSES, restOf(m, MESSAGE_KEYS), { item: 'message', content: 'string', role: roleForm }) })
  return E.map((parts: ReadonlyArray<Part>): ChatMessage => ({ role, parts, ...withNative(OPENAI_RESPONSES, restOf(m, MESSAGE_KEYS), { item: 'message', role: roleForm }) }))(
    E.chain((items: ReadonlyArray<unknown>) => eachAt(items, `${at}.content`, (p, pat) => contentPart(p, pat, role)))(arrayAt(c, `${at}.content`)),
  )
}

const functionCall = (m: Obj, at: string, callNames: Map<string, string>): Dec<ChatMessage> => {
  const read = [stringAt(m, 'call_id', at), stringAt(m, 'name', at), stringAt(m, 'arguments', at)] as const
  for (const r of read) if (E.isLeft(r)) return r
  const [id, name, text] = read.map((r) => (r as E.Right<string>).right) as [string, string, string]
  const args = argumentsAt(text, `${at}.arguments`)
  if (E.isLeft(args)) return args
  callNames.set(id, name)
  return E.right({ role: 'assistant', parts: [{ _tag: 'ToolCall', id, name, args: args.right, argsText: text, ...withNative(OPENAI_RESPONSES, restOf(m, CALL_KEYS)) }] })
}

const functionOutput = (m: Obj, at: string, callNames: ReadonlyMap<string, string>): Dec<ChatMessage> => {
  const id = stringAt(m, 'call_id', at)
  if (E.isLeft(id)) return id
  const o = m['output']
  const content: Dec<readonly [ReadonlyArray<TextPart | ImagePart>, string | undefined]> =
    typeof o === 'string'
      ? E.right([[{ _tag: 'Text', text: o }], 'string'])
      : E.map((parts: ReadonlyArray<TextPart | ImagePart>) => [parts, 'array'] as const)(
          E.chain((items: ReadonlyArray<unknown>) =>
            eachAt(items, `${at}.output`, (p, pat): Dec<TextPart | ImagePart> => {
              const type = (p as Obj | null)?.['type']
              if (type !== 'input_text' && type !== 'input_image') return fail(`${pat}.type`, `must be input_text or input_image in a function output (got ${show(type)}); files there cannot be carried`)
              return contentPart(p, pat, 'user') as Dec<TextPart | ImagePart>
            }),
          )(arrayAt(o, `${at}.output`)),
        )
  if (E.isLeft(content)) return content
  const [parts, form] = content.right
  const result = { _tag: 'ToolResult' as const, callId: id.right, name: callNames.get(id.right) ?? '', content: parts, isError: false, ...withNative(OPENAI_RESPONSES, restOf(m, OUTPUT_KEYS), { output: form }) }
  return E.right({ role: 'tool', parts: [result] })
}

const reasoning = (m: Obj, at: string): Dec<ChatMessage> => {
  const texts = (key: string, type: string, kind: string | undefined): Dec<ReadonlyArray<ThinkingPart>> =>
    m[key] === undefined && key === 'content'
      ? E.right([])
      : E.chain((items: ReadonlyArray<unknown>) =>
          eachAt(items, `${at}.${key}`, (v, pat) =>
            E.chain((o: Obj): Dec<ThinkingPart> =>
              o['type'] !== type
                ? fail(`${pat}.type`, `must be "${type}" (got ${show(o['type'])})`)
                : E.map((text: string): ThinkingPart => ({ _tag: 'Thinking', text, ...withNative(OPENAI_RESPONSES, restOf(o, TEXT_KEYS), { kind }) }))(stringAt(o, 'text', pat)),
            )(objectAt(v, pat)),
          ),
        )(arrayAt(m[key], `${at}.${key}`))
  const summary = texts('summary', 'summary_text', undefined)
  const content = texts('content', 'reasoning_text', 'content')
  const enc = m['encrypted_content']
  if (E.isLeft(summary)) return summary
  if (E.isLeft(content)) return content
  if (enc !== undefined && enc !== null && typeof enc !== 'string') return fail(`${at}.encrypted_content`, `must be a string or null (got ${show(enc)})`)
  const encrypted: ReadonlyArray<ThinkingPart> = typeof enc === 'string' ? [{ _tag: 'Thinking', text: '', signature: enc, redacted: true }] : []
  const form = { item: 'reasoning', content: m['content'] === undefined ? undefined : 'array', encrypted: enc === null ? 'null' : undefined }
  return E.right({ role: 'assistant', parts: [...summary.right, ...content.right, ...encrypted], ...withNative(OPENAI_RESPONSES, restOf(m, REASONING_KEYS), form) })
}

const item = (v: unknown, at: string, callNames: Map<string, string>): Dec<ChatMessage> => {
  const o = objectAt(v, at, 'an input item')
  if (E.isLeft(o)) return o
  const type = o.right['type']
  if (type === undefined || type === 'message') return message(o.right, at)
  if (type === 'function_call') return functionCall(o.right, at, callNames)
  if (type === 'function_call_output') return functionOutput(o.right, at, callNames)
  if (type === 'reasoning') return reasoning(o.right, at)
  return fail(`${at}.type`, `must be message, function_call, function_call_output or reasoning (got ${show(type)}); other items cannot be carried`)
}

/**
 * Reads OpenAI Responses input items into gssc messages, one for one. Anything gssc cannot
 * carry is an error naming its path; nothing is dropped.
 *
 * @example
 * fromOpenAIResponses([{ role: 'user', content: 'Hi' }, { type: 'function_call', call_id: 'c1', name: 'ls', arguments: '{}' }])
 * // Right({ shape: 'openai-responses', messages: [user, assistant with one ToolCall], sources: [0, 1] })
 * @category readers
 * @since 0.2.0
 */
export const fromOpenAIResponses = (input: unknown, options: DecodeOptions = {}): Dec<Decoded> => {
  const root = options.path ?? 'input'
  const callNames = new Map<string, string>()
  return E.map((messages: ReadonlyArray<ChatMessage>) => oneToOne('openai-responses', messages))(
    E.chain((items: ReadonlyArray<unknown>) => eachAt(items, root, (m, at) => item(m, at, callNames)))(arrayAt(input, root)),
  )
}
