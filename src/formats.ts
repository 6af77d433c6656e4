/**
 * The chat-message renderers of the pipeline: a document as an OpenAI messages array or an
 * Anthropic request, with the provider rules enforced (`toOpenAI` / `toAnthropic` repair
 * tool pairing and alternation) and counted with per-message overhead, so the build's
 * `tokenCount` is the count of exactly what you send.
 *
 * @module
 */
import { textCost, type Rendered, type Renderer } from './output.js'
import { toAnthropic } from './render/anthropic.js'
import { countAnthropic, countOpenAI } from './render/count.js'
import { messageCost, type CostOptions } from './render/cost.js'
import { toOpenAI } from './render/openai.js'
import { message } from './message.js'
import { DEFAULT_LEADING_USER_TEXT, type AnthropicOptions, type OpenAIOptions } from './render/options.js'
import type { AnthropicRequest, OpenAIMessage } from './render/wire.js'
import { docToTurns, turnOf, type Turns } from './structure/messages.js'
import type { Item, Section } from './structure/document.js'
import type { Counter } from './output.js'

/**
 * OpenAI Chat Completions messages (`output` is the `messages` array you send).
 *
 * @example
 * build(request, { renderer: openaiRenderer() })
 * @category constructors
 * @since 0.1.0
 */
export const openaiRenderer = (options: OpenAIOptions = {}): Renderer<Array<OpenAIMessage>> => ({
  format: 'openai',
  shape: 'messages',
  render: (doc) => {
    const turns = docToTurns(doc)
    const r = toOpenAI(turns.messages, options)
    return traced(r.messages, r.sources.map((i) => [i]), turns)
  },
  count: (messages, counter) => countOpenAI(messages, counter),
  cost: chatCost({ format: 'openai', ...(options.systemRole === undefined ? {} : { systemRole: options.systemRole }), ...(options.imageDetail === undefined ? {} : { imageDetail: options.imageDetail }) }),
})

/**
 * What an item adds to a chat request: a turn is a whole message (its overhead and every
 * part); an item of the system prompt or of the final user turn adds its text to that one
 * message.
 */
const chatCost =
  (options: CostOptions) =>
  (item: Item, section: Section, counter: Counter): number =>
    section.channel === 'turns' ? messageCost(turnOf(item), counter, options) : textCost(item, section, counter)

/** An output whose turns come from the given input turns: their packet ids, and their spans. */
const traced = <O>(output: O, from: ReadonlyArray<ReadonlyArray<number>>, turns: Turns): Rendered<O> => ({
  output,
  sources: from.map((indices) => [...new Set(indices.flatMap((i) => turns.sources[i] ?? []))]),
  spans: turns.spans,
})

/**
 * An Anthropic Messages request body without model settings: `{ system, messages }`.
 * The API needs at least one user turn: when nothing but the system prompt fits (an empty
 * query and no history), the request carries the placeholder user turn
 * `options.leadingUserText` (default `(earlier conversation omitted)`).
 *
 * @example
 * build(request, { renderer: anthropicRenderer({ cache: { system: true } }) })
 * @category constructors
 * @since 0.1.0
 */
export const anthropicRenderer = (options: AnthropicOptions = {}): Renderer<AnthropicRequest> => ({
  format: 'anthropic',
  shape: 'messages',
  render: (doc) => {
    const turns = docToTurns(doc)
    const first = toAnthropic(turns.messages, options)
    // decided after repair: empty or failed turns are dropped there
    const r =
      first.request.messages.length > 0 || options.placeholderTurn === false
        ? first
        : toAnthropic([...turns.messages, message('user', options.leadingUserText ?? DEFAULT_LEADING_USER_TEXT)], options)
    return traced(r.request, r.sources, turns)
  },
  count: (request, counter) => countAnthropic(request, counter),
  cost: chatCost({ format: 'anthropic' }),
})
