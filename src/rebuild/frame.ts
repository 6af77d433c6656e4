/**
 * The layout's text around a history window (`./windowCount.ts`): what comes before the
 * window's first turn and after its last, and their counts, which stay the same from build
 * to build while only the window moves.
 *
 * @module
 */
import { spanCount } from '../compress/outputCount.js'
import { isLineStart } from '../tokenize/wordEdges.js'
import { renderBlocks, type Document, type Item, type Section, type Span } from '../structure/document.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'

/** The layout around the window: its text before the first turn's label, and after the last turn's suffix, with their item spans. */
export interface Frame {
  readonly opening: string
  readonly openingSpans: ReadonlyArray<Span>
  readonly closing: string
  readonly closingSpans: ReadonlyArray<Span>
}

/**
 * The counts of the text around the window that do not depend on its turns, split at line
 * starts (where counts add up too): kept from build to build, so the layout's own text is
 * not tokenized again.
 */
export interface FrameCounts {
  /** Tokens of the opening text, when it ends with a line break (a turn's label then starts a line). */
  readonly opening: number | undefined
  /** The closing text up to its first line start: counted with the last turn's end. */
  readonly closingLead: string
  /** Tokens of the closing text from its first line start on. */
  readonly closingRest: number
}

/**
 * The frame's counts.
 *
 * @category utils
 */
export const frameCounts = (tokenizer: Tokenizer, count: (text: string) => number, known: (content: string) => number | undefined, f: Frame): FrameCounts => {
  const { opening, closing } = f
  const last = opening.charCodeAt(opening.length - 1)
  let p = 1
  while (p < closing.length && !isLineStart(closing, p)) p++
  // an item of the closing text before its first line start: counted with the lead, as text
  const lead = Math.min(p, ...f.closingSpans.map((s) => s.start))
  return {
    opening: last === 10 || last === 13 ? spanCount(tokenizer, opening, f.openingSpans, known, count) : undefined,
    closingLead: closing.slice(0, lead),
    closingRest: lead >= closing.length ? 0 : spanCount(tokenizer, closing.slice(lead), f.closingSpans.map((s) => ({ ...s, start: s.start - lead, end: s.end - lead })), known, count),
  }
}

/**
 * The text around a window of `context`'s turns in `doc`: `one` (a turn's item) rendered
 * alone, less itself.
 *
 * @category utils
 */
export const frameOf = (doc: Document, context: Section, one: Item): Frame | undefined => {
  const r = renderBlocks(doc.blocks.map((b) => (b === context ? { ...context, items: [one] } : b)), doc.joiner)
  const span = r.spans.find((s) => s.packetId === one.packetId)
  if (span === undefined) return undefined
  const open = span.start - one.prefix.length
  const close = span.end + (one.suffix?.length ?? 0)
  return {
    opening: r.text.slice(0, open),
    openingSpans: r.spans.filter((s) => s.end <= open),
    closing: r.text.slice(close),
    closingSpans: r.spans.filter((s) => s.start >= close).map((s) => ({ ...s, start: s.start - close, end: s.end - close })),
  }
}
