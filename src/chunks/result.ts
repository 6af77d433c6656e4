/**
 * The chunk context's result in the seed's shape (`ContextBuildResult`: messages, count,
 * included / excluded ids) plus where each chunk went, read from the renderer's provenance
 * (`docToTurns`' sources per message and per part), never from the rendered text.
 *
 * @module
 */
import type { ChatMessage } from '../message.js'
import type { Report } from '../report.js'
import type { Format } from '../render/options.js'
import type { Document } from '../structure/document.js'
import { docToTurns } from '../structure/messages.js'
import type { Meter } from '../tokenize/meter.js'
import { chunkOf, PROMPT_ID, type ChunkLayout } from './layout.js'
import type { MemoryState } from './model.js'
import { chunkReport } from './report.js'
import type { ChunkExclusion, ChunkFinding, Unit } from './units.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

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

/** What the chunk context gathered, laid out and fitted: the input of {@link chunkResult}. */
export interface ChunkFit {
  readonly state: MemoryState
  /** The admitted chunks, rendered (those that rendered to nothing are in `left`). */
  readonly units: ReadonlyArray<Unit>
  /** Left out before the fit (filters, `empty`), in any order. */
  readonly left: ReadonlyArray<ChunkExclusion>
  /** In `chunks` but not in `chunkIds`. */
  readonly unlisted: ReadonlyArray<ChunkExclusion>
  readonly findings: ReadonlyArray<ChunkFinding>
  readonly layout: ChunkLayout
  /** The fitted layout and its exact count. */
  readonly fitted: { readonly doc: Document; readonly tokens: number }
  readonly hasPrompt: boolean
  readonly format: Format
  readonly tokenCountExact: boolean
  readonly maxTokens: number | undefined
  readonly meter: Meter
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The result of a fitted chunk layout (see the module comment).
 *
 * @category constructors
 * @since 0.2.0
 */
export const chunkResult = (f: ChunkFit): ChunkBuildResult => {
  const turns = docToTurns(f.fitted.doc)
  const kept = new Set(turns.sources.flat().filter((id) => id !== PROMPT_ID).map(chunkOf))
  const order = new Map(f.state.chunkIds.map((id, i) => [id, i]))
  const excluded = [...f.left, ...f.units.flatMap((u): ReadonlyArray<ChunkExclusion> => (kept.has(u.chunkId) ? [] : [{ id: u.chunkId, reason: 'over_budget' }]))]
  // stable: in state order, and for one chunk in the order they were found
  const sorted = excluded.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
  const exclusions = [...sorted, ...f.unlisted]
  const tokenCount = turns.messages.length === 0 ? 0 : f.fitted.tokens
  return {
    messages: turns.messages,
    tokenCount,
    tokenCountExact: f.tokenCountExact,
    includedChunkIds: f.units.flatMap((u) => (kept.has(u.chunkId) ? [u.chunkId] : [])),
    excludedChunkIds: sorted.map((x) => x.id),
    exclusions,
    placements: placements(turns.partSources),
    findings: f.findings,
    systemPromptIncluded: turns.sources.some((ids) => ids.includes(PROMPT_ID)),
    report: chunkReport({
      state: f.state,
      units: f.units,
      pinned: (u) => f.layout.pinned.has(u.chunkId),
      doc: f.fitted.doc,
      chunkOf,
      promptId: PROMPT_ID,
      hasPrompt: f.hasPrompt,
      messages: turns.messages,
      sources: turns.sources,
      format: f.format,
      tokenCount,
      tokenCountExact: f.tokenCountExact,
      maxTokens: f.maxTokens,
      exclusions,
      findings: f.findings,
      meter: f.meter,
    }),
  }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** Each chunk's parts per message, from the parts' provenance (the prompt is not a chunk). */
const placements = (partSources: ReadonlyArray<ReadonlyArray<ReadonlyArray<string>>>): ReadonlyArray<ChunkPlacement> =>
  partSources.flatMap((parts, messageIndex) => {
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
