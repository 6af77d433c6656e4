/**
 * The agent memory model of team9's agent framework (seed 000, formats.md §7), as plain data.
 *
 * A {@link MemoryState} is an ordered list of {@link MemoryChunk}s. A chunk has a type
 * (SYSTEM, AGENT, WORKFLOW, DELEGATION, ENVIRONMENT, WORKING_FLOW, OUTPUT), content, and
 * metadata; WORKING_FLOW chunks may instead be containers whose children are rendered one by
 * one. The stored JSON names content kinds with `type: "TEXT" | "IMAGE" | "MIXED" |
 * "CHUNK_REF"`; here the content is split into a tagged `body` and the remaining `fields`
 * (role, action, toolName, callId, todos, …), which is where the XML attributes come from.
 *
 * @module
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What a chunk is about. */
export type ChunkType = 'SYSTEM' | 'AGENT' | 'WORKFLOW' | 'DELEGATION' | 'ENVIRONMENT' | 'WORKING_FLOW' | 'OUTPUT'

/** All chunk types, in the seed's order. */
export const CHUNK_TYPES: ReadonlyArray<ChunkType> = ['SYSTEM', 'AGENT', 'WORKFLOW', 'DELEGATION', 'ENVIRONMENT', 'WORKING_FLOW', 'OUTPUT']

/** Kinds of WORKING_FLOW leaves and container children. */
export type WorkingFlowSubType = 'COMPACTED' | 'USER' | 'THINKING' | 'RESPONSE' | 'AGENT_ACTION' | 'ACTION_RESPONSE'

/** All working-flow subtypes. */
export const WORKING_FLOW_SUBTYPES: ReadonlyArray<WorkingFlowSubType> = ['COMPACTED', 'USER', 'THINKING', 'RESPONSE', 'AGENT_ACTION', 'ACTION_RESPONSE']

/** How team9's compaction treats a chunk. */
export type RetentionStrategy = 'CRITICAL' | 'COMPRESSIBLE' | 'BATCH_COMPRESSIBLE' | 'DISPOSABLE' | 'EPHEMERAL'

/** All retention strategies. */
export const RETENTION_STRATEGIES: ReadonlyArray<RetentionStrategy> = ['CRITICAL', 'COMPRESSIBLE', 'BATCH_COMPRESSIBLE', 'DISPOSABLE', 'EPHEMERAL']

/** Text content. */
export interface ChunkText {
  readonly _tag: 'Text'
  readonly text: string
}

/** An image: base64 data (with `mimeType`) or a URL. */
export interface ChunkImage {
  readonly _tag: 'Image'
  readonly data: string
  readonly mimeType: string
  readonly altText?: string
}

/** What a chunk's content holds. */
export type ChunkBody =
  | ChunkText
  | ChunkImage
  | { readonly _tag: 'Mixed'; readonly parts: ReadonlyArray<ChunkText | ChunkImage> }
  /** A pointer to another chunk. */
  | { readonly _tag: 'ChunkRef'; readonly chunkId: string }
  /** No text of its own: the data is in `fields` (e.g. `{ action: 'todo_set', todos: [...] }`). */
  | { readonly _tag: 'Structured' }

/** A chunk's content: its body, the stored `type`, and every other field of the stored object. */
export interface ChunkContent {
  /** The stored `type` (`TEXT`, `IMAGE`, `MIXED`, `CHUNK_REF`, or another value). */
  readonly type: string
  readonly body: ChunkBody
  readonly fields: Readonly<Record<string, unknown>>
}

/** Bookkeeping about a chunk. */
export interface ChunkMetadata {
  /** Epoch milliseconds. */
  readonly createdAt: number
  readonly parentIds?: ReadonlyArray<string>
  readonly sourceOperation?: unknown
  /** Free-form fields; attribute values are looked up here after the content's fields. */
  readonly custom?: Readonly<Record<string, unknown>>
}

/** One item of a WORKING_FLOW container. */
export interface WorkingFlowChild {
  readonly id: string
  readonly subType: WorkingFlowSubType
  readonly content: ChunkContent
  readonly createdAt: number
  readonly custom?: Readonly<Record<string, unknown>>
}

/** One block of agent memory. */
export interface MemoryChunk {
  readonly id: string
  readonly type: ChunkType
  /** WORKING_FLOW leaves only. */
  readonly subType?: WorkingFlowSubType
  readonly content: ChunkContent
  /** WORKING_FLOW containers: rendered child by child instead of `content`. */
  readonly children?: ReadonlyArray<WorkingFlowChild>
  readonly retentionStrategy: RetentionStrategy
  readonly mutable: boolean
  /** Higher is more important. */
  readonly priority: number
  readonly metadata: ChunkMetadata
}

/** The ordered memory of one thread. Chunks not listed in `chunkIds` are not part of the context. */
export interface MemoryState {
  readonly chunkIds: ReadonlyArray<string>
  readonly chunks: ReadonlyMap<string, MemoryChunk>
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * The value of the first of `names` found in the content's fields, then in
 * `metadata.custom`; `undefined` when absent (or null).
 *
 * @example
 * chunkField(chunk, 'callId', 'call_id') // 'call_123'
 * @category utils
 * @since 0.1.0
 */
export const chunkField = (chunk: MemoryChunk, ...names: ReadonlyArray<string>): unknown => {
  for (const name of names) {
    const v = chunk.content.fields[name] ?? chunk.metadata.custom?.[name]
    if (v !== undefined && v !== null) return v
  }
  return undefined
}

/**
 * Chunks held in `chunks` but not listed in `chunkIds`, in the order of `chunks`: not part of
 * the context, and reported as such (never dropped without a word).
 *
 * @example
 * unlistedChunks({ chunkIds: ['a'], chunks: new Map([['a', a], ['b', b]]) }) // ['b']
 * @category utils
 * @since 0.1.0
 */
export const unlistedChunks = (state: MemoryState): ReadonlyArray<string> => {
  const listed = new Set(state.chunkIds)
  return [...state.chunks.keys()].filter((id) => !listed.has(id))
}

/**
 * A chunk's leaves: a container's children as chunks of their own (id, subtype, content,
 * time and custom fields of the child; everything else of the container), or the chunk itself.
 *
 * @category utils
 * @since 0.1.0
 */
export const leavesOf = (chunk: MemoryChunk): ReadonlyArray<MemoryChunk> =>
  chunk.children === undefined || chunk.children.length === 0
    ? [chunk]
    : chunk.children.map((c): MemoryChunk => {
        const { children: _, ...rest } = chunk
        return {
          ...rest,
          id: c.id,
          subType: c.subType,
          content: c.content,
          metadata: { ...chunk.metadata, createdAt: c.createdAt, ...(c.custom === undefined ? {} : { custom: c.custom }) },
        }
      })
