/**
 * Neutral chat messages → OpenAI Chat Completions `messages`.
 *
 * The conversation is repaired first (`./repair.ts`), so the output always satisfies
 * {@link checkOpenAI}. Mapping:
 *
 * | neutral | OpenAI |
 * | --- | --- |
 * | `system` | `system` (or `developer`, option `systemRole`) |
 * | `user` text / image | `user` string, or `text` / `image_url` parts (base64 as a data URL) |
 * | `assistant` text / tool calls | `content` (left out when only tools are called) and `tool_calls` with JSON **string** `arguments` |
 * | `tool` result | one `tool` message per result, text only; images from results follow the block of tool messages in a `user` message "Attached image(s) from tool result:" (pi's layout; a user message in between would break the call/result rule) |
 * | thinking | the target model's own: dropped, or with option `reasoningContent` sent as the message's `reasoning_content` (DeepSeek, Kimi); another model's: plain text (option `thinking: 'drop'` drops it) |
 *
 * A message with one text part has string content; with several, an array of text parts (each
 * part stays its own piece, which keeps token accounting exact; see `./cost.ts`).
 *
 * @module
 */
import { match, P } from 'ts-pattern'
import { toolCallArguments, type ChatMessage, type ImagePart, type TextPart, type ToolResultPart } from '../message.js'
import type { Finding } from './finding.js'
import type { OpenAIOptions } from './options.js'
import { repair } from './repair.js'
import type { OpenAIImagePart, OpenAIMessage, OpenAITextPart, OpenAIToolCall, OpenAIUserMessage } from './wire.js'

/** What {@link toOpenAI} returns: the messages to send, and the repairs made. */
export interface OpenAIRendered {
  readonly messages: Array<OpenAIMessage>
  readonly findings: ReadonlyArray<Finding>
  /** For each output message, the index of the input message it comes from (provenance). */
  readonly sources: ReadonlyArray<number>
}

/** Tool message text when a result has only images (pi's wording). */
export const SEE_ATTACHED_IMAGE = '(see attached image)'
/** First part of the user message that carries images returned by tools (pi's wording). */
export const ATTACHED_IMAGES = 'Attached image(s) from tool result:'

/** @internal */
export const openAIImage = (p: ImagePart, options: OpenAIOptions): OpenAIImagePart => ({
  type: 'image_url',
  image_url: {
    url: p.source._tag === 'Base64' ? `data:${p.source.mimeType};base64,${p.source.data}` : p.source.url,
    ...(options.imageDetail === undefined ? {} : { detail: options.imageDetail }),
  },
})

const text = (p: TextPart): OpenAITextPart => ({ type: 'text', text: p.text })

const textContent = (parts: ReadonlyArray<TextPart>): string | Array<OpenAITextPart> =>
  parts.length === 1 ? parts[0]!.text : parts.map(text)

const texts = (parts: ReadonlyArray<{ readonly _tag: string }>): ReadonlyArray<TextPart> =>
  parts.filter((p): p is TextPart => p._tag === 'Text')

const images = (parts: ReadonlyArray<{ readonly _tag: string }>): ReadonlyArray<ImagePart> =>
  parts.filter((p): p is ImagePart => p._tag === 'Image')

const named = (m: ChatMessage): { readonly name?: string } => (m.name === undefined ? {} : { name: m.name })

const toolMessage = (r: ToolResultPart): OpenAIMessage => {
  const t = texts(r.content)
  return {
    role: 'tool',
    tool_call_id: r.callId,
    content: t.length > 0 ? textContent(t) : images(r.content).length > 0 ? SEE_ATTACHED_IMAGE : '',
  }
}

/** One repaired message → its OpenAI message (tool results: without their images). */
const render = (m: ChatMessage, options: OpenAIOptions): OpenAIMessage =>
  match(m.role)
    .with('system', (): OpenAIMessage => {
      const body = { content: textContent(texts(m.parts)), ...named(m) }
      return options.systemRole === 'developer' ? { role: 'developer', ...body } : { role: 'system', ...body }
    })
    .with('user', (): OpenAIMessage => {
      const only = m.parts[0]
      return {
        role: 'user',
        content:
          m.parts.length === 1 && only?._tag === 'Text'
            ? only.text
            : m.parts.flatMap((p): Array<OpenAITextPart | OpenAIImagePart> =>
                match(p)
                  .with({ _tag: 'Text' }, (t) => [text(t)])
                  .with({ _tag: 'Image' }, (i) => [openAIImage(i, options)])
                  // cleaning left a user turn only text and images, and reported the rest
                  .with({ _tag: P.union('Document', 'Thinking', 'ToolCall', 'ToolResult') }, () => [])
                  .exhaustive(),
              ),
        ...named(m),
      }
    })
    .with('assistant', (): OpenAIMessage => {
      const t = texts(m.parts)
      const calls = m.parts.flatMap((p): Array<OpenAIToolCall> =>
        p._tag === 'ToolCall' ? [{ id: p.id, type: 'function', function: { name: p.name, arguments: toolCallArguments(p) } }] : [],
      )
      // only the target's own thinking is left here, and only with `reasoningContent` (see repair)
      const reasoning = m.parts.flatMap((p) => (p._tag === 'Thinking' ? [p.text] : []))
      return {
        role: 'assistant',
        ...(t.length > 0 ? { content: textContent(t) } : {}),
        ...(reasoning.length > 0 ? { reasoning_content: reasoning.join('\n') } : {}),
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
        ...named(m),
      }
    })
    .with('tool', () => toolMessage(m.parts.find((p): p is ToolResultPart => p._tag === 'ToolResult')!))
    .exhaustive()

/**
 * Renders neutral messages as OpenAI Chat Completions messages, repairing what the API would
 * reject. The input is not mutated.
 *
 * @example
 * const { messages, findings } = toOpenAI([message('system', 'Be brief.'), message('user', 'Hi')])
 * await openai.chat.completions.create({ model: 'gpt-4o', messages })
 * @category renderers
 * @since 0.1.0
 */
export const toOpenAI = (messages: ReadonlyArray<ChatMessage>, options: OpenAIOptions = {}): OpenAIRendered => {
  const repaired = repair(messages, { ...options, format: 'openai' })
  const out: Array<OpenAIMessage> = []
  const sources: Array<number> = []
  // images returned by tools wait until the block of tool messages ends
  let pending: Array<readonly [OpenAIUserMessage, number]> = []
  const flush = (): void => {
    for (const [m, source] of pending) {
      out.push(m)
      sources.push(source)
    }
    pending = []
  }
  repaired.messages.forEach((m, i) => {
    const source = repaired.sources[i]!
    if (m.role !== 'tool') flush()
    out.push(render(m, options))
    sources.push(source)
    if (m.role === 'tool') {
      const attached = m.parts.flatMap((p) => (p._tag === 'ToolResult' ? images(p.content) : []))
      if (attached.length > 0)
        pending.push([{ role: 'user', content: [{ type: 'text', text: ATTACHED_IMAGES }, ...attached.map((p) => openAIImage(p, options))] }, source])
    }
  })
  flush()
  return { messages: out, findings: repaired.findings, sources }
}
