/**
 * The exact count of a text that shares a run of items with a text whose count is known:
 * only the text around the shared run is tokenized.
 *
 * Two outputs of the same layout that differ in which turns they show (a turn appended, the
 * oldest ones left out) share a run of item texts, the same bytes in both. Split both at a
 * word end inside the run's first item and at one inside its last: counts add up at word ends
 * (see `src/compress/outputCount.ts`), and the two middles are the same text, so
 *
 *     count(after) = count(before) − count(before's ends) + count(after's ends).
 *
 * The ends are counted with `spanCount`, over the item counts the build knows.
 *
 * @module
 */
import type { Span } from '../structure/document.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { isWordEnd, spanCount, splitsAtWordEnds, wordEnds } from '../compress/outputCount.js'

/** A rendered text and the spans of its items' texts. */
export interface SpannedOutput {
  readonly text: string
  readonly spans: ReadonlyArray<Span>
}

/** What {@link exactCountChange} compares. */
export interface CountChange {
  readonly tokenizer: Tokenizer
  /** The text whose exact count is known. */
  readonly before: SpannedOutput & { readonly tokens: number }
  readonly after: SpannedOutput
  /** The known count of an item text, if any. */
  readonly known: (content: string) => number | undefined
  /** Counts the text around the items (default: the tokenizer's; a build passes its meter's memo). */
  readonly count?: (text: string) => number
}

/** The count of `text.slice(from, to)`, its items' known counts taken. */
const countSlice = (c: CountChange, o: SpannedOutput, from: number, to: number): number => {
  const spans = o.spans.filter((s) => s.start >= from && s.end <= to).map((s) => ({ ...s, start: s.start - from, end: s.end - from }))
  return spanCount(c.tokenizer, o.text.slice(from, to), spans, c.known, c.count)
}

/**
 * The exact count of `after`, or undefined when the two texts share no run of items with
 * word ends to split at (or the tokenizer's counts do not add up at word ends).
 *
 * @example
 * exactCountChange({ tokenizer, before: { text, spans, tokens: tokenizer.count(text) }, after, known: () => undefined })
 * // === tokenizer.count(after.text), whenever defined
 * @category utils
 */
export const exactCountChange = (c: CountChange): number | undefined => {
  if (!splitsAtWordEnds(c.tokenizer)) return undefined
  const { before, after } = c
  // the run: from after's first history item, as long as both show the same items in order
  const shown = new Set(before.spans.map((s) => s.packetId))
  const k0 = after.spans.findIndex((s) => s.packetId.startsWith('history:') && shown.has(s.packetId))
  if (k0 < 0) return undefined
  const j0 = before.spans.findIndex((s) => s.packetId === after.spans[k0]!.packetId)
  let run = 0
  while (
    k0 + run < after.spans.length &&
    j0 + run < before.spans.length &&
    after.spans[k0 + run]!.packetId === before.spans[j0 + run]!.packetId &&
    after.spans[k0 + run]!.content === before.spans[j0 + run]!.content
  )
    run++
  let first: readonly [number, number] | undefined
  for (let t = 0; t < run && first === undefined; t++) {
    const ends = wordEnds(after.spans[k0 + t]!.content)
    if (ends !== undefined) first = [t, ends[0]]
  }
  let last: readonly [number, number] | undefined
  for (let t = run - 1; t >= 0 && last === undefined; t--) {
    const ends = wordEnds(after.spans[k0 + t]!.content)
    if (ends !== undefined) last = [t, ends[1]]
  }
  if (first === undefined || last === undefined || (first[0] === last[0] && first[1] >= last[1])) return undefined
  const p1 = before.spans[j0 + first[0]]!.start + first[1]
  const p2 = before.spans[j0 + last[0]]!.start + last[1]
  const q1 = after.spans[k0 + first[0]]!.start + first[1]
  const q2 = after.spans[k0 + last[0]]!.start + last[1]
  // the middles are the same items with the same text between them (a full comparison would
  // cost a tenth of the rebuild; the property test compares every count with a cold build's)
  if (p2 - p1 !== q2 - q1) return undefined
  // the text both start with, and end with, is not counted either: cut it at a word end
  const e1 = sharedStart(before.text, after.text, Math.min(p1, q1))
  const shift = after.text.length - before.text.length
  const e2 = sharedEnd(before.text, after.text, Math.max(p2, q2 - shift))
  return (
    before.tokens -
    countSlice(c, before, e1, p1) -
    countSlice(c, before, p2, e2) +
    countSlice(c, after, e1, q1) +
    countSlice(c, after, q2, e2 + shift)
  )
}

/** The last word end both texts have at the same place within the start they share (at most `limit`), or 0. */
const sharedStart = (a: string, b: string, limit: number): number => {
  let same = 0
  while (same < limit && a.charCodeAt(same) === b.charCodeAt(same)) same++
  // a word end at p reads the characters at p − 1 and p: both within the shared start
  for (let p = Math.min(same, limit) - 1; p > 0; p--) if (isWordEnd(a, p)) return p
  return 0
}

/** In `a`'s positions, the first word end both texts have within the end they share (from `from` on), or `a`'s end. */
const sharedEnd = (a: string, b: string, from: number): number => {
  const shift = b.length - a.length
  let start = a.length // `a.slice(start)` is the end both share
  while (start > from && start + shift > 0 && a.charCodeAt(start - 1) === b.charCodeAt(start - 1 + shift)) start--
  for (let p = Math.max(start + 1, from); p < a.length; p++) if (isWordEnd(a, p)) return p
  return a.length
}
