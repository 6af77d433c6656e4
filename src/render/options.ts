/**
 * Options shared by the provider renderers, the repair pass and the cost model.
 *
 * @module
 */
import type { Origin } from '../message.js'

/** The wire formats gssc renders chat messages to. */
export type Format = 'openai' | 'anthropic'

/** OpenAI image detail; `auto` is budgeted as `high` (the upper bound). */
export type ImageDetail = 'auto' | 'low' | 'high'

/**
 * What happens to reasoning that cannot be replayed to the target: `text` turns it into a
 * plain text part (pi's choice, the default), `drop` leaves it out.
 */
export type ThinkingPolicy = 'text' | 'drop'

/** Settings that change which content is sent, shared by both formats. */
export interface CommonOptions {
  /**
   * The model the request goes to. Thinking is replayed as thinking only to the provider and
   * model (and API, when both sides name one) that produced it; without a `target.model`
   * nothing counts as the same model.
   */
  readonly target?: Origin
  /** Reasoning that cannot be replayed: `text` (default) or `drop`. */
  readonly thinking?: ThinkingPolicy
}

/** Options of {@link toOpenAI} (see `./openai.ts`). */
export interface OpenAIOptions extends CommonOptions {
  /**
   * Send the target model's own thinking back as `reasoning_content` on its assistant
   * message (its non-empty thinking texts joined by a line break, as pi does), for
   * OpenAI-compatible reasoning providers that expect it (DeepSeek, Kimi). Default false:
   * the OpenAI API has no such field, and it is dropped.
   */
  readonly reasoningContent?: boolean
  /** Role of system messages: `system` (default) or `developer` (o1 and newer). */
  readonly systemRole?: 'system' | 'developer'
  /** `detail` of every image part; when absent the field is omitted (the API's `auto`). */
  readonly imageDetail?: ImageDetail
}

/** Where `cache_control` breakpoints go in an Anthropic request. */
export interface CacheOptions {
  /** Mark the last system block (the system prompt is the most stable prefix). */
  readonly system?: boolean
  /**
   * Index into the *input* messages: mark the last block of the longest output prefix made only
   * of content from input messages `0..prefixEnd`. Use it where the stable history ends.
   */
  readonly prefixEnd?: number
  /** Mark the last block of the request, so the next turn reads the whole conversation from cache (pi's choice). */
  readonly last?: boolean
  /**
   * The pipeline's renderer (`anthropicRenderer`): mark the end of the cache-stable prefix
   * (the instructions and the history, before the final user turn; see `docs/caching.md`).
   * It knows where that is and passes it on as `prefixEnd`; `toAnthropic` alone does not.
   */
  readonly stable?: boolean
  /** Cache lifetime; the API's default is `5m`. */
  readonly ttl?: '5m' | '1h'
}

/** Options of {@link toAnthropic} (see `./anthropic.ts`). */
export interface AnthropicOptions extends CommonOptions {
  /**
   * Breakpoints gssc adds (`false` or absent: none from `toAnthropic`; the pipeline's
   * `anthropicRenderer` defaults to `{ system: true, stable: true }` and takes `false` for none).
   * The caller's own breakpoints (a part's `cacheControl`) are always kept.
   */
  readonly cache?: CacheOptions | false
  /**
   * Text of the user turn inserted when the conversation would start with an assistant turn
   * (the API requires a user turn first). Default `(earlier conversation omitted)`.
   */
  readonly leadingUserText?: string
  /**
   * What to do when the conversation would start with an assistant turn: `userTurn` (the
   * default) inserts a user turn of `leadingUserText`; `drop` leaves out the turns before the
   * first user turn instead (an agent's own history, cut to a budget, then starts where one of
   * its exchanges starts, with no text the agent never sent), and inserts the user turn only
   * when there is no user turn at all.
   */
  readonly leadingAssistant?: 'userTurn' | 'drop'
  /**
   * The pipeline's Anthropic renderer: when nothing but the system prompt is left, add a user
   * turn of `leadingUserText` (the API needs at least one message). Default true; the chunk
   * builder, which returns neutral messages, turns it off.
   */
  readonly placeholderTurn?: boolean
}

/** Options of the repair pass: the format it prepares for, and that format's options. */
export type RepairOptions =
  | ({ readonly format: 'openai' } & OpenAIOptions)
  | ({ readonly format: 'anthropic' } & AnthropicOptions)

/** The default text of the synthetic first user turn in Anthropic requests. */
export const DEFAULT_LEADING_USER_TEXT = '(earlier conversation omitted)'

/** The text of the synthetic result for a tool call whose result is missing (pi's wording). */
export const SYNTHETIC_RESULT_TEXT = 'No result provided'
