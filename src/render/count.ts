/**
 * Token counts of rendered requests, read from the wire format itself (see `./cost.ts` for
 * the figures). Each text is counted once, on its own.
 *
 * @module
 */
import { match } from 'ts-pattern'
import { anthropicImageTokens, openAIImageTokens, parseDataUrl } from './imageTokens.js'
import { imageSize } from './imageSize.js'
import {
  ANTHROPIC_BLOCK_OVERHEAD,
  OPENAI_MESSAGE_OVERHEAD,
  OPENAI_NAME_OVERHEAD,
  REQUEST_OVERHEAD,
  TOOL_CALL_OVERHEAD,
  type Counter,
} from './cost.js'
import type { AnthropicBlock, AnthropicImageBlock, AnthropicRequest, OpenAIImagePart, OpenAIMessage, OpenAITextPart } from './wire.js'

const openAIImage = (p: OpenAIImagePart): number => {
  const inline = parseDataUrl(p.image_url.url)
  return openAIImageTokens(inline === undefined ? undefined : imageSize(inline.data), p.image_url.detail)
}

const openAIContent = (content: string | ReadonlyArray<OpenAITextPart | OpenAIImagePart> | undefined | null, c: Counter): number =>
  // the SDK's `content: null` (an assistant turn of tool calls only) counts nothing
  content === undefined || content === null
    ? 0
    : typeof content === 'string'
      ? c.count(content)
      : content.reduce((s, p) => s + (p.type === 'text' ? c.count(p.text) : openAIImage(p)), 0)

/**
 * Tokens of an OpenAI Chat Completions request's messages, reply priming included.
 *
 * @example
 * countOpenAI(toOpenAI(history).messages, tokenizer)
 * @category utils
 * @since 0.1.0
 */
export const countOpenAI = (messages: ReadonlyArray<OpenAIMessage>, counter: Counter): number =>
  messages.reduce((total, m) => {
    let n = OPENAI_MESSAGE_OVERHEAD + counter.count(m.role) + openAIContent(m.content, counter)
    if ('name' in m && m.name !== undefined) n += OPENAI_NAME_OVERHEAD + counter.count(m.name)
    if (m.role === 'tool') n += counter.count(m.tool_call_id)
    if (m.role === 'assistant' && m.reasoning_content !== undefined) n += counter.count(m.reasoning_content)
    if (m.role === 'assistant')
      for (const call of m.tool_calls ?? [])
        n += TOOL_CALL_OVERHEAD + counter.count(call.id) + counter.count(call.function.name) + counter.count(call.function.arguments)
    return total + n
  }, REQUEST_OVERHEAD)

const anthropicImage = (b: AnthropicImageBlock): number =>
  anthropicImageTokens(b.source.type === 'base64' ? imageSize(b.source.data) : undefined)

const anthropicBlock = (b: AnthropicBlock, c: Counter): number =>
  ANTHROPIC_BLOCK_OVERHEAD +
  match(b)
    .with({ type: 'text' }, (x) => c.count(x.text))
    .with({ type: 'image' }, anthropicImage)
    .with({ type: 'tool_use' }, (x) => c.count(x.id) + c.count(x.name) + c.count(JSON.stringify(x.input)))
    .with({ type: 'tool_result' }, (x) =>
      (x.content ?? []).reduce((s, y) => s + (y.type === 'text' ? c.count(y.text) : anthropicImage(y)), c.count(x.tool_use_id)),
    )
    .with({ type: 'thinking' }, (x) => c.count(x.thinking))
    .with({ type: 'redacted_thinking' }, (x) => c.count(x.data))
    .exhaustive()

/**
 * Tokens of an Anthropic request body: system blocks and every content block.
 *
 * @example
 * countAnthropic(toAnthropic(history).request, tokenizer)
 * @category utils
 * @since 0.1.0
 */
export const countAnthropic = (request: AnthropicRequest, counter: Counter): number =>
  (request.system ?? []).reduce((s, b) => s + anthropicBlock(b, counter), REQUEST_OVERHEAD) +
  request.messages.reduce((s, m) => {
    const blocks: ReadonlyArray<AnthropicBlock> = m.content
    return blocks.reduce((t, b) => t + anthropicBlock(b, counter), s)
  }, 0)
