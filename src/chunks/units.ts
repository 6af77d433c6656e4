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
import type { ImageDropReason } from '../render/finding.js'
import { classifyChunk, type ChunkRole } from './classify.js'
import { leavesOf, type ChunkType, type MemoryChunk } from './model.js'
import { renderDefault, renderedParts, type ChunkRenderer } from './renderers.js'

/** Why a chunk is not in the context. */
export type ChunkExclusionReason =
  /** `includeOnlyChunkIds` was given and does not list it. */
  | 'not_in_include_list'
  /** Its type is in `excludeTypes`. */
  | 'excluded_type'
  /** A SYSTEM chunk, with `includeSystem: false`. */
  | 'system_excluded'
  /** An ENVIRONMENT chunk, with `includeEnvironment: false`. */
  | 'environment_excluded'
  /** It rendered to nothing. */
  | 'empty'
  /** It did not fit in `maxTokens`. */
  | 'over_budget'
  /** It is in the state's `chunks` but not in `chunkIds`, so not part of the context. */
  | 'unlisted'

/** A chunk left out, and why. */
export interface ChunkExclusion {
  readonly chunkId: string
  readonly reason: ChunkExclusionReason
}

/** Something removed from a chunk's rendering so providers accept it. */
export type ChunkFinding =
  | { readonly _tag: 'DroppedImage'; readonly chunkId: string; readonly reason: ImageDropReason }
  | { readonly _tag: 'DroppedEmptyText'; readonly chunkId: string; readonly count: number }

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

interface Leaf {
  readonly role: ChunkRole
  readonly parts: ReadonlyArray<TextPart | ImagePart>
  readonly callId: string | undefined
}

/** A leaf by a user's renderer (classified once more, for its call id), else by the default. */
const renderLeaf = (renderers: ReadonlyArray<ChunkRenderer>, leaf: MemoryChunk): Leaf => {
  const own = renderers.find((r) => r.canRender(leaf))
  return own === undefined
    ? renderDefault(leaf)
    : { role: own.getRole(leaf), parts: renderedParts(own.render(leaf)), callId: classifyChunk(leaf).callId }
}

/**
 * Renders a chunk into a unit; `undefined` when nothing is left to send.
 *
 * @category utils
 * @since 0.1.0
 */
export const toUnit = (
  chunk: MemoryChunk,
  renderers: ReadonlyArray<ChunkRenderer>,
  counter: Counter,
  options: CostOptions,
): { readonly unit: Unit | undefined; readonly findings: ReadonlyArray<ChunkFinding> } => {
  // a user's renderer may take a container whole; otherwise its children render one by one
  const whole = chunk.children !== undefined && chunk.children.length > 0 && renderers.some((r) => r.canRender(chunk))
  const leaves: ReadonlyArray<Leaf> = whole
    ? [renderLeaf(renderers, chunk)]
    : leavesOf(chunk).map((leaf) => renderLeaf(renderers, leaf))
  const findings: Array<ChunkFinding> = []
  const segments: Array<{ role: ChunkRole; parts: Array<TextPart | ImagePart>; costs: Array<number> }> = []
  for (const leaf of leaves) {
    const cleaned = cleanMessage({ role: leaf.role, parts: leaf.parts }, 0, { format: options.format })
    for (const f of cleaned.findings) {
      if (f._tag === 'DroppedImage') findings.push({ _tag: 'DroppedImage', chunkId: chunk.id, reason: f.reason })
      if (f._tag === 'DroppedEmptyText') findings.push({ _tag: 'DroppedEmptyText', chunkId: chunk.id, count: f.count })
    }
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
