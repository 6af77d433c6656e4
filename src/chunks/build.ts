/**
 * Builds chat messages from a memory state (seed 000's `ContextBuilder.build`, as a function).
 *
 * Chunks are rendered to XML elements (`./renderers.ts`) and consecutive chunks of one role
 * share one message, one text part per chunk, so each chunk is counted once and the count of
 * a message is the sum of its parts plus the format's per-message overhead (`render/cost.ts`).
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
 * Step 2 adds the exact change in the final count at each step, including messages merged or
 * split by the roles around a chunk and, for Anthropic, the user turn the renderer inserts
 * before a leading assistant turn; step 1 charges an upper bound. `tokenCount` is the exact
 * count of the output (what `countOpenAI` / `countAnthropic` give for the rendered request)
 * and never exceeds `maxTokens`.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { configError, type ConfigError } from '../error.js'
import type { ChatMessage, ImagePart, TextPart } from '../message.js'
import { hasText } from '../render/blank.js'
import { messageCost, messageOverhead, partCost, REQUEST_OVERHEAD, type CostOptions } from '../render/cost.js'
import { DEFAULT_LEADING_USER_TEXT, type Format, type ImageDetail } from '../render/options.js'
import { estimateTokenizer, type Tokenizer } from '../tokenize/tokenizer.js'
import type { ChunkRole } from './classify.js'
import type { MemoryState } from './model.js'
import { selectUnits } from './budget.js'
import type { ChunkRenderer } from './renderers.js'
import { filterReason, toUnit, type ChunkExclusion, type ChunkFilter, type ChunkFinding, type Unit } from './units.js'

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

/** Which chunk went into which message, and as which parts. */
export interface ChunkPlacement {
  readonly chunkId: string
  readonly messageIndex: number
  readonly partIndexes: ReadonlyArray<number>
}

/** The seed's `ContextBuildResult`, plus the reasons, the mapping and the findings. */
export interface ChunkBuildResult {
  /** Neutral messages; send them with `toOpenAI` / `toAnthropic`. */
  readonly messages: ReadonlyArray<ChatMessage>
  /** Tokens of the rendered request in `format`; 0 when there are no messages. */
  readonly tokenCount: number
  /** True when a tokenizer was given and it is exact for its model. */
  readonly tokenCountExact: boolean
  /** In state order. */
  readonly includedChunkIds: ReadonlyArray<string>
  /** Every listed chunk not included, in state order. */
  readonly excludedChunkIds: ReadonlyArray<string>
  readonly exclusions: ReadonlyArray<ChunkExclusion>
  readonly placements: ReadonlyArray<ChunkPlacement>
  readonly findings: ReadonlyArray<ChunkFinding>
  /** False when there is no `systemPrompt` or it did not fit. */
  readonly systemPromptIncluded: boolean
}

const validate = (options: ChunkBuildOptions): E.Either<ConfigError, ChunkBuildOptions> =>
  options.maxTokens !== undefined && !(Number.isInteger(options.maxTokens) && options.maxTokens > 0)
    ? E.left(configError('maxTokens', options.maxTokens, 'must be a positive integer'))
    : E.right(options)


/** Included units in state order, consecutive segments of one role sharing a message, and their exact count. */
const assemble = (
  units: ReadonlyArray<Unit>,
  included: ReadonlyArray<boolean>,
  prompt: { readonly part: TextPart; readonly cost: number } | undefined,
  overhead: (r: ChunkRole) => number,
  lead: (r: ChunkRole | undefined) => number,
): { readonly messages: ReadonlyArray<ChatMessage>; readonly placements: ReadonlyArray<ChunkPlacement>; readonly tokenCount: number } => {
  const messages: Array<{ role: ChunkRole; parts: Array<TextPart | ImagePart> }> = []
  const placements: Array<ChunkPlacement> = []
  let tokenCount = REQUEST_OVERHEAD
  if (prompt !== undefined) {
    messages.push({ role: 'system', parts: [prompt.part] })
    tokenCount += prompt.cost
  }
  let mergeable = false // the prompt message never takes chunks
  units.forEach((u, i) => {
    if (!included[i]) return
    for (const seg of u.segments) {
      const last = messages[messages.length - 1]
      if (!(mergeable && last?.role === seg.role)) {
        messages.push({ role: seg.role, parts: [] })
        tokenCount += overhead(seg.role)
      }
      const target = messages[messages.length - 1]!
      placements.push({ chunkId: u.chunkId, messageIndex: messages.length - 1, partIndexes: seg.parts.map((_, k) => target.parts.length + k) })
      target.parts.push(...seg.parts)
      tokenCount += seg.costs.reduce((s, c) => s + c, 0)
      mergeable = true
    }
  })
  tokenCount += lead(messages.find((m) => m.role !== 'system')?.role)
  return { messages, placements, tokenCount: messages.length === 0 ? 0 : tokenCount }
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
export const buildChunkContext = (state: MemoryState, options: ChunkBuildOptions = {}): E.Either<ConfigError, ChunkBuildResult> =>
  E.map(build(state))(validate(options))

const build =
  (state: MemoryState) =>
  (options: ChunkBuildOptions): ChunkBuildResult => {
    const counter = options.tokenizer ?? estimateTokenizer()
    const cost: CostOptions = { format: options.format ?? 'openai', ...(options.imageDetail === undefined ? {} : { imageDetail: options.imageDetail }) }
    const budget = options.maxTokens ?? Number.POSITIVE_INFINITY
    // role names are counted once per build, not once per message
    const overheads: Readonly<Record<ChunkRole, number>> = {
      system: messageOverhead('system', undefined, counter, cost),
      user: messageOverhead('user', undefined, counter, cost),
      assistant: messageOverhead('assistant', undefined, counter, cost),
    }
    const overhead = (r: ChunkRole): number => overheads[r]
    const leadText = options.leadingUserText ?? DEFAULT_LEADING_USER_TEXT
    const leadCost = cost.format === 'anthropic' ? messageCost({ role: 'user', parts: [{ _tag: 'Text', text: leadText }] }, counter, cost) : 0
    const lead = (r: ChunkRole | undefined): number => (r === 'assistant' ? leadCost : 0)

    const exclusions: Array<ChunkExclusion> = []
    const findings: Array<ChunkFinding> = []
    const units: Array<Unit> = []
    for (const id of state.chunkIds) {
      const chunk = state.chunks.get(id)
      if (chunk === undefined) continue // parseMemoryState guarantees it is there
      const reason = filterReason(chunk, options)
      if (reason !== undefined) {
        exclusions.push({ chunkId: id, reason })
        continue
      }
      const r = toUnit(chunk, options.renderers ?? [], counter, cost)
      findings.push(...r.findings)
      if (r.unit === undefined) exclusions.push({ chunkId: id, reason: 'empty' })
      else units.push(r.unit)
    }

    const prompt: TextPart | undefined = options.systemPrompt !== undefined && hasText(options.systemPrompt) ? { _tag: 'Text', text: options.systemPrompt } : undefined
    const promptCost = prompt === undefined ? undefined : overhead('system') + partCost(prompt, counter, cost)
    const pinned = units.map((u) => u.system || (u.critical && options.keepCritical !== false))
    const { included, promptIn } = selectUnits(units, pinned, { budget, request: REQUEST_OVERHEAD, prompt: promptCost, overhead, lead })
    units.forEach((u, i) => included[i] || exclusions.push({ chunkId: u.chunkId, reason: 'over_budget' }))

    const { messages, placements, tokenCount } = assemble(units, included, promptIn ? { part: prompt!, cost: promptCost! } : undefined, overhead, lead)

    const order = new Map(state.chunkIds.map((id, i) => [id, i]))
    const byState = (a: ChunkExclusion, b: ChunkExclusion): number => order.get(a.chunkId)! - order.get(b.chunkId)!
    const sortedExclusions = exclusions.sort(byState)
    return {
      messages,
      tokenCount,
      tokenCountExact: options.tokenizer?.exact === true,
      includedChunkIds: units.flatMap((u, i) => (included[i] ? [u.chunkId] : [])),
      excludedChunkIds: sortedExclusions.map((x) => x.chunkId),
      exclusions: sortedExclusions,
      placements,
      findings,
      systemPromptIncluded: promptIn,
    }
  }
