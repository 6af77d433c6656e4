/**
 * Token costs of chat messages, with per-message overhead, so a budget can be filled before
 * anything is rendered.
 *
 * **OpenAI** (the OpenAI cookbook's rule for chat models): every message costs 3 tokens plus
 * the tokens of its role and content; a `name` adds 1 plus its tokens; every request adds 3 to
 * prime the reply. The cookbook does not cover tool calls, tool results or images, so gssc
 * charges: a tool call 3 + id + name + arguments JSON; a tool message its `tool_call_id` and
 * content; an image the provider's published vision rule (`./imageTokens.ts`). Text parts are
 * counted one by one, never concatenated.
 *
 * **Anthropic** publishes no per-message figure. gssc charges 3 tokens per content block plus
 * its content (text; image rule; tool_use id + name + input JSON; tool_result id + content;
 * thinking text), the same for each system block, and 3 per request. Charging per block rather
 * than per turn makes merging consecutive turns (which alternation requires) cost-neutral, and
 * is never less than a per-turn charge, since every turn has at least one block.
 *
 * **The accounting law** (property-tested): for any input, with `r = repair(input, options)`,
 * `countOpenAI(toOpenAI(input).messages)` equals `REQUEST_OVERHEAD + Σ messageCost(m)` over
 * `r.messages`, exactly; the same holds for Anthropic. On messages that were not repaired,
 * `messageCost` is exact when repair would change nothing, and otherwise charges dropped
 * content as if kept, so it does not undercount what repair removes; what repair *adds*
 * (synthetic results, the leading user turn, rewritten ids) is only in the repaired messages.
 * Counts use the tokenizer you pass; Claude's tokenizer is not public (see `createTokenizer`).
 *
 * @module
 */
import { match } from 'ts-pattern'
import { toolCallArguments, type ChatMessage, type ImagePart, type Part, type Role, type TextPart, type ToolResultPart } from '../message.js'
import { redactedData } from './clean.js'
import { anthropicImageTokens, openAIImageTokens, sourceSize } from './imageTokens.js'
import { ATTACHED_IMAGES, SEE_ATTACHED_IMAGE } from './openai.js'
import type { Format, ImageDetail } from './options.js'

/** Anything that counts tokens: a `Tokenizer`, or `{ count: meter.text }` to share a build's meter. */
export interface Counter {
  readonly count: (text: string) => number
}

/** What the cost of a message depends on. */
export interface CostOptions {
  readonly format: Format
  /** OpenAI: the role system messages are sent with. Default `system`. */
  readonly systemRole?: 'system' | 'developer'
  /** OpenAI: the image detail requested. */
  readonly imageDetail?: ImageDetail
}

/** Tokens every request adds (OpenAI: priming the reply). */
export const REQUEST_OVERHEAD = 3
/** OpenAI: tokens every message adds. */
export const OPENAI_MESSAGE_OVERHEAD = 3
/** OpenAI: tokens a `name` adds besides its own. */
export const OPENAI_NAME_OVERHEAD = 1
/** Tokens a tool call adds besides its id, name and arguments. */
export const TOOL_CALL_OVERHEAD = 3
/** Anthropic: tokens every content block (and system block) adds. */
export const ANTHROPIC_BLOCK_OVERHEAD = 3

/**
 * The fixed cost of a request, whatever its messages.
 *
 * @category utils
 * @since 0.1.0
 */
export const requestOverhead = (_format: Format): number => REQUEST_OVERHEAD

const texts = (r: ToolResultPart): ReadonlyArray<TextPart> => r.content.filter((c): c is TextPart => c._tag === 'Text')
const images = (r: ToolResultPart): ReadonlyArray<ImagePart> => r.content.filter((c): c is ImagePart => c._tag === 'Image')

const openAIMessageBase = (role: string, name: string | undefined, c: Counter): number =>
  OPENAI_MESSAGE_OVERHEAD + c.count(role) + (name === undefined ? 0 : OPENAI_NAME_OVERHEAD + c.count(name))

/** A tool message, plus the user message that carries the result's images, if any. */
const openAIToolResult = (r: ToolResultPart, c: Counter, detail: ImageDetail | undefined): number => {
  const t = texts(r)
  const imgs = images(r)
  const body = t.length > 0 ? t.reduce((s, p) => s + c.count(p.text), 0) : imgs.length > 0 ? c.count(SEE_ATTACHED_IMAGE) : 0
  const attached =
    imgs.length === 0
      ? 0
      : openAIMessageBase('user', undefined, c) + c.count(ATTACHED_IMAGES) + imgs.reduce((s, p) => s + openAIImageTokens(sourceSize(p.source), detail), 0)
  return openAIMessageBase('tool', undefined, c) + c.count(r.callId) + body + attached
}

const openAIPart = (p: Part, c: Counter, detail: ImageDetail | undefined): number =>
  match(p)
    .with({ _tag: 'Text' }, (t) => c.count(t.text))
    .with({ _tag: 'Image' }, (i) => openAIImageTokens(sourceSize(i.source), detail))
    // repair drops documents (DroppedDocument)
    .with({ _tag: 'Document' }, () => 0)
    // repair drops or converts thinking for OpenAI; as text it would cost this much
    .with({ _tag: 'Thinking' }, (t) => (t.redacted === true ? 0 : c.count(t.text)))
    .with({ _tag: 'ToolCall' }, (t) => TOOL_CALL_OVERHEAD + c.count(t.id) + c.count(t.name) + c.count(toolCallArguments(t)))
    // a result always becomes a tool message of its own
    .with({ _tag: 'ToolResult' }, (r) => openAIToolResult(r, c, detail))
    .exhaustive()

const anthropicInner = (p: TextPart | ImagePart, c: Counter): number =>
  p._tag === 'Text' ? c.count(p.text) : anthropicImageTokens(sourceSize(p.source))

const anthropicPart = (p: Part, c: Counter): number => {
  const body = anthropicBody(p, c)
  return body === undefined ? 0 : ANTHROPIC_BLOCK_OVERHEAD + body
}

/** A part's block without its overhead; undefined when it makes no block. */
const anthropicBody = (p: Part, c: Counter): number | undefined =>
  match(p)
    .with({ _tag: 'Text' }, (t) => c.count(t.text))
    .with({ _tag: 'Image' }, (i) => anthropicImageTokens(sourceSize(i.source)))
    .with({ _tag: 'Document' }, () => undefined) // dropped by repair
    .with({ _tag: 'Thinking' }, (t) => c.count(t.redacted === true ? redactedData(t) : t.text))
    .with({ _tag: 'ToolCall' }, (t) => c.count(t.id) + c.count(t.name) + c.count(JSON.stringify(t.args)))
    .with({ _tag: 'ToolResult' }, (r) => c.count(r.callId) + r.content.reduce((s, x) => s + anthropicInner(x, c), 0))
    .exhaustive()

/**
 * The tokens one part adds to its message in a format (an OpenAI tool result: its whole tool
 * message, which has no other parts).
 *
 * @category utils
 * @since 0.1.0
 */
export const partCost = (p: Part, counter: Counter, options: CostOptions): number =>
  options.format === 'anthropic' ? anthropicPart(p, counter) : openAIPart(p, counter, options.imageDetail)

/**
 * The tokens a message adds besides its parts: OpenAI 3 + role (+ 1 + name); Anthropic 0,
 * since its blocks carry the overhead; OpenAI tool messages 0, since their result part does.
 *
 * @category utils
 * @since 0.1.0
 */
export const messageOverhead = (role: Role, name: string | undefined, counter: Counter, options: CostOptions): number =>
  options.format === 'anthropic' || role === 'tool' ? 0 : openAIMessageBase(role === 'system' ? (options.systemRole ?? 'system') : role, name, counter)

/**
 * The tokens one neutral message adds to a request in a format (see the module comment for
 * the figures): its overhead plus its parts. Exact on repaired messages.
 *
 * @example
 * messageCost(message('user', 'Hello'), tokenizer) // OpenAI: 3 + 1 ('user') + 1 ('Hello') = 5
 * @category utils
 * @since 0.1.0
 */
export const messageCost = (m: ChatMessage, counter: Counter, options: CostOptions = { format: 'openai' }): number =>
  m.parts.reduce((s, p) => s + partCost(p, counter, options), messageOverhead(m.role, m.name, counter, options))

/**
 * The total of a whole conversation: request overhead plus every message's cost.
 *
 * @category utils
 * @since 0.1.0
 */
export const conversationCost = (messages: ReadonlyArray<ChatMessage>, counter: Counter, options: CostOptions): number =>
  messages.reduce((s, m) => s + messageCost(m, counter, options), requestOverhead(options.format))
