/**
 * The everyday job in one call: the messages an app already holds, fitted to a budget, in
 * the shape they came in.
 *
 * ```ts
 * const { messages, tokenCount, dropped } = await fitMessages(history, { model: 'gpt-4o', maxTokens: 8000, reserve: 1000, tools })
 * await openai.chat.completions.create({ model: 'gpt-4o', messages, tools })
 * ```
 *
 * It is the pipeline, configured once: the messages become the history (read losslessly by
 * the shape's adapter; what gssc cannot carry is an error naming its index), the layout adds
 * nothing (`chat()`), the conversation's own system prompt is kept first, the newest turns
 * are kept, a tool call and all its results are one unit (never orphaned), an oversized item
 * is cut by its content's compressor, else to head and tail (`maxItemShare`), and the chosen strategy (truncate, compress,
 * smart) fits the rest through the one fitting engine. Tool definitions are counted first
 * (OpenAI function tools by the cookbook's rule; Anthropic tools estimated and flagged).
 * The messages come back in the input's shape, untouched unless cut or summarized, with the
 * exact count and every dropped or cut message by its index and reason.
 *
 * Prompt caching: the result's `prefix` fingerprints what was sent (the tool definitions,
 * then each message); given the previous call's result as `previous`, `prefix.identical`
 * says how many of its tokens that call already sent. With `breakpoints` (Anthropic messages),
 * `cache_control` breakpoints go on the last block and on the system prompt, within the
 * API's 4 (see `docs/caching.md`).
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { Shape, Source } from '../adapters/shape.js'
import { noop } from '../compress/noop.js'
import { describeThrown, inputError, type GsscError } from '../error.js'
import type { ContentCut, Exclusion } from '../phase.js'
import type { CacheControl } from '../message.js'
import { contentId } from '../packet.js'
import { build } from '../pipeline.js'
import { toPromise } from '../promise.js'
import { toolsCost, type ToolsCost } from '../render/toolCost.js'
import type { PartRef } from '../render/breakpoints.js'
import type { BuildResult } from '../report.js'
import { fingerprintOf, prefixReport, previousProblem, unitKey, type PrefixReport, type Previous } from '../report/prefix.js'
import { layoutAware } from '../select/layoutAware.js'
import { historyCompressor } from '../session/compressor.js'
import type { Summarizer } from '../session/fit/model.js'
import { historyStrategy, type StrategyName } from '../session/fit/strategy.js'
import { chat } from '../structure/chat.js'
import type { TokenCache } from '../tokenize/cache.js'
import { createTokenizer, type Tokenizer } from '../tokenize/tokenizer.js'
import { readShape } from './codecs.js'
import { passthrough } from './passthrough.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Options of {@link fitMessages}. */
export interface FitMessagesOptions {
  /** The model the messages are for; picks the tokenizer (default `gpt-4o`). */
  readonly model?: string
  /** Counts tokens instead of the model's tokenizer. */
  readonly tokenizer?: Tokenizer
  /** The whole window the request may use: messages, tool definitions and the reserve. */
  readonly maxTokens: number
  /** Tokens kept free for the answer. Default 0. */
  readonly reserve?: number
  /** The tool definitions sent with the request, counted against the budget. */
  readonly tools?: unknown
  /** How the history gives way: `truncate` (default; oldest first), `compress` (older turns summarized), `smart`. */
  readonly strategy?: StrategyName
  /** Writes summaries for `compress` and `smart` (default: the offline extractive summarizer). */
  readonly summarizer?: Summarizer
  /** At most this many recent turns are kept verbatim. */
  readonly keepRecentCount?: number
  /** The messages' shape; default: detected. */
  readonly shape?: Shape
  /** The per-item cap as a share of the budget (default 0.25; 1: off). */
  readonly maxItemShare?: number
  /** A token-count cache shared across calls (`createTokenCache()`): an agent loop fitting each step counts each message once. */
  readonly cache?: TokenCache
  /**
   * Anthropic messages only: place prompt-cache breakpoints (`cache_control`) on the last
   * block and the system prompt's last block, keeping the caller's own, at most 4 in all
   * with those in `tools`; `{ ttl: '1h' }` for the longer lifetime. Default: none added.
   */
  readonly breakpoints?: boolean | { readonly ttl?: '5m' | '1h' }
  /** The previous call's result (or its `prefix`): `prefix.identical` then says what it already sent. */
  readonly previous?: Previous
}

/** Where the `breakpoints` option placed them (`message`: in the order of the result's `sources`), and the caller's it left out. */
export interface FitBreakpoints {
  readonly added: ReadonlyArray<PartRef>
  /** The caller's own beyond the API's 4 (with those in the tools), the earliest ones. */
  readonly dropped: ReadonlyArray<PartRef>
}

/** Where a message was in the input: its index (`through`: the last index of a range), or Anthropic's `system`. */
export interface InputPlace {
  readonly index: Source
  readonly through?: number
}

/** A message left out, and why: an exclusion of the one vocabulary, by its place in the input instead of its packet id. */
export interface DroppedMessage extends InputPlace, Omit<Exclusion, 'id'> {}

/** A message whose text was cut. */
export interface CutMessage extends InputPlace {
  readonly keptTokens: number
  readonly originalTokens: number
  /** When the per-item cap cut it: what was taken out of each text, knowing its kind (JSON items, folded log lines, code bodies…). */
  readonly content?: ReadonlyArray<ContentCut>
}

/** What {@link fitMessages} returns. */
export interface FitMessagesResult<T = unknown> {
  /** The fitted messages, in the input's shape. */
  readonly messages: T
  readonly shape: Shape
  /** Tokens of the messages and the tool definitions; never more than `maxTokens − reserve`. */
  readonly tokenCount: number
  /** False when the tokenizer only approximates the model's, or the tools' cost is an estimate. */
  readonly tokenCountExact: boolean
  readonly budget: { readonly maxTokens: number; readonly reserve: number; readonly tools: ToolsCost; readonly available: number }
  /** For each returned message, where it was in the input (`undefined`: written by gssc, a summary). */
  readonly sources: ReadonlyArray<Source | undefined>
  readonly dropped: ReadonlyArray<DroppedMessage>
  readonly cut: ReadonlyArray<CutMessage>
  /**
   * The request's cache-stable prefix: the tool definitions, then every returned message (the
   * next call starts with all of them). Pass the result as the next call's `previous`.
   */
  readonly prefix: PrefixReport
  /** With the `breakpoints` option: where they were placed. */
  readonly breakpoints?: FitBreakpoints
  /** The build behind it: explain it with `gssc/inspect`. */
  readonly report: BuildResult<T>
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const HISTORY_ID = /^history:(\d+)(?:\.\.(\d+))?$/

/** A history packet id (`history:3`, `history:0..49`) as places in the input. */
const placeOf = (id: string, sources: ReadonlyArray<Source>): InputPlace | undefined => {
  const m = HISTORY_ID.exec(id)
  if (m === null) return undefined
  const from = sources[Number(m[1])]
  const to = m[2] === undefined ? undefined : sources[Number(m[2])]
  if (from === undefined) return undefined
  return to === undefined || to === from ? { index: from } : { index: from, through: to as number }
}

/** Adjacent places of one reason and detail, as one range; the report of a long history stays short. */
const coalesce = (dropped: ReadonlyArray<DroppedMessage>): ReadonlyArray<DroppedMessage> => {
  const out: DroppedMessage[] = []
  for (const d of dropped) {
    const last = out[out.length - 1]
    const end = last === undefined ? undefined : (last.through ?? last.index)
    if (last !== undefined && typeof end === 'number' && typeof d.index === 'number' && d.index === end + 1 && d.reason === last.reason && d.detail === last.detail)
      out[out.length - 1] = { ...last, through: d.through ?? d.index }
    else out.push(d)
  }
  return out
}

/**
 * Anthropic's turns open on a user turn: when none can within the budget, only the system
 * prompt is left, which the API refuses. Said as an error rather than sent.
 */
const opensOnUser = <T>(r: FitMessagesResult<T>): E.Either<GsscError, FitMessagesResult<T>> =>
  r.shape === 'anthropic' && r.sources.every((s) => s === 'system') && r.dropped.some((d) => typeof d.index === 'number')
    ? E.left(inputError('maxTokens', `${r.budget.maxTokens} leaves no room for a user turn to open the conversation (Anthropic's rule; in a tool loop every later user turn is a tool_result, which cannot): raise it, or use strategy 'compress'`))
    : E.right(r)

const first = (p: InputPlace): number => (typeof p.index === 'number' ? p.index : -1)

const positiveInt = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v > 0

/** The lifetimes of the breakpoints tool definitions carry (Anthropic's `cache_control` on a tool). */
const toolBreakpoints = (tools: unknown): ReadonlyArray<string> =>
  Array.isArray(tools)
    ? tools.flatMap((t: unknown) => {
        const c = typeof t === 'object' && t !== null ? (t as { cache_control?: unknown }).cache_control : undefined
        return typeof c === 'object' && c !== null ? [(c as { ttl?: unknown }).ttl === '1h' ? '1h' : '5m'] : []
      })
    : []

/** The `breakpoints` option as a breakpoint's control, or what is wrong with it. */
const cacheControlOf = (cache: FitMessagesOptions['breakpoints']): CacheControl | undefined | string => {
  if (cache === undefined || cache === false) return undefined
  if (cache === true) return { type: 'ephemeral' }
  if (typeof cache !== 'object' || cache === null) return `must be true, false or { ttl } (got ${String(cache)})`
  if (cache.ttl !== undefined && cache.ttl !== '5m' && cache.ttl !== '1h') return `ttl must be '5m' or '1h' (got ${String(cache.ttl)})`
  return { type: 'ephemeral', ...(cache.ttl === undefined ? {} : { ttl: cache.ttl }) }
}

// -------------------------------------------------------------------------------------
// the everyday job
// -------------------------------------------------------------------------------------

/**
 * {@link fitMessages} as a `TaskEither`, for fp-ts pipelines.
 *
 * @category fit
 * @since 0.2.0
 */
export const fitMessagesTE = <T = unknown>(messages: T, options: FitMessagesOptions): TE.TaskEither<GsscError, FitMessagesResult<T>> => {
  if (typeof options !== 'object' || options === null) return TE.left(inputError('options', 'must be an object with maxTokens'))
  if (!positiveInt(options.maxTokens)) return TE.left(inputError('maxTokens', `must be a positive integer (got ${String(options.maxTokens)})`))
  const reserve = options.reserve ?? 0
  if (!(Number.isSafeInteger(reserve) && reserve >= 0)) return TE.left(inputError('reserve', `must be a non-negative integer (got ${String(reserve)})`))
  const control = cacheControlOf(options.breakpoints)
  if (typeof control === 'string') return TE.left(inputError('breakpoints', control))
  const badPrevious = options.previous === undefined ? undefined : previousProblem(options.previous)
  if (badPrevious !== undefined) return TE.left(inputError(`previous${badPrevious.at}`, badPrevious.problem))
  const tokenizerE: E.Either<GsscError, Tokenizer> = options.tokenizer !== undefined ? E.right(options.tokenizer) : createTokenizer(options.model ?? 'gpt-4o')
  return pipe(
    TE.fromEither(tokenizerE),
    TE.chainFirst((t) => TE.fromTask(async () => t.ready?.())),
    TE.chainEitherKW((tokenizer) =>
      pipe(
        readShape(messages, options.shape),
        E.chainW(({ decoded, codec }) =>
          E.map((tools: ToolsCost) => ({ tokenizer, decoded, codec, tools }))(
            options.tools === undefined ? E.right<GsscError, ToolsCost>({ tokens: 0, exact: true, rule: 'openai-cookbook' }) : toolsCost(options.tools, tokenizer, { family: tokenizer.name === 'cl100k_base' ? 'cl100k' : 'o200k' }),
          ),
        ),
      ),
    ),
    TE.chainW(({ tokenizer, decoded, codec, tools }) => {
      const available = options.maxTokens - reserve - tools.tokens
      if (available <= 0)
        return TE.left(inputError('maxTokens', `${options.maxTokens} leaves no room: the reserve takes ${reserve} and the tool definitions ${tools.tokens} tokens`))
      if (control !== undefined && codec.format !== 'anthropic')
        return TE.left(inputError('breakpoints', `cache_control breakpoints are Anthropic's; these messages are ${decoded.shape} (OpenAI caches prefixes on its own)`))
      const renderer = passthrough(codec, messages, decoded, control === undefined ? undefined : { control, earlier: toolBreakpoints(options.tools) })
      // the tool definitions are sent first: one unit of the prefix before the messages
      const toolsUnit = contentId(unitKey(options.tools ?? null))
      const previous = options.previous === undefined ? undefined : fingerprintOf(options.previous)
      const sameTools = previous !== undefined && previous.format === decoded.shape && previous.units[0] === toolsUnit
      const strategy = options.strategy ?? 'truncate'
      const built = build(
        { query: '', history: decoded.messages },
        {
          tokenizer,
          ...(options.cache === undefined ? {} : { cache: options.cache }),
          config: { maxTokens: available, reserveRatio: 0, maxHistoryMessages: Number.POSITIVE_INFINITY, ...(options.maxItemShare === undefined ? {} : { maxItemShare: options.maxItemShare }) },
          structurer: chat(),
          renderer,
          selector: layoutAware(chat(), { history: 'all' }),
          ...(previous === undefined ? {} : { previous: { format: previous.format, units: sameTools ? previous.units.slice(1) : [] } }),
          // whole messages only: the strategy fits by each message's cost, the guard drops whole units
          compressor: historyCompressor(
            (budget) =>
              historyStrategy(strategy, {
                budget,
                tokenizer,
                // Anthropic's turns open on a user turn: nothing is added to make it so, an assistant turn is left out
                ...(codec.format === 'anthropic' ? { firstTurn: 'user' as const } : {}),
                ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
                ...(options.keepRecentCount === undefined ? {} : { keepRecentCount: options.keepRecentCount }),
              }),
            noop(),
            // truncation reads back only as far as turns can fit; a summary needs them all
            { summarizes: strategy !== 'truncate' },
          ),
        },
      )
      // a message the shape cannot take back is a failure of this call, never a raw rejection
      const safe = pipe(
        TE.tryCatch(() => built(), (e) => inputError('messages', describeThrown(e))),
        TE.chainEitherKW((r) => r),
      )
      return TE.map((r: BuildResult<unknown>): FitMessagesResult<T> => {
        const sources = decoded.sources
        const dropped: DroppedMessage[] = r.excluded.flatMap((x) => {
          const place = placeOf(x.id, sources)
          return place === undefined ? [] : [{ ...place, reason: x.reason, ...(x.detail === undefined ? {} : { detail: x.detail }) }]
        })
        const cut: CutMessage[] = r.truncated.flatMap((t) => {
          const place = placeOf(t.id, sources)
          return place === undefined ? [] : [{ ...place, keptTokens: t.keptTokens, originalTokens: t.originalTokens, ...(t.content === undefined ? {} : { content: t.content }) }]
        })
        const placed = renderer.placed(r.output)
        const inner = r.prefix
        const identical = inner.identical === undefined ? undefined : sameTools ? { units: inner.identical.units + 1, tokens: inner.identical.tokens + tools.tokens } : { units: 0, tokens: 0 }
        return {
          messages: r.output as T,
          shape: decoded.shape,
          tokenCount: r.tokenCount + tools.tokens,
          tokenCountExact: r.tokenCountExact && tools.exact,
          budget: { maxTokens: options.maxTokens, reserve, tools, available },
          sources: r.sources.map((ids) => (ids.length === 1 ? placeOf(ids[0]!, sources)?.index : undefined)),
          dropped: coalesce([...dropped].sort((a, b) => first(a) - first(b))),
          cut,
          prefix: prefixReport(inner.format, [toolsUnit, ...inner.units], inner.tokens + tools.tokens, identical),
          ...(placed === undefined ? {} : { breakpoints: { added: placed.added, dropped: placed.dropped } }),
          report: r as BuildResult<T>,
        }
      })(safe)
    }),
    TE.chainEitherKW(opensOnUser),
  )
}

/**
 * Fits the messages an app already holds (OpenAI Chat or Responses, Anthropic, AI SDK) to a
 * budget and returns them in the same shape (see the module comment). Resolves with the
 * result; rejects with a `GsscError` (as an `Error`) naming what was wrong and where.
 *
 * @example
 * const fitted = await fitMessages(messages, { model: 'gpt-4o', maxTokens: 8000, reserve: 1000, tools })
 * fitted.messages   // ChatCompletionMessageParam[], ready to send
 * fitted.dropped    // [{ index: 1, through: 40, reason: 'over_budget', … }]
 * @category fit
 * @since 0.2.0
 */
export const fitMessages = <T = unknown>(messages: T, options: FitMessagesOptions): Promise<FitMessagesResult<T>> => {
  try {
    return toPromise(fitMessagesTE(messages, options))
  } catch (e) {
    return Promise.reject(e)
  }
}
