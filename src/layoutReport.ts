/**
 * The report of a builder that fits its own layout (the chunk, conversation, session and
 * workspace builders), in the one vocabulary of the core build: so `explain`, `--explain`
 * and the HTML report read any builder's result the same way.
 *
 * A builder hands over what it did: the fitted layout (whose items' `packetId`s are the ids
 * the report uses), every candidate it considered, what it left out and cut, and its
 * findings. The packets' fates and the sections' costs are derived here, once, the way the
 * core build derives them (`sectionReports` is the core build's own).
 *
 * @module
 */
import type { PacketType, Priority } from './packet.js'
import type { Exclusion, GatherFailure, Warning } from './phase.js'
import type { PacketReport, Report, SectionReport, Truncation } from './report.js'
import { estimateSection, isRendered, sectionsOf, type Document, type Section } from './structure/document.js'
import type { Meter } from './tokenize/meter.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Something a builder considered for its output, as the report names it. */
export interface Candidate {
  readonly id: string
  readonly type: PacketType
  readonly priority: Priority
  readonly source: string
  /** Its full size, when the builder counted it. */
  readonly tokens: number | undefined
}

/** What a builder did, for its report. */
export interface Outcome<O> {
  readonly output: O
  /** For each turn of the output, the ids it shows. */
  readonly sources: ReadonlyArray<ReadonlyArray<string>>
  readonly format: string
  readonly tokenCount: number
  readonly tokenCountExact: boolean
  /** The builder's limit; absent when it had none (then the budget is what was used). */
  readonly maxTokens?: number
  /** The fitted layout: what is in the output, by section. */
  readonly doc: Document
  /** Every candidate, in the builder's order. */
  readonly candidates: ReadonlyArray<Candidate>
  readonly excluded: ReadonlyArray<Exclusion>
  readonly truncated?: ReadonlyArray<Truncation>
  /** Ids cut whose whole size the builder did not count (so not in `truncated`). */
  readonly cut?: ReadonlyArray<string>
  readonly warnings?: ReadonlyArray<Warning>
  readonly failures?: ReadonlyArray<GatherFailure>
  /** Counts the layout's fixed text for the sections' costs. */
  readonly meter: Meter
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * The rendered sections of a fitted layout, with their estimated tokens and packet ids.
 *
 * @category utils
 * @since 0.2.0
 */
export const sectionReports = (doc: Document, meter: Meter): ReadonlyArray<SectionReport> =>
  sectionsOf(doc)
    .filter(isRendered)
    .map((sec) => ({
      name: sec.name,
      rank: sec.rank,
      tokens: estimateSection(sec, meter),
      packetIds: packetIdsOf(sec),
    }))

/** A section's packet ids, each once, in order: a loop, not an array per item (every build's report makes these). */
const packetIdsOf = (sec: Section): ReadonlyArray<string> => {
  const ids = new Set<string>()
  for (const i of sec.items) if (i.packetId !== undefined) ids.add(i.packetId)
  return [...ids]
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The report of an outcome: each candidate kept (in a section of the layout), truncated or
 * left out (with the reason the builder gave), and the budget.
 *
 * @example
 * const report = layoutReport({ output, sources, format: 'openai', tokenCount, tokenCountExact: true, doc, candidates, excluded, meter })
 * explain(report).dropped.map((r) => [r.id, r.reason])
 * @category constructors
 * @since 0.2.0
 */
export const layoutReport = <O>(o: Outcome<O>): Report<O> => {
  const sectionOf = new Map<string, string>()
  for (const sec of sectionsOf(o.doc)) for (const i of sec.items) if (i.packetId !== undefined && !sectionOf.has(i.packetId)) sectionOf.set(i.packetId, sec.name)
  const cut = new Set([...(o.truncated ?? []).map((t) => t.id), ...(o.cut ?? [])])
  const reasons = new Map(o.excluded.map((e) => [e.id, e]))
  const packets = o.candidates.map((c): PacketReport => {
    const base = { id: c.id, type: c.type, priority: c.priority, source: c.source, tokens: c.tokens, scores: undefined }
    const section = sectionOf.get(c.id)
    if (section !== undefined) return { ...base, status: cut.has(c.id) ? 'truncated' : 'kept', section }
    const ex = reasons.get(c.id)
    return { ...base, status: 'dropped', ...(ex === undefined ? {} : { reason: ex.reason, ...(ex.detail === undefined ? {} : { detail: ex.detail }) }) }
  })
  const maxTokens = o.maxTokens ?? o.tokenCount
  return {
    output: o.output,
    sources: o.sources,
    format: o.format,
    tokenCount: o.tokenCount,
    tokenCountExact: o.tokenCountExact,
    budget: { maxTokens, reserved: 0, available: maxTokens, used: o.tokenCount },
    included: [...sectionOf.keys()],
    excluded: o.excluded,
    truncated: o.truncated ?? [],
    sections: sectionReports(o.doc, o.meter),
    packets,
    failures: o.failures ?? [],
    warnings: o.warnings ?? [],
    doc: o.doc,
  }
}
