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
 * **A composition of the shared pieces.** Which chunks are in the context is the chunk
 * gatherer's admission (`admittedChunks` in `gather/chunks.ts`: the seed's filters, `chunkIds`,
 * `unlisted`); each admitted chunk is rendered once by the chunk renderers (`./units.ts`); the
 * layout is a `Document` of the structure stage and the fit is the one engine
 * (`fitDocument` with `windowPolicy`), the same engine and policy any budgeted builder uses.
 * What stays here is the seed's result shape (placements, included / excluded ids).
 *
 * The chunks are laid out as a document (the system prompt, then the chunks as turns, one
 * part per chunk, merged by role) and fitted by the engine's window policy (`windowPolicy`:
 * pinned units first, then the newest units while they fit, settled on the exact count of the
 * request the chosen format's renderer produces, with messages merged by role and, for
 * Anthropic, the user turn inserted before a leading assistant turn). `tokenCount` is that
 * exact count (what `countOpenAI` / `countAnthropic` give for the rendered request) and never
 * exceeds `maxTokens`.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { fitDocument } from '../compress/engine.js'
import { windowPolicy } from '../compress/policy.js'
import { measured } from '../compress/stage.js'
import { configError, inputError, show, type ConfigError, type InputError } from '../error.js'
import { isRecord } from '../messageProblem.js'
import { anthropicRenderer, openaiRenderer } from '../formats.js'
import type { ChatMessage } from '../message.js'
import type { Report } from '../report.js'
import { itemCost, type Renderer } from '../output.js'
import { hasText } from '../render/blank.js'
import type { CostOptions } from '../render/cost.js'
import type { Format, ImageDetail } from '../render/options.js'
import type { Document, Item } from '../structure/document.js'
import { labelsFor } from '../structure/labels.js'
import { docToTurns } from '../structure/messages.js'
import { section } from '../structure/sectioned.js'
import { meter } from '../tokenize/meter.js'
import { estimateTokenizer, type Tokenizer } from '../tokenize/tokenizer.js'
import { sharedCallGroups } from '../toolUnits.js'
import { admittedChunks } from '../gather/chunks.js'
import type { MemoryState } from './model.js'
import type { ChunkRenderer } from './renderers.js'
import { chunkReport } from './report.js'
import { toUnit, type ChunkExclusion, type ChunkFilter, type ChunkFinding, type Unit } from './units.js'

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
  /** Why each is left out, in state order; then the chunks not listed in `chunkIds` at all (`unlisted`). */
  readonly exclusions: ReadonlyArray<ChunkExclusion>
  readonly placements: ReadonlyArray<ChunkPlacement>
  readonly findings: ReadonlyArray<ChunkFinding>
  /** False when there is no `systemPrompt` or it did not fit. */
  readonly systemPromptIncluded: boolean
  /** The build in the one report vocabulary: `explain(result)` and `renderReport(result)` read it. */
  readonly report: Report<ReadonlyArray<ChatMessage>>
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

/**
 * The engine's unit of each chunk. A pinned group (any member a SYSTEM or kept CRITICAL
 * chunk) is its call group, wherever its members stand. The other chunks form the window: a
 * window cannot end inside a call group, so a group there spans everything between its first
 * and last member.
 */
const unitGroups = (units: ReadonlyArray<Unit>, pinned: (u: Unit) => boolean): ReadonlyArray<{ readonly group: string; readonly pinned: boolean }> => {
  const root = sharedCallGroups(units.map((u) => u.callIds))
  const pinnedRoots = new Set(units.flatMap((u, i) => (pinned(u) ? [root[i]!] : [])))
  const lastOf = new Map<number, number>()
  units.forEach((_, i) => pinnedRoots.has(root[i]!) || lastOf.set(root[i]!, i))
  let span = -1
  let reach = -1
  return units.map((_, i) => {
    if (pinnedRoots.has(root[i]!)) return { group: `pinned:${root[i]}`, pinned: true }
    if (i > reach) span = i
    reach = Math.max(reach, lastOf.get(root[i]!)!)
    return { group: `window:${span}`, pinned: false }
  })
}

const build =
  (state: MemoryState) =>
  (options: ChunkBuildOptions): ChunkBuildResult => {
    const tokenizer = options.tokenizer ?? estimateTokenizer()
    const m = meter(tokenizer)
    const counter = { count: m.text }
    const format = options.format ?? 'openai'
    const cost: CostOptions = { format, ...(options.imageDetail === undefined ? {} : { imageDetail: options.imageDetail }) }
    const budget = options.maxTokens ?? Number.MAX_SAFE_INTEGER

    // gather: the chunk gatherer's admission (the seed's filters, chunkIds), then each chunk
    // rendered once into role segments costed in the build's format
    const admission = admittedChunks(state, options)
    const exclusions: Array<ChunkExclusion> = [...admission.filtered]
    const findings: Array<ChunkFinding> = []
    const units: Array<Unit> = []
    for (const { chunk, index } of admission.admitted) {
      const r = toUnit(chunk, index, options.renderers ?? [], counter, cost)
      findings.push(...r.findings)
      if (r.unit === undefined) exclusions.push({ id: state.chunkIds[index]!, reason: 'empty' })
      else units.push(r.unit)
    }

    // the layout: the system prompt on its own, then the chunks as turns, one part per chunk
    const prompt = options.systemPrompt !== undefined && hasText(options.systemPrompt) ? options.systemPrompt : undefined
    const groups = unitGroups(units, (u) => u.system || (u.critical && options.keepCritical !== false))
    const labels = labelsFor('en')
    const doc: Document = {
      joiner: '',
      blocks: [
        section({ name: 'prompt', rank: 0, head: '', channel: 'system', items: prompt === undefined ? [] : [{ packetId: PROMPT_ID, prefix: '', text: prompt, tokens: m.text(prompt), pinned: true }] }, labels),
        section(
          {
            name: 'chunks',
            rank: 1,
            head: '',
            channel: 'turns',
            dropFrom: 'start',
            keep: 'tail',
            mergeTurns: 'parts',
            items: units.flatMap((u, i) =>
              u.segments.map((seg, k): Item => ({
                packetId: `${u.chunkId}\u0000${k}`,
                prefix: '',
                text: '',
                tokens: seg.costs.reduce((a, b) => a + b, 0),
                message: { role: seg.role, parts: seg.parts },
                group: groups[i]!.group,
                ...(groups[i]!.pinned ? { pinned: true } : {}),
              })),
            ),
          },
          labels,
        ),
      ],
    }
    const renderer: Renderer<unknown> =
      format === 'anthropic'
        ? (anthropicRenderer({ placeholderTurn: false, ...(options.leadingUserText === undefined ? {} : { leadingUserText: options.leadingUserText }) }) as Renderer<unknown>)
        : (openaiRenderer({ ...(options.imageDetail === undefined ? {} : { imageDetail: options.imageDetail }) }) as Renderer<unknown>)
    const render = measured(renderer, m)
    const fitted = fitDocument(doc, windowPolicy, {
      available: budget,
      meter: m,
      measure: (d) => render(d).exact,
      cost: (item, sec) => itemCost(renderer, item, sec, counter),
    })

    const turns = docToTurns(fitted.doc)
    const chunkOf = (packetId: string): string => {
      const at = packetId.indexOf('\u0000')
      return at < 0 ? packetId : packetId.slice(0, at)
    }
    const kept = new Set(turns.sources.flat().filter((id) => id !== PROMPT_ID).map(chunkOf))
    units.forEach((u) => kept.has(u.chunkId) || exclusions.push({ id: u.chunkId, reason: 'over_budget' }))
    const placements: ChunkPlacement[] = turns.partSources.flatMap((parts, messageIndex) => {
      const byChunk = new Map<string, number[]>()
      parts.forEach((ids, partIndex) => {
        for (const id of ids) {
          if (id === PROMPT_ID) continue
          const list = byChunk.get(id) ?? []
          list.push(partIndex)
          byChunk.set(id, list)
        }
      })
      return [...byChunk].map(([id, partIndexes]) => ({ chunkId: chunkOf(id), messageIndex, partIndexes }))
    })

    const order = new Map(state.chunkIds.map((id, i) => [id, i]))
    const byState = (a: ChunkExclusion, b: ChunkExclusion): number => order.get(a.id)! - order.get(b.id)!
    const sortedExclusions = exclusions.sort(byState)
    const unlisted = admission.unlisted
    const tokenCount = turns.messages.length === 0 ? 0 : fitted.tokens
    const tokenCountExact = options.tokenizer?.exact === true
    const allExclusions = [...sortedExclusions, ...unlisted]
    const pinnedIds = new Set(units.flatMap((u, i) => (groups[i]!.pinned ? [u.chunkId] : [])))
    return {
      messages: turns.messages,
      tokenCount,
      tokenCountExact,
      includedChunkIds: units.flatMap((u) => (kept.has(u.chunkId) ? [u.chunkId] : [])),
      excludedChunkIds: sortedExclusions.map((x) => x.id),
      exclusions: allExclusions,
      placements,
      findings,
      systemPromptIncluded: turns.sources.some((ids) => ids.includes(PROMPT_ID)),
      report: chunkReport({
        state,
        units,
        pinned: (u) => pinnedIds.has(u.chunkId),
        doc: fitted.doc,
        chunkOf,
        promptId: PROMPT_ID,
        hasPrompt: prompt !== undefined,
        messages: turns.messages,
        sources: turns.sources,
        format,
        tokenCount,
        tokenCountExact,
        maxTokens: options.maxTokens,
        exclusions: allExclusions,
        findings,
        meter: m,
      }),
    }
  }

/** The packet id of the system prompt in the chunk layout. */
const PROMPT_ID = 'system-prompt'
