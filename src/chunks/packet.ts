/**
 * Chunks as pipeline packets, so a memory state can feed the core Gather → Select →
 * Structure → Compress pipeline like any other source.
 *
 * | chunk | packet type | priority |
 * | --- | --- | --- |
 * | SYSTEM (system role) | `instructions` | P0 |
 * | AGENT, WORKFLOW, DELEGATION, ENVIRONMENT, WORKING_FLOW, OUTPUT | `history`, with `message` set | P3 |
 * | any chunk with `retentionStrategy: CRITICAL` | as above | P0 (team9: must be retained) |
 *
 * OUTPUT chunks are the agent's own turns (its final report), so they are history rather than
 * custom content. `content` is the rendered XML text (what the model reads, so token counts
 * match), `message` the chat turn (role from the renderer), `timestamp` `createdAt`,
 * `source` `chunks`. `group` is the call id for tool/skill calls and their results, so the
 * selector keeps or drops them together; a container's children share the container's id as
 * group unless a child has a call id. `metadata` keeps `chunkId`, `tag`, `chunkType`,
 * `subType`, `retentionStrategy` and the chunk's own `priority`.
 *
 * @module
 */
import { messageText, type ChatMessage } from '../message.js'
import type { PacketInput } from '../packet.js'
import { classifyChunk } from './classify.js'
import { leavesOf, type MemoryChunk } from './model.js'
import type { ChunkRenderer } from './renderers.js'
import { renderLeaf } from './units.js'

/**
 * The packets of a chunk: one for a leaf chunk, one per child for a container.
 *
 * @example
 * const packets = state.chunkIds.flatMap((id) => chunkToPackets(state.chunks.get(id)!))
 * @category constructors
 * @since 0.1.0
 */
export const chunkToPackets = (chunk: MemoryChunk, renderers: ReadonlyArray<ChunkRenderer> = []): ReadonlyArray<PacketInput> => {
  const leaves = leavesOf(chunk)
  return leaves.map((leaf): PacketInput => {
    const { role, parts, callId } = renderLeaf(renderers, leaf)
    const message: ChatMessage = { role, parts, timestamp: leaf.metadata.createdAt }
    const spec = classifyChunk(leaf)
    const group = callId ?? (leaves.length > 1 ? chunk.id : undefined)
    return {
      id: leaf.id,
      type: role === 'system' ? 'instructions' : 'history',
      content: messageText(message),
      ...(chunk.retentionStrategy === 'CRITICAL' ? { priority: 0 } : {}),
      timestamp: leaf.metadata.createdAt,
      source: 'chunks',
      metadata: {
        chunkId: chunk.id,
        tag: spec.tag,
        chunkType: chunk.type,
        ...(leaf.subType === undefined ? {} : { subType: leaf.subType }),
        retentionStrategy: chunk.retentionStrategy,
        priority: chunk.priority,
      },
      ...(role === 'system' ? {} : { message }),
      ...(group === undefined ? {} : { group }),
    }
  })
}
