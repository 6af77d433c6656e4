/** Test helpers: the shipped example state, and a compact chunk constructor. */
import { readFileSync } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import type { ChunkType, MemoryChunk, MemoryState, WorkingFlowSubType } from '../../src/chunks/model.js'
import { parseChunk, parseMemoryState } from '../../src/chunks/parse.js'

export const EXAMPLE_PATH = new URL('../../examples/data/chunks.json', import.meta.url)

export const exampleJson = (): unknown => JSON.parse(readFileSync(EXAMPLE_PATH, 'utf8'))

export const right = <A>(e: E.Either<{ message: string }, A>): A => {
  if (E.isLeft(e)) throw new Error(e.left.message)
  return e.right
}

export const exampleState = (): MemoryState => right(parseMemoryState(exampleJson(), 'chunks.json'))

/** A chunk from its type and stored content (and optional extras), through the real parser. */
export const chunk = (
  id: string,
  type: ChunkType,
  content: Record<string, unknown>,
  extra: { subType?: WorkingFlowSubType; priority?: number; custom?: Record<string, unknown>; children?: unknown[]; retentionStrategy?: string } = {},
): MemoryChunk =>
  right(
    parseChunk(
      {
        id,
        type,
        content,
        ...(extra.subType === undefined ? {} : { subType: extra.subType }),
        ...(extra.priority === undefined ? {} : { priority: extra.priority }),
        ...(extra.children === undefined ? {} : { children: extra.children }),
        ...(extra.retentionStrategy === undefined ? {} : { retentionStrategy: extra.retentionStrategy }),
        metadata: { createdAt: 1, ...(extra.custom === undefined ? {} : { custom: extra.custom }) },
      },
      id,
    ),
  )

/** A state of the given chunks, in order. */
export const stateOf = (...chunks: ReadonlyArray<MemoryChunk>): MemoryState => ({
  chunkIds: chunks.map((c) => c.id),
  chunks: new Map(chunks.map((c) => [c.id, c])),
})
