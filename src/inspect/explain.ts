/**
 * Where the budget went, as data: one row per section, the packets that were cut or left
 * out with their reasons and scores, and the totals. `renderExplain` prints it for a
 * terminal; apps can log it or show it in their own UI.
 *
 * @module
 */
import type { PacketType, Priority } from '../packet.js'
import type { ExclusionReason, GatherFailure, Warning } from '../phase.js'
import { reportOf, type Reported, type Report } from '../report.js'
import type { Scores } from '../select/score.js'
import { sectionsOf } from '../structure/document.js'
import { attributor } from './attribute.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One section of the layout: what it holds and what it costs. */
export interface SectionRow {
  readonly name: string
  /** Truncation order: the highest rank is cut first, rank 0 last; undefined for {@link UNPLACED}. */
  readonly rank: number | undefined
  readonly kept: number
  readonly truncated: number
  readonly dropped: number
  /** The section's estimated tokens (0 when it is not in the output). */
  readonly tokens: number
  /** `tokens / available`: the share of the budget the section takes. */
  readonly share: number
  /** False when the section is not in the output (everything in it was dropped). */
  readonly rendered: boolean
}

/**
 * A packet and its fate. Left-out entries that are not packets (a failed gatherer, a
 * duplicate id, a range of old turns never counted) have no type, source or scores.
 */
export interface PacketRow {
  readonly id: string
  readonly status: 'kept' | 'truncated' | 'dropped'
  readonly type: PacketType | undefined
  readonly priority: Priority | undefined
  readonly source: string | undefined
  /** The section it is in, or would have been in. */
  readonly section: string | undefined
  /** The packet's full size, when it was counted. */
  readonly tokens: number | undefined
  /** For a truncated packet: what is left of it. */
  readonly keptTokens: number | undefined
  readonly reason: ExclusionReason | undefined
  readonly detail: string | undefined
  readonly scores: Scores | undefined
}

/** The budget and how it was spent. */
export interface Totals {
  readonly maxTokens: number
  readonly available: number
  readonly reserved: number
  /** The output's token count (`tokenCount`). */
  readonly used: number
  /** `available − used`. */
  readonly free: number
  /**
   * `used −` the sections' tokens: joiners, fixed text, message framing, and BPE merges
   * across joins (which make it slightly negative at times).
   */
  readonly other: number
  /** False when the tokenizer only approximates the model's. */
  readonly exact: boolean
  readonly kept: number
  readonly truncated: number
  readonly dropped: number
}

/** Everything `--explain` shows. */
export interface ExplainTable {
  readonly format: string
  readonly sections: ReadonlyArray<SectionRow>
  readonly truncated: ReadonlyArray<PacketRow>
  readonly dropped: ReadonlyArray<PacketRow>
  readonly totals: Totals
  readonly failures: ReadonlyArray<GatherFailure>
  readonly warnings: ReadonlyArray<Warning>
}

/** The row name of packets the layout has no section for. */
export const UNPLACED = '(unplaced)'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const share = (tokens: number, available: number): number => (available > 0 ? tokens / available : 0)

/**
 * Every packet of a build with its fate and section, in the report's order, then the
 * left-out entries that are not packets.
 *
 * @category constructors
 * @since 0.1.0
 */
export const packetRows = <O>(of: Report<O> | Reported<O>): ReadonlyArray<PacketRow> => {
  const result = reportOf(of)
  const sectionOf = attributor(
    result.packets,
    sectionsOf(result.doc).map((s) => s.name),
  )
  const truncation = new Map(result.truncated.map((t) => [t.id, t]))
  const packets = result.packets.map(
    (p): PacketRow => ({
      id: p.id,
      status: p.status,
      type: p.type,
      priority: p.priority,
      source: p.source,
      section: sectionOf(p),
      tokens: truncation.get(p.id)?.originalTokens ?? p.tokens,
      keptTokens: truncation.get(p.id)?.keptTokens,
      reason: p.reason,
      detail: p.detail,
      scores: p.scores,
    }),
  )
  // exclusions that are not one of the packets: failed gatherers, duplicates, uncounted turn ranges
  const shown = new Set(packets.filter((p) => p.status === 'dropped').map((p) => `${p.id}\u0000${p.reason}`))
  const others = result.excluded
    .filter((e) => !shown.has(`${e.id}\u0000${e.reason}`))
    .map(
      (e): PacketRow => ({
        id: e.id,
        status: 'dropped',
        type: undefined,
        priority: undefined,
        source: undefined,
        section: undefined,
        tokens: undefined,
        keptTokens: undefined,
        reason: e.reason,
        detail: e.detail,
        scores: undefined,
      }),
    )
  return [...packets, ...others]
}

/**
 * The explain table of any builder's result (the core build's, or any result that carries
 * a `report`: `fitMessages`, `buildChunkContext`, `buildSession`, …).
 *
 * @example
 * const table = explain(result)
 * table.sections.map((s) => [s.name, s.tokens, s.share]) // [['instructions', 43, 0.19], …]
 * table.dropped.map((p) => [p.id, p.reason])                // [['rag:lint', 'over_budget'], …]
 * @category constructors
 * @since 0.1.0
 */
export const explain = <O>(of: Report<O> | Reported<O>): ExplainTable => {
  const result = reportOf(of)
  const rows = packetRows(result)
  const available = result.budget.available
  const tokensOf = new Map(result.sections.map((s) => [s.name, s.tokens]))
  const count = (name: string | undefined, status: PacketRow['status']): number =>
    rows.filter((p) => p.status === status && p.type !== undefined && p.section === name).length
  const placed = sectionsOf(result.doc)
    .map((s): SectionRow => {
      const tokens = tokensOf.get(s.name) ?? 0
      return {
        name: s.name,
        rank: s.rank,
        kept: count(s.name, 'kept'),
        truncated: count(s.name, 'truncated'),
        dropped: count(s.name, 'dropped'),
        tokens,
        share: share(tokens, available),
        rendered: tokensOf.has(s.name),
      }
    })
    .filter((r) => r.rendered || r.dropped > 0)
  const unplaced = count(undefined, 'dropped')
  const sections = unplaced === 0 ? placed : [...placed, { name: UNPLACED, rank: undefined, kept: 0, truncated: 0, dropped: unplaced, tokens: 0, share: 0, rendered: false }]
  const truncated = rows.filter((p) => p.status === 'truncated')
  const dropped = rows.filter((p) => p.status === 'dropped')
  const sectionTokens = result.sections.reduce((sum, s) => sum + s.tokens, 0)
  return {
    format: result.format,
    sections,
    truncated,
    dropped,
    totals: {
      maxTokens: result.budget.maxTokens,
      available,
      reserved: result.budget.reserved,
      used: result.tokenCount,
      free: available - result.tokenCount,
      other: result.tokenCount - sectionTokens,
      exact: result.tokenCountExact,
      kept: rows.filter((p) => p.status === 'kept').length,
      truncated: truncated.length,
      dropped: dropped.length,
    },
    failures: result.failures,
    warnings: result.warnings,
  }
}
