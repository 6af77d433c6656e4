/**
 * The truncating compressor (the seed's TruncateCompressor, on structure instead of text).
 *
 * Sections are visited from the highest rank down: in the default layout Notes, Context,
 * Evidence, State, Output, Task, and Role & Policies last. While the document is over budget,
 * the visited section loses what is needed — whole items from its cheap end, then a cut at a
 * line or sentence boundary with a visible marker — as long as at least half of it stays
 * (the seed's "halve it"); when more than half would have to go, the whole section is dropped
 * (the seed's "then drop it") and the next one is visited. The last section (P0) is never
 * dropped while any of it can fit: it is cut to fit instead.
 *
 * The seed halves a section even when a few tokens would do; this cuts only what is needed.
 *
 * @module
 */
import { estimateSection, sectionsOf } from '../structure/document.js'
import { shrinkSection, type Compressor } from './compressor.js'

/**
 * @example
 * pipe(structured, compress(truncate()))
 * @category constructors
 * @since 0.1.0
 */
export const truncate =
  (): Compressor =>
  (doc, { available, meter, measure }) => {
    let current = doc
    const order = [...sectionsOf(doc)].sort((a, b) => b.rank - a.rank)
    const lowest = order[order.length - 1]?.rank
    for (const original of order) {
      const excess = measure(current) - available
      if (excess <= 0) break
      const s = sectionsOf(current).find((x) => x.name === original.name && x.rank === original.rank)
      if (s === undefined || s.items.length === 0) continue
      const cost = estimateSection(s, meter)
      const next =
        excess * 2 > cost && s.rank !== lowest ? { ...s, items: [] } : shrinkSection(s, excess, meter, true)
      current = { ...current, blocks: current.blocks.map((b) => (b === s ? next : b)) }
    }
    return current
  }
