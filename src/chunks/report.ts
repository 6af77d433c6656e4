/**
 * The chunk builder's report in the one vocabulary (`layoutReport`): each chunk listed in
 * `chunkIds` a candidate (a system-only chunk as `instructions`, any other as `history`;
 * pinned ones, SYSTEM and kept CRITICAL chunks, as P0), the system prompt a P0 candidate,
 * and the fitted layout with each item named by its chunk, so `explain` and the HTML report
 * show chunks, not the builder's segments.
 *
 * @module
 */
import { match } from 'ts-pattern'
import { layoutReport, type Candidate } from '../layoutReport.js'
import type { ChatMessage } from '../message.js'
import type { Report } from '../report.js'
import type { Document, Section } from '../structure/document.js'
import type { Meter } from '../tokenize/meter.js'
import type { MemoryState } from './model.js'
import type { ChunkExclusion, ChunkFinding, Unit } from './units.js'

/** What the chunk builder hands to its report. */
export interface ChunkOutcome {
  readonly state: MemoryState
  readonly units: ReadonlyArray<Unit>
  /** Whether a unit was budgeted with the pinned ones. */
  readonly pinned: (u: Unit) => boolean
  /** The fitted layout, its items named by the builder's own ids (see `chunkOf`). */
  readonly doc: Document
  /** A layout item's id as the id the report shows. */
  readonly chunkOf: (packetId: string) => string
  readonly promptId: string
  readonly hasPrompt: boolean
  readonly messages: ReadonlyArray<ChatMessage>
  readonly sources: ReadonlyArray<ReadonlyArray<string>>
  readonly format: string
  readonly tokenCount: number
  readonly tokenCountExact: boolean
  readonly maxTokens: number | undefined
  readonly exclusions: ReadonlyArray<ChunkExclusion>
  readonly findings: ReadonlyArray<ChunkFinding>
  readonly meter: Meter
}

const named =
  (chunkOf: (id: string) => string) =>
  (doc: Document): Document => ({
    ...doc,
    blocks: doc.blocks.map((b) =>
      match(b)
        .with({ _tag: 'Section' }, (s): Section => ({ ...s, items: s.items.map((i) => (i.packetId === undefined ? i : { ...i, packetId: chunkOf(i.packetId) })) }))
        .with({ _tag: 'Literal' }, (l) => l)
        .exhaustive(),
    ),
  })

/**
 * The report of a chunk build.
 *
 * @category constructors
 * @since 0.2.0
 */
export const chunkReport = (o: ChunkOutcome): Report<ReadonlyArray<ChatMessage>> => {
  const unitOf = new Map(o.units.map((u) => [u.chunkId, u]))
  const candidates: ReadonlyArray<Candidate> = [
    ...(o.hasPrompt ? [{ id: o.promptId, type: 'instructions' as const, priority: 0 as const, source: 'options', tokens: undefined }] : []),
    ...o.state.chunkIds.map((id): Candidate => {
      const u = unitOf.get(id)
      return {
        id,
        type: u?.system === true ? 'instructions' : 'history',
        priority: u !== undefined && o.pinned(u) ? 0 : 3,
        source: 'chunks',
        tokens: u?.segments.reduce((n, s) => n + s.costs.reduce((a, b) => a + b, 0), 0),
      }
    }),
  ]
  return layoutReport({
    output: o.messages,
    sources: o.sources.map((ids) => [...new Set(ids.map(o.chunkOf))]),
    format: o.format,
    tokenCount: o.tokenCount,
    tokenCountExact: o.tokenCountExact,
    ...(o.maxTokens === undefined ? {} : { maxTokens: o.maxTokens }),
    doc: named(o.chunkOf)(o.doc),
    candidates,
    excluded: o.exclusions,
    warnings: o.findings,
    meter: o.meter,
  })
}
