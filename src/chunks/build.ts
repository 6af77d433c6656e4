/**
 * Builds chat messages from a memory state (seed 000's `ContextBuilder.build`, as a function):
 * a thin composition of the shared pieces, each named below. It is synchronous (the seed's
 * API returns the result, not a task), so it composes the stages' bodies rather than the
 * asynchronous `build()`; `build({ query: '' }, { gatherers: [chunks(state)], structurer:
 * xml() })` is the same memory state through the whole pipeline.
 *
 * 1. **gather**: the chunk gatherer's admission ({@link admittedChunks}: the seed's filters,
 *    `chunkIds`, `unlisted`), then each admitted chunk rendered once into role segments
 *    costed in the build's format (`toUnit`, `./units.ts`);
 * 2. **structure**: the chunk layout (`chunkLayout`, `./layout.ts`): the system prompt,
 *    then the chunks as turns, one part per chunk, merged by role; pinned units and call
 *    groups stated as data;
 * 3. **compress**: the one fitting engine (`fitDocument`) with the window policy
 *    (`windowPolicy`) and the chosen format's renderer's exact count (`renderedFit`), as the
 *    compress stage fits any build;
 * 4. **result**: the seed's result shape and the report in the one vocabulary
 *    (`chunkResult`, `./result.ts`), read from the renderer's provenance.
 *
 * **Budget policy** (`maxTokens`). The seed fills chunks in order and drops what overflows,
 * which keeps the oldest. Here the newest are kept:
 * 1. first the request overhead and `systemPrompt`, then the pinned chunks, in state order,
 *    each if it fits: SYSTEM chunks (any chunk rendered only as system segments) and chunks
 *    with `retentionStrategy: CRITICAL` (team9: "must be retained"; typically the user's task;
 *    turn this off with `keepCritical: false`);
 * 2. then the other chunks as a contiguous run ending at the newest: walking from the newest
 *    back, each older chunk is added while the total fits; the first that does not fit stops
 *    the walk, so the history has no holes;
 * 3. a tool or skill call and its result(s) (same call id) are kept or dropped together, in
 *    both steps: the walk only stops where no call/result group straddles the cut.
 *
 * The fit settles on the exact count of the request the chosen format's renderer produces
 * (messages merged by role and, for Anthropic, the user turn inserted before a leading
 * assistant turn): `tokenCount` is what `countOpenAI` / `countAnthropic` give for the rendered
 * request, and never exceeds `maxTokens`.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { fitDocument } from '../compress/engine.js'
import { windowPolicy } from '../compress/policy.js'
import { renderedFit } from '../compress/stage.js'
import { configError, inputError, show, type ConfigError, type InputError } from '../error.js'
import { isRecord } from '../messageProblem.js'
import { anthropicRenderer, openaiRenderer } from '../formats.js'
import type { Renderer } from '../output.js'
import { hasText } from '../render/blank.js'
import type { CostOptions } from '../render/cost.js'
import type { Format, ImageDetail } from '../render/options.js'
import { meter } from '../tokenize/meter.js'
import { estimateTokenizer, type Tokenizer } from '../tokenize/tokenizer.js'
import { admittedChunks } from '../gather/chunks.js'
import { chunkLayout } from './layout.js'
import type { MemoryState } from './model.js'
import type { ChunkRenderer } from './renderers.js'
import { chunkResult, type ChunkBuildResult } from './result.js'
import { toUnit, type ChunkExclusion, type ChunkFilter, type ChunkFinding, type Unit } from './units.js'

export type { ChunkBuildResult, ChunkPlacement } from './result.js'

/** Options of {@link buildChunkContext}: the seed's, plus renderers and the target format. */
export interface ChunkBuildOptions extends ChunkFilter {
  /** Token budget of the whole request. Absent: no limit. */
  readonly maxTokens?: number
  /** Counts tokens; absent: the chars/4 estimate (then `tokenCountExact` is false). */
  readonly tokenizer?: Tokenizer
  /** Sent first, as its own system message (never merged with SYSTEM chunks). */
  readonly systemPrompt?: string
  /** Tried before the defaults, in order. */
  readonly renderers?: ReadonlyArray<ChunkRenderer>
  /** The format the messages will be rendered to; decides the per-message overhead. Default `openai`. */
  readonly format?: Format
  /** OpenAI image detail, for image costs. */
  readonly imageDetail?: ImageDetail
  /** Anthropic: the text of the user turn inserted before a leading assistant turn. */
  readonly leadingUserText?: string
  /** Budget CRITICAL chunks with the SYSTEM chunks, before the rest. Default true. */
  readonly keepCritical?: boolean
}

/** The state and options, checked before anything reads them (a JavaScript caller may pass the raw JSON). */
const validate = (state: unknown, options: ChunkBuildOptions): E.Either<ConfigError | InputError, ChunkBuildOptions> => {
  if (!isRecord(state)) return E.left(inputError('state', `must be a memory state { chunkIds, chunks } (got ${show(state)}); read stored JSON with parseMemoryState`))
  if (!Array.isArray(state['chunkIds'])) return E.left(inputError('state.chunkIds', `must be an array (got ${show(state['chunkIds'])}); read stored JSON with parseMemoryState`))
  if (!(state['chunks'] instanceof Map)) return E.left(inputError('state.chunks', `must be a Map of chunks by id (got ${show(state['chunks'])}); read stored JSON with parseMemoryState`))
  if (!isRecord(options)) return E.left(configError('options', options, 'must be an object'))
  const max: unknown = options.maxTokens
  if (max !== undefined && !(Number.isSafeInteger(max) && (max as number) > 0)) return E.left(configError('maxTokens', max, 'must be a positive integer'))
  const t: unknown = options.tokenizer
  if (t !== undefined && !(isRecord(t) && typeof t['count'] === 'function')) return E.left(configError('tokenizer', t, 'must be a tokenizer (make one with createTokenizer)'))
  return E.right(options)
}

/**
 * Builds the context from a memory state.
 *
 * @example
 * const result = buildChunkContext(state, { maxTokens: 8000, tokenizer, systemPrompt: 'You are a helpful assistant.' })
 * // Right({ messages, tokenCount, tokenCountExact, includedChunkIds, excludedChunkIds, … })
 * toOpenAI(result.right.messages).messages // what to send
 * @category constructors
 * @since 0.1.0
 */
export const buildChunkContext = (state: MemoryState, options: ChunkBuildOptions = {}): E.Either<ConfigError | InputError, ChunkBuildResult> =>
  E.map(build(state))(validate(state, options))

/** The renderer of the chosen format: its exact count is what the fit settles on. */
const rendererOf = (options: ChunkBuildOptions): Renderer<unknown> =>
  options.format === 'anthropic'
    ? (anthropicRenderer({ placeholderTurn: false, ...(options.leadingUserText === undefined ? {} : { leadingUserText: options.leadingUserText }) }) as Renderer<unknown>)
    : (openaiRenderer({ ...(options.imageDetail === undefined ? {} : { imageDetail: options.imageDetail }) }) as Renderer<unknown>)

const build =
  (state: MemoryState) =>
  (options: ChunkBuildOptions): ChunkBuildResult => {
    const m = meter(options.tokenizer ?? estimateTokenizer())
    const format = options.format ?? 'openai'
    const cost: CostOptions = { format, ...(options.imageDetail === undefined ? {} : { imageDetail: options.imageDetail }) }

    // gather: the gatherer's admission, then each admitted chunk rendered once
    const admission = admittedChunks(state, options)
    const empty: ChunkExclusion[] = []
    const findings: ChunkFinding[] = []
    const units: Unit[] = []
    for (const { chunk, index } of admission.admitted) {
      const r = toUnit(chunk, index, options.renderers ?? [], { count: m.text }, cost)
      findings.push(...r.findings)
      if (r.unit === undefined) empty.push({ id: state.chunkIds[index]!, reason: 'empty' })
      else units.push(r.unit)
    }

    // structure, then compress: the chunk layout through the one engine and the format's exact count
    const prompt = options.systemPrompt !== undefined && hasText(options.systemPrompt) ? options.systemPrompt : undefined
    const layout = chunkLayout({ ...(prompt === undefined ? {} : { prompt }), keepCritical: options.keepCritical !== false, meter: m })(units)
    const fitted = fitDocument(layout.doc, windowPolicy, renderedFit(rendererOf(options), m, options.maxTokens ?? Number.MAX_SAFE_INTEGER).ctx)

    return chunkResult({
      state,
      units,
      left: [...admission.filtered, ...empty],
      unlisted: admission.unlisted,
      findings,
      layout,
      fitted,
      hasPrompt: prompt !== undefined,
      format,
      tokenCountExact: options.tokenizer?.exact === true,
      maxTokens: options.maxTokens,
      meter: m,
    })
  }
