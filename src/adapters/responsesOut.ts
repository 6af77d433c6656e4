/**
 * gssc messages → OpenAI Responses input items: the inverse of {@link fromOpenAIResponses}.
 *
 * A message read from Responses gives back its one item. A message from elsewhere gives one
 * item per piece: an assistant turn's texts as assistant messages, each tool call as a
 * `function_call`, each tool result as a `function_call_output` (the results a user turn holds,
 * as Anthropic keeps them, go first). Reasoning goes back only as the reasoning item OpenAI
 * made (it needs that item's `id`); reasoning from elsewhere, error results, documents given as
 * text and media outside user turns are errors naming `messages[i].parts[j]`, never dropped.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { match } from 'ts-pattern'
import { toolCallArguments, type ChatMessage, type DocumentPart, type ImagePart, type Part, type TextPart, type ThinkingPart, type ToolResultPart } from '../message.js'
import { cannotWrite, eachAt, flatEachAt, fieldsOf, formOf, type Dec } from './decode.js'
import { dataUrl, urlOfImageSource } from './media.js'
import { defaultTextType, OPENAI_RESPONSES } from './responsesIn.js'
import type {
  ResponsesFunctionCallOutput,
  ResponsesInputFile,
  ResponsesInputImage,
  ResponsesInputText,
  ResponsesItem,
  ResponsesOutputText,
  ResponsesReasoning,
  ResponsesRefusal,
} from './responsesWire.js'

const TARGET = 'an OpenAI Responses input item'
const S = OPENAI_RESPONSES

type TextLike = ResponsesInputText | ResponsesOutputText | ResponsesRefusal

const textPart = (p: TextPart, role: ChatMessage['role']): TextLike => {
  if (p.refusal === true) return { ...fieldsOf(S, p), type: 'refusal', refusal: p.text }
  const type = formOf(S, p)['type'] ?? defaultTextType(role)
  // output text needs its annotations; one read from Responses keeps its own
  return type === 'output_text' ? { annotations: [], ...fieldsOf(S, p), type, text: p.text } : { ...fieldsOf(S, p), type: 'input_text', text: p.text }
}

const imagePart = (p: ImagePart): ResponsesInputImage => ({ detail: 'auto', ...fieldsOf(S, p), type: 'input_image', image_url: urlOfImageSource(p.source) })

const filePart = (p: DocumentPart, at: string): Dec<ResponsesInputFile> => {
  const file = (where: Pick<ResponsesInputFile, 'file_data' | 'file_url' | 'file_id'>): Dec<ResponsesInputFile> =>
    E.right({ ...fieldsOf(S, p), type: 'input_file', ...where, ...(p.name === undefined ? {} : { filename: p.name }) })
  return match(p.source)
    .with({ _tag: 'Text' }, () => cannotWrite(at, 'a document given as text', TARGET))
    .with({ _tag: 'Base64' }, (s) => file({ file_data: dataUrl(s.mimeType, s.data) }))
    .with({ _tag: 'Url' }, (s) => file({ file_url: s.url }))
    .with({ _tag: 'FileId' }, (s) => file({ file_id: s.id }))
    .exhaustive()
}

const single = (parts: ReadonlyArray<Part>): TextPart | undefined => {
  const only = parts[0]
  return parts.length === 1 && only?._tag === 'Text' && only.refusal !== true && only.native === undefined ? only : undefined
}

const outputItem = (r: ToolResultPart, at: string): Dec<ResponsesFunctionCallOutput> => {
  if (r.isError) return cannotWrite(`${at}.isError`, 'a tool result marked as an error', TARGET)
  const only = single(r.content)
  const form = formOf(S, r)['output']
  const output = only !== undefined && form !== 'array' ? only.text : r.content.map((c): ResponsesInputText | ResponsesInputImage => (c._tag === 'Text' ? { ...fieldsOf(S, c), type: 'input_text', text: c.text } : imagePart(c)))
  return E.right({ ...fieldsOf(S, r), type: 'function_call_output', call_id: r.callId, output })
}

/** A message item of a user, system or (read from Responses) assistant message. */
const messageItem = (m: ChatMessage, parts: ReadonlyArray<readonly [Part, number]>, at: string): Dec<ResponsesItem> => {
  const form = formOf(S, m)
  const only = single(parts.map(([p]) => p))
  const role = m.role === 'system' ? (form['role'] === 'developer' ? 'developer' : 'system') : m.role === 'assistant' ? 'assistant' : 'user'
  if (only !== undefined && (form['content'] === 'string' || (form['content'] === undefined && m.native?.shape !== S))) return E.right({ ...fieldsOf(S, m), role, content: only.text } as ResponsesItem)
  const content = eachAt(parts, `${at}.parts`, ([p, j]): Dec<TextLike | ResponsesInputImage | ResponsesInputFile> => {
    const path = `${at}.parts[${j}]`
    if (p._tag === 'Text') return E.right(textPart(p, m.role))
    // input messages of any role may hold media (the SDK's type says so); an assistant's, only as read
    const media = m.role !== 'assistant' || m.native?.shape === S
    if (p._tag === 'Image' && media) return E.right(imagePart(p))
    if (p._tag === 'Document' && media) return filePart(p, path)
    return cannotWrite(path, `a ${p._tag} part in a ${m.role} message`, TARGET)
  })
  return E.map((c: Array<TextLike | ResponsesInputImage | ResponsesInputFile>) => ({ ...fieldsOf(S, m), role, content: c }) as ResponsesItem)(content)
}

const reasoningItem = (m: ChatMessage, parts: ReadonlyArray<ThinkingPart>): ResponsesReasoning => {
  const form = formOf(S, m)
  const text = (p: ThinkingPart, type: string) => ({ ...fieldsOf(S, p), type, text: p.text })
  const encrypted = parts.find((p) => p.redacted === true)
  const content = parts.filter((p) => p.redacted !== true && formOf(S, p)['kind'] === 'content')
  return {
    ...fieldsOf(S, m),
    type: 'reasoning',
    summary: parts.filter((p) => p.redacted !== true && formOf(S, p)['kind'] !== 'content').map((p) => text(p, 'summary_text')) as ResponsesReasoning['summary'],
    ...(form['content'] === 'array' || content.length > 0 ? { content: content.map((p) => text(p, 'reasoning_text')) as ResponsesReasoning['content'] } : {}),
    ...(encrypted !== undefined ? { encrypted_content: encrypted.signature ?? '' } : form['encrypted'] === 'null' ? { encrypted_content: null } : {}),
  } as ResponsesReasoning
}

const items = (m: ChatMessage, at: string): Dec<ReadonlyArray<ResponsesItem>> => {
  const form = formOf(S, m)
  const indexed = m.parts.map((p, j) => [p, j] as const)
  if (form['item'] === 'reasoning') {
    const bad = m.parts.findIndex((p) => p._tag !== 'Thinking')
    return bad >= 0 ? cannotWrite(`${at}.parts[${bad}]`, `a ${m.parts[bad]!._tag} part in a reasoning item`, TARGET) : E.right([reasoningItem(m, m.parts as ReadonlyArray<ThinkingPart>)])
  }
  // read from a Responses message item: that one item
  if (form['item'] === 'message') return E.map((i: ResponsesItem) => [i])(messageItem(m, indexed, at))
  const out: Array<ResponsesItem> = []
  const content: Array<readonly [Part, number]> = []
  for (const [p, j] of indexed) {
    const path = `${at}.parts[${j}]`
    if (p._tag === 'ToolCall') {
      if (m.role !== 'assistant') return cannotWrite(path, `a tool call in a ${m.role} message`, TARGET)
      out.push({ ...fieldsOf(S, p), type: 'function_call', call_id: p.id, name: p.name, arguments: toolCallArguments(p) })
    } else if (p._tag === 'ToolResult') {
      if (m.role === 'assistant' || m.role === 'system') return cannotWrite(path, `a tool result in a ${m.role} message`, TARGET)
      const r = outputItem(p, path)
      if (E.isLeft(r)) return r
      out.push(r.right)
    } else if (p._tag === 'Thinking') return cannotWrite(path, 'reasoning that did not come from OpenAI (a reasoning item needs the id OpenAI gave it)', TARGET)
    else if (m.role === 'tool') return cannotWrite(path, `a ${p._tag} part in a tool message`, TARGET)
    else if (m.role === 'assistant') {
      // from elsewhere: each text its own assistant message, in place (an input message cannot hold output text parts)
      const r = messageItem(m, [[p, j]], at)
      if (E.isLeft(r)) return r
      out.push(r.right)
    } else content.push([p, j])
  }
  // a user or system message: its tool results (Anthropic keeps them there) first, then the message
  if (m.role === 'tool' || m.role === 'assistant' || (content.length === 0 && m.parts.length > 0)) return E.right(out)
  return E.map((i: ResponsesItem) => [...out, i])(messageItem(m, content, at))
}

/**
 * Writes gssc messages as OpenAI Responses input items: a plain mutable array that
 * `client.responses.create({ model, input })` takes as it is. Exact inverse of
 * {@link fromOpenAIResponses}; anything Responses cannot express is an error naming its path.
 *
 * @example
 * toOpenAIResponses([message('user', 'Hi')]) // Right([{ role: 'user', content: 'Hi' }])
 * @category writers
 * @since 0.2.0
 */
export const toOpenAIResponses = (messages: ReadonlyArray<ChatMessage>): Dec<Array<ResponsesItem>> =>
  flatEachAt(messages, 'messages', items)
