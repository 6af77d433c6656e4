/**
 * gssc messages → OpenAI Chat Completions messages: the inverse of {@link fromOpenAIChat}, so
 * messages read from OpenAI come back exactly as they were (their `native` record restores the
 * fields gssc does not model and how the content was written).
 *
 * Messages from elsewhere are written the plain way: one text part as a string, several parts
 * as an array, a tool message per tool result (the results a user turn holds, as Anthropic
 * keeps them, go first). What Chat Completions cannot express — reasoning, images outside user
 * turns, images in tool results, an error flag on a result, a document given by URL or as
 * text — is an error naming `messages[i].parts[j]`, never dropped.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { toolCallArguments, type ChatMessage, type DocumentPart, type Part, type TextPart, type ToolResultPart } from '../message.js'
import { cannotWrite, eachAt, flatEachAt, fieldsOf, formOf, objOf, type Dec } from './decode.js'
import { dataUrl, urlOfImageSource } from './media.js'
import { OPENAI_CHAT } from './openaiChatIn.js'
import type {
  ChatAssistantMessage,
  ChatFilePart,
  ChatImagePart,
  ChatRefusalPart,
  ChatTextPart,
  ChatToolCall,
  ChatToolMessage,
  ChatUserMessage,
  OpenAIChatMessage,
} from './openaiChatWire.js'

const TARGET = 'an OpenAI Chat message'

const textPart = (p: TextPart): ChatTextPart => ({ ...fieldsOf(OPENAI_CHAT, p), type: 'text', text: p.text })

const refusalPart = (p: TextPart): ChatRefusalPart => ({ ...fieldsOf(OPENAI_CHAT, p), type: 'refusal', refusal: p.text })

const filePart = (p: DocumentPart, at: string): Dec<ChatFilePart> => {
  const s = p.source
  if (s._tag !== 'Base64' && s._tag !== 'FileId') return cannotWrite(at, `a document given as ${s._tag === 'Url' ? 'a URL' : 'text'}`, TARGET)
  const file = { ...objOf(formOf(OPENAI_CHAT, p)['file']), ...(s._tag === 'Base64' ? { file_data: dataUrl(s.mimeType, s.data) } : { file_id: s.id }), ...(p.name === undefined ? {} : { filename: p.name }) }
  return E.right({ ...fieldsOf(OPENAI_CHAT, p), type: 'file', file })
}

/** A string when the source wrote one (or, without a record, for a single text), else the parts. */
const stringOr = <P>(form: unknown, parts: ReadonlyArray<Part>, written: Array<P>): string | Array<P> => {
  const only = parts[0]
  const single = parts.length === 1 && only?._tag === 'Text' && only.refusal !== true && only.native?.form?.['field'] === undefined
  return single && (form === 'string' || form === undefined) ? (only as TextPart).text : written
}

const toolMessages = (m: ChatMessage, results: ReadonlyArray<readonly [ToolResultPart, number]>, at: string): Dec<Array<ChatToolMessage>> =>
  eachAt(results, at, ([r, j]) => {
    const path = `${at}.parts[${j}]`
    if (r.isError) return cannotWrite(`${path}.isError`, 'a tool result marked as an error', TARGET)
    const bad = r.content.findIndex((c) => c._tag !== 'Text')
    if (bad >= 0) return cannotWrite(`${path}.content[${bad}]`, 'an image in a tool result', TARGET)
    const texts = r.content as ReadonlyArray<TextPart>
    return E.right({ ...fieldsOf(OPENAI_CHAT, m), role: 'tool', tool_call_id: r.callId, content: stringOr(formOf(OPENAI_CHAT, m)['content'], texts, texts.map(textPart)) })
  })

const user = (m: ChatMessage, at: string): Dec<ChatUserMessage> => {
  const parts = m.parts.filter((p) => p._tag !== 'ToolResult')
  const written = eachAt(m.parts, `${at}.parts`, (part, path): Dec<ReadonlyArray<ChatTextPart | ChatImagePart | ChatFilePart>> => {
    if (part._tag === 'ToolResult') return E.right([]) // written before, as tool messages
    if (part._tag === 'Text') return E.right([textPart(part)])
    if (part._tag === 'Image') return E.right([{ ...fieldsOf(OPENAI_CHAT, part), type: 'image_url', image_url: { ...objOf(formOf(OPENAI_CHAT, part)['imageUrl']), url: urlOfImageSource(part.source) } } as ChatImagePart])
    if (part._tag === 'Document') return E.map((f: ChatFilePart) => [f])(filePart(part, path))
    return cannotWrite(path, `a ${part._tag} part in a user turn`, TARGET)
  })
  return E.map((w: ReadonlyArray<ReadonlyArray<ChatTextPart | ChatImagePart | ChatFilePart>>): ChatUserMessage => ({
    ...fieldsOf(OPENAI_CHAT, m),
    role: 'user',
    content: stringOr(formOf(OPENAI_CHAT, m)['content'], parts, w.flat()),
    ...(m.name === undefined ? {} : { name: m.name }),
  }))(written)
}

const assistant = (m: ChatMessage, at: string): Dec<ChatAssistantMessage> => {
  const form = formOf(OPENAI_CHAT, m)
  const body: Array<Part> = []
  const content: Array<ChatTextPart | ChatRefusalPart> = []
  const calls: Array<ChatToolCall> = []
  let refusal: string | undefined
  for (const [j, p] of m.parts.entries()) {
    if (p._tag === 'ToolCall') {
      const fn = { ...objOf(formOf(OPENAI_CHAT, p)['function']), name: p.name, arguments: toolCallArguments(p) }
      calls.push({ ...fieldsOf(OPENAI_CHAT, p), id: p.id, type: 'function', function: fn })
    } else if (p._tag === 'Text' && p.native?.form?.['field'] === 'refusal' && refusal === undefined) refusal = p.text
    else if (p._tag === 'Text') {
      body.push(p)
      content.push(p.refusal === true ? refusalPart(p) : textPart(p))
    } else return cannotWrite(`${at}.parts[${j}]`, `a ${p._tag} part in an assistant turn`, TARGET)
  }
  const written =
    body.length > 0
      ? stringOr(form['content'], body, content)
      : form['content'] === 'null'
        ? null
        : form['content'] === 'array'
          ? []
          : form['content'] === 'string' || (form['content'] === undefined && calls.length === 0 && refusal === undefined)
            ? ''
            : undefined
  return E.right({
    ...fieldsOf(OPENAI_CHAT, m),
    role: 'assistant',
    ...(written === undefined ? {} : { content: written }),
    ...(refusal !== undefined ? { refusal } : form['refusal'] === 'null' ? { refusal: null } : {}),
    ...(calls.length > 0 || form['toolCalls'] === 'empty' ? { tool_calls: calls } : {}),
    ...(m.name === undefined ? {} : { name: m.name }),
  })
}

const chatMessages = (m: ChatMessage, at: string): Dec<ReadonlyArray<OpenAIChatMessage>> => {
  const results = m.parts.flatMap((p, j): Array<readonly [ToolResultPart, number]> => (p._tag === 'ToolResult' ? [[p, j]] : []))
  if (m.role === 'system') {
    const bad = m.parts.findIndex((p) => p._tag !== 'Text' || p.refusal === true)
    if (bad >= 0) return cannotWrite(`${at}.parts[${bad}]`, `a ${m.parts[bad]!._tag} part in a system message`, TARGET)
    const texts = m.parts as ReadonlyArray<TextPart>
    const form = formOf(OPENAI_CHAT, m)
    return E.right([
      { ...fieldsOf(OPENAI_CHAT, m), role: form['role'] === 'developer' ? 'developer' : 'system', content: stringOr(form['content'], texts, texts.map(textPart)), ...(m.name === undefined ? {} : { name: m.name }) },
    ])
  }
  if (m.role === 'assistant') {
    const stray = results[0]
    return stray === undefined ? E.map((a: ChatAssistantMessage) => [a])(assistant(m, at)) : cannotWrite(`${at}.parts[${stray[1]}]`, 'a tool result in an assistant turn', TARGET)
  }
  if (m.role === 'tool') {
    const bad = m.parts.findIndex((p) => p._tag !== 'ToolResult')
    if (bad >= 0) return cannotWrite(`${at}.parts[${bad}]`, `a ${m.parts[bad]!._tag} part in a tool turn`, TARGET)
    return toolMessages(m, results, at)
  }
  // a user turn: its tool results (Anthropic keeps them there) go first, as tool messages
  const tools = toolMessages(m, results, at)
  if (E.isLeft(tools)) return tools
  if (results.length > 0 && results.length === m.parts.length) return tools
  return E.map((u: ChatUserMessage): ReadonlyArray<OpenAIChatMessage> => [...tools.right, u])(user(m, at))
}

/**
 * Writes gssc messages as OpenAI Chat Completions messages: a plain mutable array that
 * `client.chat.completions.create({ model, messages })` takes as it is. Exact inverse of
 * {@link fromOpenAIChat}; anything Chat Completions cannot express is an error naming its path.
 *
 * @example
 * const decoded = fromOpenAIChat(history)          // Right({ messages, … })
 * toOpenAIChat(decoded.right.messages)              // Right(history), deep-equal
 * @category writers
 * @since 0.2.0
 */
export const toOpenAIChat = (messages: ReadonlyArray<ChatMessage>): Dec<Array<OpenAIChatMessage>> =>
  flatEachAt(messages, 'messages', chatMessages)
