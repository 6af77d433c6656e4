/**
 * The exact count of a rendered output, without tokenizing all of it a second time.
 *
 * The compress stage counts the final output exactly. Most of that output is packet content
 * the selector has just counted, so for the tiktoken encodings the count is assembled from
 * those counts instead, and only the text around them is tokenized: headings, labels,
 * separators, and each content's first and last word.
 *
 * Why this is exact. o200k_base and cl100k_base split text into pieces with a regular
 * expression and merge tokens only inside a piece, so a text's count is the sum of its
 * pieces' counts. Call a position `p` a *word end* when the character before it is a letter
 * and the character at it is neither a letter, a combining mark nor an apostrophe. Every
 * piece that contains a letter comes from a letter alternative of the pattern: at most one
 * leading non-letter, letters and marks, then an optional contraction (`'s`, `'ll`…). Such a
 * piece cannot reach past a word end, so a piece always ends there, whatever comes before
 * or after. Matching from a piece's end depends only on the text after it (the patterns have
 * no lookbehind, and their one lookahead, `\s+(?!\S)`, cannot end at a letter), so:
 *
 *     count(a + b) = count(a) + count(b)   whenever a + b has a word end at |a|.
 *
 * Both conditions are about the two characters beside `p`, so a word end inside a content is
 * a word end wherever that content appears. For a content `t` with known count `n`, first
 * word end `i` and last word end `j`, the middle `t[i..j]` counts `n − count(t[..i]) −
 * count(t[j..])`, and the output is the sum of those middles and of the counted text
 * between them. A property test checks the identity against plain counting.
 *
 * @module
 */
import type { Document } from '../structure/document.js'
import { isRendered, sectionsOf } from '../structure/document.js'
import type { Meter } from '../tokenize/meter.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'

/** The encodings whose pre-tokenizer pattern the word-end argument above is about. */
const SPLITTABLE: ReadonlySet<string> = new Set(['o200k_base', 'cl100k_base'])

/** Below this length, counting outright costs less than looking for known contents. */
const MIN_COMPOSED_LENGTH = 512

/** After this many known contents missing from one text, the rest is counted outright. */
const MAX_MISSES = 4

/** A text whose exact count is known. */
export interface KnownText {
  readonly text: string
  readonly tokens: number
}

/**
 * Letters the word-end test accepts before `p`: ASCII letters, and the CJK Unified
 * Ideographs of Unicode 1.1 (all assigned, all `\p{Lo}`). Other letters are fine too; these
 * cover English, code, JSON and Chinese without a Unicode table.
 */
const isLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 0x4e00 && c <= 0x9fa5)

/**
 * Characters the word-end test accepts at `p`: ASCII except letters and the apostrophe,
 * and the common CJK punctuation marks (、 。 ， ！ ？ ： ；), none a letter or a mark.
 */
const isWordBreak = (c: number): boolean =>
  c < 128
    ? !((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 39)
    : c === 0x3001 || c === 0x3002 || c === 0xff0c || c === 0xff01 || c === 0xff1f || c === 0xff1a || c === 0xff1b

/**
 * Whether `p` is a word end of `t` (see the module comment): the character before `p` is a
 * letter and the one at `p` cannot continue a piece holding that letter.
 *
 * @category utils
 */
export const isWordEnd = (t: string, p: number): boolean =>
  p > 0 && p < t.length && isLetter(t.charCodeAt(p - 1)) && isWordBreak(t.charCodeAt(p))

/** The first and last word ends of `t`, or undefined when they do not enclose anything. */
const wordEnds = (t: string): readonly [number, number] | undefined => {
  let first = -1
  for (let p = 1; p < t.length; p++)
    if (isWordEnd(t, p)) {
      first = p
      break
    }
  if (first < 0) return undefined
  for (let p = t.length - 1; p > first; p--) if (isWordEnd(t, p)) return [first, p]
  return undefined
}

/**
 * A counter equal to `tokenizer.count` that takes the counts of `known` texts as given:
 * an exact match is looked up, and a long text is split at the word ends of the known texts
 * it contains, in order, so only the text between their middles is tokenized. For any other
 * tokenizer it is `tokenizer.count` itself.
 *
 * @example
 * const count = composedCount(tokenizer, [{ text: content, tokens: 57 }])
 * count(`user: ${content}\n`) === tokenizer.count(`user: ${content}\n`) // true
 * @category utils
 */
export const composedCount = (tokenizer: Tokenizer, known: ReadonlyArray<KnownText>): ((text: string) => number) => {
  if (!SPLITTABLE.has(tokenizer.name) || known.length === 0) return tokenizer.count
  const byText = new Map<string, number>()
  const parts: Array<{ readonly text: string; readonly tokens: number; readonly first: number; readonly last: number }> = []
  for (const k of known) {
    byText.set(k.text, k.tokens)
    const ends = k.text.length >= 16 ? wordEnds(k.text) : undefined
    if (ends !== undefined) parts.push({ text: k.text, tokens: k.tokens, first: ends[0], last: ends[1] })
  }
  return (text) => {
    const hit = byText.get(text)
    if (hit !== undefined) return hit
    if (text.length < MIN_COMPOSED_LENGTH) return tokenizer.count(text)
    let total = 0
    let from = 0 // start of the text not yet counted
    let cursor = 0 // where the next known content may start
    let misses = 0
    for (const part of parts) {
      const at = text.indexOf(part.text, cursor)
      if (at < 0) {
        if (++misses > MAX_MISSES) break
        continue
      }
      const head = part.text.slice(0, part.first)
      const tail = part.text.slice(part.last)
      // the text before this content's first word end, then its middle from the known count
      total += tokenizer.count(text.slice(from, at + part.first))
      total += part.tokens - tokenizer.count(head) - tokenizer.count(tail)
      from = at + part.last
      cursor = at + part.text.length
    }
    return total + tokenizer.count(text.slice(from))
  }
}

/**
 * The texts of a document's items whose exact counts the build's meter knows, in output
 * order: what {@link composedCount} needs to count the rendered document.
 *
 * @category utils
 */
export const knownItemTexts = (doc: Document, meter: Meter): ReadonlyArray<KnownText> => {
  const known: KnownText[] = []
  for (const s of sectionsOf(doc)) {
    if (!isRendered(s)) continue
    for (const item of s.items) {
      const tokens = meter.counted(item.text)
      if (tokens !== undefined && item.text.length > 0) known.push({ text: item.text, tokens })
    }
  }
  return known
}
