/**
 * The chunk builder's first step: which chunks the options let in, and each admitted chunk
 * rendered once into role segments with per-part token costs (a container's children can
 * fall into several roles, hence segments).
 *
 * Rendered parts go through the provider repair's message-local cleaning, so what the
 * builder counts is exactly what a provider renderer will send: empty text is dropped, and
 * images where the format has no place for them (system and assistant turns; for Anthropic,
 * media types other than jpeg/png/gif/webp).
 *
 * @module
 */
import type { ImagePart, TextPart } from '../message.js'
import { cleanMessage } from '../render/clean.js'
import { partCost, type Counter, type CostOptions } from '../render/cost.js'
import type { Exclusion, ExclusionReason } from '../phase.js'
import type { Finding } from '../render/finding.js'
import { classifyChunk, type ChunkRole } from './classify.js'
import { leavesOf, type ChunkType, type MemoryChunk } from './model.js'
import { renderDefault, renderedParts, type ChunkRenderer } from './renderers.js'

/**
 * Why a chunk is not in the context: the chunk builder's words of the one vocabulary
 * (`ExclusionReason`): a filter of seed 000 (`not_in_include_list`, `excluded_type`,
 * `system_excluded`, `environment_excluded`), `empty` (it rendered to nothing), `over_budget`,
 * or `unlisted` (in `chunks` but not in `chunkIds`).
 */
export type ChunkExclusionReason = Extract<
  ExclusionReason,
  'not_in_include_list' | 'excluded_type' | 'system_excluded' | 'environment_excluded' | 'empty' | 'over_budget' | 'unlisted'
>

/** A chunk left out (`id`: the chunk's id), and why. */
export type ChunkExclusion = Exclusion<ChunkExclusionReason>

/**
 * Something removed from a chunk's rendering so providers accept it: a renderer's finding,
 * with `id` the chunk's id and `index` its place in `chunkIds`.
 */
export type ChunkFinding = Extract<Finding, { readonly _tag: 'DroppedImage' | 'DroppedEmptyText' }> & { readonly id: string }

/** Consecutive rendered leaves of one role. */
export interface Segment {
  readonly role: ChunkRole
  readonly parts: ReadonlyArray<TextPart | ImagePart>
  /** Token cost of each part, in the build's format. */
  readonly costs: ReadonlyArray<number>
}

/** An admitted chunk, rendered. */
export interface Unit {
  readonly chunkId: string
  readonly segments: ReadonlyArray<Segment>
  /** Only system segments: budgeted before everything else. */
  readonly system: boolean
  /** team9's `retentionStrategy: CRITICAL` (must be retained). */
  readonly critical: boolean
  /** Tool and skill call ids of its calls and results: units sharing one are kept or dropped together. */
  readonly callIds: ReadonlyArray<string>
}

/** The filters of seed 000. */
export interface ChunkFilter {
  readonly includeSystem?: boolean
  readonly includeEnvironment?: boolean
  readonly excludeTypes?: ReadonlyArray<ChunkType>
  readonly includeOnlyChunkIds?: ReadonlyArray<string>
}

/**
 * Why the filters leave a chunk out, or `undefined` when they let it in.
 *
 * @category utils
 * @since 0.1.0
 */
export const filterReason = (chunk: MemoryChunk, filter: ChunkFilter): ChunkExclusionReason | undefined =>
  filter.includeOnlyChunkIds !== undefined && !filter.includeOnlyChunkIds.includes(chunk.id)
    ? 'not_in_include_list'
    : filter.excludeTypes?.includes(chunk.type) === true
      ? 'excluded_type'
      : filter.includeSystem === false && chunk.type === 'SYSTEM'
        ? 'system_excluded'
        : filter.includeEnvironment === false && chunk.type === 'ENVIRONMENT'
          ? 'environment_excluded'
          : undefined

/** A chunk rendered: its role, its parts, and its tool or skill call id. */
export interface RenderedLeaf {
  readonly role: ChunkRole
  readonly parts: ReadonlyArray<TextPart | ImagePart>
  readonly callId: string | undefined
}

/**
 * A chunk by the first of `renderers` that accepts it (classified once more, for its call
 * id), else by the default for its type: the one rendering of a chunk, which the builder's
 * units and the gatherer's packets both take.
 *
 * @category utils
 * @since 0.2.0
 */
export const renderLeaf = (renderers: ReadonlyArray<ChunkRenderer>, leaf: MemoryChunk): RenderedLeaf => {
  const own = renderers.find((r) => r.canRender(leaf))
  return own === undefined
    ? renderDefault(leaf)
    : { role: own.getRole(leaf), parts: renderedParts(own.render(leaf)), callId: classifyChunk(leaf).callId }
}

/**
 * Renders a chunk (at `index` in `chunkIds`) into a unit; `undefined` when nothing is left to send.
 *
 * @category utils
 * @since 0.1.0
 */
export const toUnit = (
  chunk: MemoryChunk,
  index: number,
  renderers: ReadonlyArray<ChunkRenderer>,
  counter: Counter,
  options: CostOptions,
): { readonly unit: Unit | undefined; readonly findings: ReadonlyArray<ChunkFinding> } => {
  // a user's renderer may take a container whole; otherwise its children render one by one
  const whole = chunk.children !== undefined && chunk.children.length > 0 && renderers.some((r) => r.canRender(chunk))
  const leaves: ReadonlyArray<RenderedLeaf> = whole
    ? [renderLeaf(renderers, chunk)]
    : leavesOf(chunk).map((leaf) => renderLeaf(renderers, leaf))
  const findings: Array<ChunkFinding> = []
  const segments: Array<{ role: ChunkRole; parts: Array<TextPart | ImagePart>; costs: Array<number> }> = []
  for (const leaf of leaves) {
    const cleaned = cleanMessage({ role: leaf.role, parts: leaf.parts }, 0, { format: options.format })
    // a rendered leaf is text and images only: cleaning can drop an image or empty text, nothing else
    for (const f of cleaned.findings)
      if (f._tag === 'DroppedImage' || f._tag === 'DroppedEmptyText') findings.push({ ...f, index, id: chunk.id })
    // cleaning only removes parts, so text and image parts stay text and image parts
    const parts = (cleaned.message?.parts ?? []) as ReadonlyArray<TextPart | ImagePart>
    if (parts.length === 0) continue
    const last = segments[segments.length - 1]
    const target = last?.role === leaf.role ? last : { role: leaf.role, parts: [], costs: [] }
    if (target !== last) segments.push(target)
    target.parts.push(...parts)
    target.costs.push(...parts.map((p) => partCost(p, counter, options)))
  }
  const callIds = whole
    ? leavesOf(chunk).flatMap((leaf) => classifyChunk(leaf).callId ?? [])
    : leaves.flatMap((l) => (l.callId === undefined ? [] : [l.callId]))
  return {
    unit:
      segments.length === 0
        ? undefined
        : { chunkId: chunk.id, segments, system: segments.every((s) => s.role === 'system'), critical: chunk.retentionStrategy === 'CRITICAL', callIds },
    findings,
  }
}
