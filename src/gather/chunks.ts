/**
 * A team9 memory state (agent memory chunks, seed 000) as a gatherer: every chunk listed in
 * `chunkIds`, in that order, as packets already rendered as its XML element with its role
 * (SYSTEM chunks and CRITICAL ones as P0), a tool call and its result sharing a group. A
 * chunk present in `chunks` but missing from `chunkIds` is not part of the context: it is
 * reported as left out (`unlisted`). Lay the packets out with the `xml()` layout. Pure: runs
 * anywhere (exported from `gssc/chunks`).
 *
 * ```ts
 * build({ query: '' }, { gatherers: [chunks(state)], structurer: xml(), renderer: openaiRenderer() })
 * ```
 *
 * @module
 */
import { unlistedChunks, type MemoryState } from '../chunks/model.js'
import { chunkToPackets } from '../chunks/packet.js'
import type { ChunkRenderer } from '../chunks/renderers.js'
import type { PacketInput } from '../packet.js'
import type { Exclusion } from '../phase.js'
import { gatherer, type Gatherer } from './gatherer.js'

/** A memory state's packets, and the chunks it leaves out. */
export interface ChunksGathered {
  readonly packets: ReadonlyArray<PacketInput>
  readonly excluded: ReadonlyArray<Exclusion>
}

/**
 * The chunks of `chunks` not listed in `chunkIds`, as left out (`unlisted`): what the gatherer
 * and the chunk builder both report.
 *
 * @category utils
 * @since 0.2.0
 */
export const unlistedExcluded = (state: MemoryState): ReadonlyArray<Exclusion<'unlisted'>> =>
  unlistedChunks(state).map((id) => ({ id, reason: 'unlisted', detail: 'in chunks but not in chunkIds: not part of the context' }))

/**
 * A memory state as packets and what it leaves out: the one path from chunks to packets (the
 * gatherer and the CLI both take it).
 *
 * @category utils
 * @since 0.2.0
 */
export const chunksGathering = (state: MemoryState, renderers: ReadonlyArray<ChunkRenderer> = []): ChunksGathered => ({
  packets: state.chunkIds.flatMap((id) => chunkToPackets(state.chunks.get(id)!, renderers)),
  excluded: unlistedExcluded(state),
})

/**
 * A memory state as a gatherer (see the module comment).
 *
 * @example
 * build({ query: '' }, { gatherers: [chunks(state)], structurer: xml() })
 * @category constructors
 * @since 0.2.0
 */
export const chunks = (state: MemoryState, options: { readonly renderers?: ReadonlyArray<ChunkRenderer> } = {}): Gatherer =>
  gatherer('chunks', () => chunksGathering(state, options.renderers))
