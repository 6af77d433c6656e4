/**
 * Agent memory chunks (seed 000): the chunk model and its JSON parser, XML rendering with
 * escaping, renderers as function values, the budgeted context builder, and the mapping to
 * pipeline packets.
 *
 * @module
 */
export * from './build.js'
export * from './classify.js'
export * from './content.js'
export * from './model.js'
export * from './packet.js'
export * from './parse.js'
export * from './renderers.js'
export { filterReason, type ChunkExclusion, type ChunkExclusionReason, type ChunkFilter, type ChunkFinding } from './units.js'
export * from './xml.js'
// the memory state as a gatherer of the pipeline
export { admittedChunks, chunks, chunksGathering, unlistedExcluded, type AdmittedChunk, type ChunkAdmission, type ChunksGathered, type ChunksOptions } from '../gather/chunks.js'
