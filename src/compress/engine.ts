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
import { decorationOf, estimate, estimateSection, mapSections, sectionsOf, type Document, type Item, type Section } from '../structure/document.js'
import type { ExclusionReason } from '../phase.js'
import type { Meter } from '../tokenize/meter.js'
import { fillAndSettle } from './fill.js'
import type { FitPolicy } from './policy.js'
import { cutItem, markerCost, removalUnits, shrinkDocument, shrinkSection } from './shrink.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What the engine works with. */
export interface FitContext {
  /** The budget the rendered output must fit. */
  readonly available: number
  readonly meter: Meter
  /**
   * The exact token count of a document once rendered in the build's output format (the
   * builder memoizes it per document). Use it to decide whether to go on giving way, and
   * the estimates (`cost`) to decide how much.
   */
  readonly measure: (doc: Document) => number
  /**
   * What one item adds to the output in the build's format: its text, decoration and join
   * for a text prompt; its whole message (overhead, every part) for a chat request. The one
   * definition of an item's (a message's) cost, from the renderer.
   */
  readonly cost: (item: Item, section: Section) => number
}

/** A document that fits, and its exact count. */
export interface Settled {
  readonly doc: Document
  readonly tokens: number
  /** Not even the layout's fixed text fits: the document was emptied. */
  readonly nothingFits: boolean
}

/** What {@link fitDocument} returns: the settled document, and the items a section limit or cap took out. */
export interface Fitted extends Settled {
  /** Packet id → the reason of the section `limit` that removed it. */
  readonly limited: ReadonlyMap<string, ExclusionReason>
  /** Packet ids cut or left out for their section's `cap` (`fill` order). */
  readonly sectionCapped: ReadonlySet<string>
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

/**
 * Applies item caps (`Item.cap`): an item longer than its cap, decoration and marker
 * included, is cut to it; one its cap cannot hold with `minKept` tokens of text is removed,
 * with its tool-call group (a unit goes whole). Applying caps twice changes nothing, so a
 * builder may apply them first to see what they removed.
 *
 * @category engine
 * @since 0.2.0
 */
export const applyCaps = (doc: Document, policy: FitPolicy, meter: Meter): Document => {
  const over = (i: Item): boolean => i.cap !== undefined && decorationOf(i, meter) + i.tokens > i.cap
  const capped = (s: Section): Section => {
    if (!s.items.some(over)) return s
    const items = s.items.map((i) => {
      if (!over(i) || i.group !== undefined) return over(i) ? undefined : i
      const keep = i.cap! - decorationOf(i, meter) - markerCost(i, s, meter)
      return keep >= policy.minKept ? cutItem(i, keep, s, meter, policy.minKept) : undefined
    })
    const lost = new Set(s.items.flatMap((i, n) => (items[n] === undefined && i.group !== undefined ? [i.group] : [])))
    return { ...s, items: items.filter((i): i is Item => i !== undefined && (i.group === undefined || !lost.has(i.group))) }
  }
  return mapSections(doc, capped)
}

/**
 * Applies section limits (`Section.limit`): whole units go from the section's `dropFrom` end
 * until at most `limit.items` unpinned items stay.
 *
 * @category engine
 * @since 0.2.0
 */
export const applyLimits = (doc: Document): { readonly doc: Document; readonly limited: ReadonlyMap<string, ExclusionReason> } => {
  const limited = new Map<string, ExclusionReason>()
  const limitedDoc = mapSections(doc, (b): Section => {
    if (b.limit === undefined) return b
    let count = b.items.filter((i) => i.pinned !== true).length
    if (count <= b.limit.items) return b
    const removed = new Set<number>()
    for (const unit of removalUnits(b)) {
      if (count <= b.limit.items || unit.some((i) => b.items[i]!.pinned === true)) break
      for (const i of unit) {
        removed.add(i)
        count--
        const id = b.items[i]!.packetId
        if (id !== undefined) limited.set(id, b.limit.reason)
      }
    }
    return { ...b, items: b.items.filter((_, i) => !removed.has(i)) }
  })
  return { doc: limitedDoc, limited }
}

/**
 * Fits a document by a policy: item caps, section limits, then the policy's order (`rank`:
 * {@link trim} and {@link settle}; `fill`: keep by preference, then settle exactly).
 *
 * @example
 * const fitted = fitDocument(doc, windowPolicy, { available: 4000, meter, measure })
 * fitted.tokens <= 4000 // always
 * @category engine
 * @since 0.2.0
 */
export const fitDocument = (doc: Document, policy: FitPolicy, ctx: FitContext): Fitted => {
  const { doc: limitedDoc, limited } = applyLimits(applyCaps(doc, policy, ctx.meter))
  const settled = policy.order === 'fill' ? fillAndSettle(limitedDoc, policy, ctx) : { ...settle(trim(limitedDoc, policy, ctx), policy, ctx), sectionCapped: new Set<string>() }
  return { ...settled, limited }
}
