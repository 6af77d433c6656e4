/**
 * gssc messages → AI SDK `ModelMessage[]`: the inverse of {@link fromAISDK}, so messages read
 * from the AI SDK come back exactly (data in the form it was given, tool outputs of the type
 * they had, `providerOptions` as they were).
 *
 * Messages from elsewhere: a system message per system text (the SDK's system content is one
 * string), a result as `text` / `error-text` output (`content` when it holds images), the
 * results a user turn holds (as Anthropic keeps them) as a tool message before it. What the
 * SDK cannot take without losing something — signed or redacted reasoning from another
 * provider, images in an assistant turn, a file given by id — is an error naming
 * `messages[i].parts[j]`, never dropped.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ChatMessage, DocumentPart, ImagePart, Part, TextPart, ToolResultPart } from '../message.js'
import { AI_SDK } from './aiSdkIn.js'
import type { AIAssistantMessage, AIFilePart, AIImagePart, AIJSONValue, AIModelMessage, AIToolResultOutput, AIToolResultPart, AIUserMessage } from './aiSdkWire.js'
import { cannotWrite, eachAt, fieldsOf, flatEachAt, formOf, objOf, type Dec } from './decode.js'
import { bytesToBase64, writeData } from './media.js'

const TARGET = 'an AI SDK message'

const textPart = (p: TextPart, type: 'text' | 'reasoning' = 'text') => ({ ...fieldsOf(AI_SDK, p), type, text: p.text })

const imagePart = (p: ImagePart): AIImagePart => ({
  ...(p.native?.shape !== AI_SDK && p.source._tag === 'Base64' ? { mediaType: p.source.mimeType } : {}),
  ...fieldsOf(AI_SDK, p),
  type: 'image',
  image: writeData(p.source, formOf(AI_SDK, p)['data']),
})

const filePart = (p: DocumentPart, at: string): Dec<AIFilePart> => {
  const s = p.source
  if (s._tag === 'FileId') return cannotWrite(at, 'a document given by a provider file id', TARGET)
  const source = s._tag === 'Text' ? { _tag: 'Base64' as const, mimeType: s.mimeType, data: bytesToBase64(new TextEncoder().encode(s.text)) } : s
  return E.right({
    ...fieldsOf(AI_SDK, p),
    type: 'file',
    data: writeData(source, formOf(AI_SDK, p)['data']),
    mediaType: source.mimeType ?? 'application/octet-stream',
    ...(p.name === undefined ? {} : { filename: p.name }),
  })
}

const contentItem = (c: TextPart | ImagePart) => {
  if (c._tag === 'Text') return textPart(c) as { type: 'text'; text: string }
  const fields = fieldsOf(AI_SDK, c)
  if (c.source._tag === 'Url') return { ...fields, type: 'image-url' as const, url: c.source.url }
  return { ...fields, type: formOf(AI_SDK, c)['kind'] === 'media' ? ('media' as const) : ('image-data' as const), data: c.source.data, mediaType: c.source.mimeType }
}

/** The output of a result: of the type it was read with, else `text` (`content` with images). */
const outputOf = (r: ToolResultPart, at: string): Dec<AIToolResultOutput> => {
  const form = formOf(AI_SDK, r)
  const fields = objOf(form['outputFields'])
  const texts = r.content.every((c) => c._tag === 'Text') ? (r.content as ReadonlyArray<TextPart>) : undefined
  const joined = texts?.map((t) => t.text).join('\n')
  if (form['output'] === 'denied' && r.isError && texts !== undefined && texts.length <= 1) return E.right({ ...fields, type: 'execution-denied', ...(texts.length === 0 ? {} : { reason: joined! }) })
  if (form['output'] === 'json' && texts?.length === 1) {
    const text = texts[0]!.text
    // unchanged since it was read: the value as given (JSON text loses -0); else the text parsed
    if ('value' in form && JSON.stringify(form['value']) === text) return E.right({ ...fields, type: r.isError ? 'error-json' : 'json', value: form['value'] as AIJSONValue })
    try {
      return E.right({ ...fields, type: r.isError ? 'error-json' : 'json', value: JSON.parse(text) as AIJSONValue })
    } catch {
      // the JSON text was cut: it goes as text
    }
  }
  if (texts !== undefined && (r.isError || (form['output'] !== 'content' && texts.length === 1))) return E.right({ ...fields, type: r.isError ? 'error-text' : 'text', value: joined! })
  if (r.isError) return cannotWrite(`${at}.isError`, 'an error result holding images', TARGET)
  return E.right({ ...fields, type: 'content', value: r.content.map(contentItem) })
}

const resultPart = (r: ToolResultPart, at: string): Dec<AIToolResultPart> =>
  E.map((output: AIToolResultOutput): AIToolResultPart => ({ ...fieldsOf(AI_SDK, r), type: 'tool-result', toolCallId: r.callId, toolName: r.name, output }))(outputOf(r, at))

/** A string when the message was written so and still is one plain text. */
const asString = (m: ChatMessage): string | undefined => {
  const only = m.parts[0]
  return formOf(AI_SDK, m)['content'] === 'string' && m.parts.length === 1 && only?._tag === 'Text' && only.native === undefined ? only.text : undefined
}

const assistantPart = (p: Part, at: string): Dec<ReadonlyArray<Exclude<AIAssistantMessage['content'], string>[number]>> => {
  if (p._tag === 'Text') return E.right([textPart(p)])
  if (p._tag === 'Document') return E.map((f: AIFilePart) => [f])(filePart(p, at))
  if (p._tag === 'ToolCall') return E.right([{ ...fieldsOf(AI_SDK, p), type: 'tool-call', toolCallId: p.id, toolName: p.name, input: p.args }])
  if (p._tag === 'ToolResult') return E.map((r: AIToolResultPart) => [r])(resultPart(p, at))
  if (p._tag === 'Thinking' && p.native?.shape !== AI_SDK && (p.redacted === true || p.signature !== undefined))
    return cannotWrite(at, 'signed or redacted reasoning from another provider', TARGET)
  if (p._tag === 'Thinking') return E.right([textPart({ _tag: 'Text', text: p.text, ...(p.native === undefined ? {} : { native: p.native }) }, 'reasoning') as { type: 'reasoning'; text: string }])
  return cannotWrite(at, 'an image in an assistant turn', TARGET)
}

const modelMessages = (m: ChatMessage, at: string): Dec<ReadonlyArray<AIModelMessage>> => {
  const fields = fieldsOf(AI_SDK, m)
  const text = asString(m)
  if (m.role === 'system') {
    if (text !== undefined) return E.right([{ ...fields, role: 'system', content: text }])
    return eachAt(m.parts, `${at}.parts`, (p, path): Dec<AIModelMessage> => (p._tag === 'Text' ? E.right({ ...fields, role: 'system', content: p.text }) : cannotWrite(path, `a ${p._tag} part in a system message`, TARGET)))
  }
  if (text !== undefined && m.role !== 'tool') return E.right([{ ...fields, role: m.role, content: text }])
  if (m.role === 'assistant') return E.map((content: Array<ReadonlyArray<Exclude<AIAssistantMessage['content'], string>[number]>>): ReadonlyArray<AIModelMessage> => [{ ...fields, role: 'assistant', content: content.flat() }])(eachAt(m.parts, `${at}.parts`, assistantPart))
  // tool and user turns: results go in a tool message (before the user's own parts)
  const results = eachAt(m.parts, `${at}.parts`, (p, path): Dec<ReadonlyArray<AIToolResultPart>> =>
    p._tag !== 'ToolResult' ? (m.role === 'tool' ? cannotWrite(path, `a ${p._tag} part in a tool turn`, TARGET) : E.right([])) : E.map((r: AIToolResultPart) => [r])(resultPart(p, path)),
  )
  if (E.isLeft(results)) return results
  const tool: ReadonlyArray<AIModelMessage> = results.right.flat().length > 0 || m.role === 'tool' ? [{ ...(m.role === 'tool' ? fields : {}), role: 'tool', content: results.right.flat() }] : []
  if (m.role === 'tool' || (tool.length > 0 && m.parts.every((p) => p._tag === 'ToolResult'))) return E.right(tool)
  const content = eachAt(m.parts, `${at}.parts`, (p, path): Dec<ReadonlyArray<Exclude<AIUserMessage['content'], string>[number]>> => {
    if (p._tag === 'ToolResult') return E.right([])
    if (p._tag === 'Text') return E.right([textPart(p) as { type: 'text'; text: string }])
    if (p._tag === 'Image') return E.right([imagePart(p)])
    if (p._tag === 'Document') return E.map((f: AIFilePart) => [f])(filePart(p, path))
    return cannotWrite(path, `a ${p._tag} part in a user turn`, TARGET)
  })
  return E.map((c: Array<ReadonlyArray<Exclude<AIUserMessage['content'], string>[number]>>): ReadonlyArray<AIModelMessage> => [...tool, { ...fields, role: 'user', content: c.flat() }])(content)
}

/**
 * Writes gssc messages as AI SDK `ModelMessage[]`, to pass as `messages` to `generateText` /
 * `streamText`. Exact inverse of {@link fromAISDK}; anything the SDK cannot take is an error
 * naming its path.
 *
 * @example
 * toAISDK([message('user', 'Hi')]) // Right([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }])
 * @category writers
 * @since 0.2.0
 */
export const toAISDK = (messages: ReadonlyArray<ChatMessage>): Dec<Array<AIModelMessage>> => flatEachAt(messages, 'messages', modelMessages)
