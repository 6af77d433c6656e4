/**
 * A team9 memory state (agent memory chunks, seed 000) as a gatherer: every chunk listed in
 * `chunkIds` that the seed's filters let in, in that order, as packets already rendered as its
 * XML element with its role (SYSTEM chunks and CRITICAL ones as P0), a tool call and its
 * result sharing a group. A chunk the filters keep out is reported as left out with the
 * filter's reason; a chunk present in `chunks` but missing from `chunkIds` is not part of the
 * context: it is reported as left out (`unlisted`). Lay the packets out with the `xml()`
 * layout. Pure: runs anywhere (exported from `gssc/chunks`).
 *
 * The admission ({@link admittedChunks}) is the one path from a state to the chunks of the
 * context: this gatherer and `buildChunkContext` both take it.
 *
 * ```ts
 * build({ query: '' }, { gatherers: [chunks(state)], structurer: xml(), renderer: openaiRenderer() })
 * ```
 *
 * @module
 */
import { unlistedChunks, type MemoryChunk, type MemoryState } from '../chunks/model.js'
import { chunkToPackets } from '../chunks/packet.js'
import type { ChunkRenderer } from '../chunks/renderers.js'
import { filterReason, type ChunkExclusion, type ChunkFilter } from '../chunks/units.js'
import type { PacketInput } from '../packet.js'
import type { Exclusion } from '../phase.js'
import { gatherer, type Gatherer } from './gatherer.js'

/** Options of the chunk gatherer: the seed's filters, and renderers tried before the defaults. */
export interface ChunksOptions extends ChunkFilter {
  /** Tried before the defaults, in order. */
  readonly renderers?: ReadonlyArray<ChunkRenderer>
}

/** A memory state's packets, and the chunks it leaves out. */
export interface ChunksGathered {
  readonly packets: ReadonlyArray<PacketInput>
  readonly excluded: ReadonlyArray<Exclusion>
}

/** A chunk the filters let in, with its place in `chunkIds`. */
export interface AdmittedChunk {
  readonly chunk: MemoryChunk
  readonly index: number
}

/** The chunks of the context, and what the filters and `chunkIds` leave out. */
export interface ChunkAdmission {
  /** In `chunkIds` order. */
  readonly admitted: ReadonlyArray<AdmittedChunk>
  /** Kept out by a filter, in `chunkIds` order, with the filter's reason. */
  readonly filtered: ReadonlyArray<ChunkExclusion>
  /** In `chunks` but not in `chunkIds` (`unlisted`). */
  readonly unlisted: ReadonlyArray<Exclusion<'unlisted'>>
}

/**
 * The chunks of `chunks` not listed in `chunkIds`, as left out (`unlisted`).
 *
 * @category utils
 * @since 0.2.0
 */
export const unlistedExcluded = (state: MemoryState): ReadonlyArray<Exclusion<'unlisted'>> =>
  unlistedChunks(state).map((id) => ({ id, reason: 'unlisted', detail: 'in chunks but not in chunkIds: not part of the context' }))

/**
 * Which chunks of a state are in the context: the listed ones the seed's filters let in, the
 * rest with why not. The one admission of a memory state (the gatherer and
 * `buildChunkContext` both take it).
 *
 * @example
 * admittedChunks(state, { includeEnvironment: false }).filtered // [{ id: 'env-1', reason: 'environment_excluded' }]
 * @category utils
 * @since 0.2.0
 */
export const admittedChunks = (state: MemoryState, filter: ChunkFilter = {}): ChunkAdmission => {
  const admitted: AdmittedChunk[] = []
  const filtered: ChunkExclusion[] = []
  state.chunkIds.forEach((id, index) => {
    const chunk = state.chunks.get(id)
    if (chunk === undefined) return // parseMemoryState guarantees it is there
    const reason = filterReason(chunk, filter)
    if (reason === undefined) admitted.push({ chunk, index })
    else filtered.push({ id, reason })
  })
  return { admitted, filtered, unlisted: unlistedExcluded(state) }
}

/**
 * A memory state as packets and what it leaves out: the one path from chunks to packets (the
 * gatherer and the CLI both take it).
 *
 * @category utils
 * @since 0.2.0
 */
export const chunksGathering = (state: MemoryState, options: ChunksOptions = {}): ChunksGathered => {
  const a = admittedChunks(state, options)
  return { packets: a.admitted.flatMap(({ chunk }) => chunkToPackets(chunk, options.renderers)), excluded: [...a.filtered, ...a.unlisted] }
}

/**
 * A memory state as a gatherer (see the module comment).
 *
 * @example
 * build({ query: '' }, { gatherers: [chunks(state, { includeEnvironment: false })], structurer: xml() })
 * @category constructors
 * @since 0.2.0
 */
export const chunks = (state: MemoryState, options: ChunksOptions = {}): Gatherer => gatherer('chunks', () => chunksGathering(state, options))
