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
import { messageCost, REQUEST_OVERHEAD, type CostOptions } from './render/cost.js'
import { toOpenAI } from './render/openai.js'
import { message } from './message.js'
import { DEFAULT_LEADING_USER_TEXT, type AnthropicOptions, type OpenAIOptions } from './render/options.js'
import type { AnthropicRequest, OpenAIMessage } from './render/wire.js'
import { stableTurnCount, unitKey } from './report/prefix.js'
import { docToTurns, turnOf, type Turns } from './structure/messages.js'
import type { Document, Item, Section } from './structure/document.js'
import type { Counter } from './output.js'
import type { Finding } from './render/finding.js'

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
    return traced(r.messages, r.sources.map((i) => [i]), turns, r.findings)
  },
  count: (messages, counter) => countOpenAI(messages, counter),
  units: (messages, counter) => messages.map((m) => ({ key: unitKey(m), tokens: countOpenAI([m], counter) - REQUEST_OVERHEAD })),
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

/**
 * An output whose turns come from the given input turns: their packet ids, their spans, and
 * the repairs made to them, each named by the first packet of the turn it changed.
 */
const traced = <O>(output: O, from: ReadonlyArray<ReadonlyArray<number>>, turns: Turns, findings: ReadonlyArray<Finding>): Rendered<O> => ({
  output,
  sources: from.map((indices) => [...new Set(indices.flatMap((i) => turns.sources[i] ?? []))]),
  spans: turns.spans,
  findings: findings.map((f) => {
    const id = turns.sources[f.index]?.[0]
    return id === undefined ? f : { ...f, id }
  }),
})

/**
 * The renderer's breakpoints resolved for one document: `stable` becomes `prefixEnd` at the
 * last turn of the cache-stable prefix; by default (`cache` absent) the system prompt, when it
 * is stable, and that turn are marked.
 */
const stableCache = (options: AnthropicOptions, doc: Document, turns: Turns): AnthropicOptions => {
  if (options.cache === false) return options
  const n = stableTurnCount(doc, turns.sources)
  const stableSystem = n > 0 && turns.messages[0]?.role === 'system'
  const cache = options.cache ?? { system: stableSystem, stable: true }
  return cache.stable === true && n > 0 ? { ...options, cache: { ...cache, prefixEnd: n - 1 } } : { ...options, cache }
}

/**
 * An Anthropic Messages request body without model settings: `{ system, messages }`.
 * The API needs at least one user turn: when nothing but the system prompt fits (an empty
 * query and no history), the request carries the placeholder user turn
 * `options.leadingUserText` (default `(earlier conversation omitted)`).
 *
 * Prompt caching by default: `cache_control` on the last system block (when the system prompt
 * holds nothing volatile) and on the last block of the cache-stable prefix (the history, before
 * the final user turn that holds the question and the evidence), so the next request reads all
 * of it from the cache. `cache: false` adds none; `cache: { … }` adds exactly those asked for
 * (`stable: true` for the stable boundary). A breakpoint the caller's messages carry is kept;
 * at most 4 in all (see `docs/caching.md`).
 *
 * @example
 * build(request, { renderer: anthropicRenderer({ cache: { system: true, stable: true, ttl: '1h' } }) })
 * @category constructors
 * @since 0.1.0
 */
export const anthropicRenderer = (options: AnthropicOptions = {}): Renderer<AnthropicRequest> => ({
  format: 'anthropic',
  shape: 'messages',
  render: (doc) => {
    const turns = docToTurns(doc)
    const resolved = stableCache(options, doc, turns)
    const first = toAnthropic(turns.messages, resolved)
    // decided after repair: empty or failed turns are dropped there
    const r =
      first.request.messages.length > 0 || options.placeholderTurn === false
        ? first
        : toAnthropic([...turns.messages, message('user', options.leadingUserText ?? DEFAULT_LEADING_USER_TEXT)], resolved)
    return traced(r.request, r.sources, turns, r.findings)
  },
  count: (request, counter) => countAnthropic(request, counter),
  // the system prompt is one unit, then each turn: the order the API reads them
  units: (request, counter) => [
    ...(request.system === undefined ? [] : [{ key: unitKey(request.system), tokens: countAnthropic({ system: request.system, messages: [] }, counter) - REQUEST_OVERHEAD }]),
    ...request.messages.map((m) => ({ key: unitKey(m), tokens: countAnthropic({ messages: [m] }, counter) - REQUEST_OVERHEAD })),
  ],
  cost: chatCost({ format: 'anthropic' }),
})
