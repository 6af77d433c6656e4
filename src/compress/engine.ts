/**
 * The fitting engine: the one place where a layout is made to fit its budget. Every budgeted
 * builder goes through it with its policy (`./policy.ts`) and its renderer's exact count.
 *
 * Two steps:
 * 1. {@link trim} gives way by the policy, on estimates (the items' counts, their decoration
 *    and the joins), measuring the whole output exactly between sections;
 * 2. {@link settle} proves the budget: it counts the rendered output exactly and, while it is
 *    over (BPE is not additive over joins; a compressor of the user's may not cut enough),
 *    gives way again by the measured excess. After a few rounds it stops cutting text and
 *    drops whole units, so it always ends; when not even the layout's fixed text fits, the
 *    output is empty. The count it returns is the exact count of the document it returns,
 *    and never exceeds the budget: the invariant the property tests check, once, here.
 *
 * @module
 */
import { estimate, estimateSection, sectionsOf, type Document } from '../structure/document.js'
import type { Meter } from '../tokenize/meter.js'
import type { FitPolicy } from './policy.js'
import { shrinkDocument, shrinkSection } from './shrink.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What the engine works with. */
export interface FitContext {
  /** The budget the rendered output must fit. */
  readonly available: number
  readonly meter: Meter
  /** The exact token count of a document once rendered (the builder memoizes it per document). */
  readonly measure: (doc: Document) => number
}

/** A document that fits, and its exact count. */
export interface Settled {
  readonly doc: Document
  readonly tokens: number
  /** Not even the layout's fixed text fits: the document was emptied. */
  readonly nothingFits: boolean
}

// -------------------------------------------------------------------------------------
// steps
// -------------------------------------------------------------------------------------

/** After this many rounds the guard stops cutting text and drops whole units only. */
const CUT_ROUNDS = 6

/**
 * Gives way by the policy until the estimate fits. Sections are visited from the highest
 * rank down; before each, the whole output is measured exactly, and the visit stops as soon
 * as it fits (see {@link FitPolicy} for what a visit takes).
 *
 * @category engine
 * @since 0.2.0
 */
export const trim = (doc: Document, policy: FitPolicy, ctx: FitContext): Document => {
  const { available, meter, measure } = ctx
  let current = doc
  const order = [...sectionsOf(doc)].sort((a, b) => b.rank - a.rank)
  const lowest = order[order.length - 1]?.rank
  for (const original of order) {
    const excess = measure(current) - available
    if (excess <= 0) break
    const s = sectionsOf(current).find((x) => x.name === original.name && x.rank === original.rank)
    if (s === undefined || s.items.length === 0) continue
    const whole = policy.halve && s.rank !== lowest && excess * 2 > estimateSection(s, meter)
    const next = whole ? { ...s, items: [] } : shrinkSection(s, excess, meter, policy.cut)
    current = { ...current, blocks: current.blocks.map((b) => (b === s ? next : b)) }
  }
  return current
}

/**
 * Proves the budget: exact count, and more giving way while over (see the module comment).
 *
 * @category engine
 * @since 0.2.0
 */
export const settle = (doc: Document, policy: FitPolicy, ctx: FitContext): Settled => {
  const { available, meter, measure } = ctx
  let current = doc
  for (let round = 0; ; round++) {
    const tokens = measure(current)
    if (tokens <= available) return { doc: current, tokens, nothingFits: false }
    if (sectionsOf(current).every((s) => s.items.length === 0)) {
      // even the fixed text (a template's literals) does not fit: return nothing rather than overflow
      const empty: Document = { blocks: [], joiner: current.joiner }
      return { doc: empty, tokens: measure(empty), nothingFits: true }
    }
    // shrink by what the exact count says is missing, never by less than the estimate's drift
    const drift = Math.max(0, tokens - estimate(current, meter))
    current = shrinkDocument(current, tokens - available + (round > 1 ? drift : 0), meter, round < CUT_ROUNDS && policy.cut)
  }
}
