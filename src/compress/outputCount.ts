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
 * A *line start* splits the same way: a position after a line break (`\n`, `\r`) at a
 * visible character other than `/` (printable ASCII, or a letter of the test above). The
 * pieces that can hold a line break are whitespace runs (`\s*[\r\n]+`, `\s+(?!\S)`, `\s+`)
 * and punctuation followed by line breaks (and, in o200k, slashes); a letter piece's one
 * leading non-letter is never a line break. None of them reaches past a line break into such
 * a character. So the text between two contents (the end of one item, its separator, the
 * next item's decoration and start) is counted as two strings split at its last line start:
 * the same strings the selector counted when it costed each item with its decoration
 * ({@link joinedCount}), which the build's meter remembers, so composing a laid-out output
 * tokenizes little beyond its headings.
 *
 * @module
 */
import type { Counter } from '../output.js'
import type { Span } from '../structure/document.js'
import type { Meter } from '../tokenize/meter.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { edgesOf, isLineStart, wordEnds, type Edges, type Join } from '../tokenize/wordEdges.js'

/** The encodings whose pre-tokenizer pattern the word-end argument above is about. */
const SPLITTABLE: ReadonlySet<string> = new Set(['o200k_base', 'cl100k_base'])

/** Below this length, counting outright costs less than looking for known contents. */
const MIN_COMPOSED_LENGTH = 512

/** The count of `text[from, to)`, split at its last line start at or before `before`. */
const gapCount = (count: (text: string) => number, text: string, from: number, to: number, before: number): number => {
  for (let p = Math.min(before, to - 1); p > from; p--) if (isLineStart(text, p)) return count(text.slice(from, p)) + count(text.slice(p, to))
  return count(text.slice(from, to))
}

/**
 * Whether the text from the previous content's last word end to the content at `start` is
 * that content's tail, its join's `after` (from `at`, where the tail ends), then this
 * content's `before`, split where {@link gapCount} would split it: at the last line start,
 * the one opening `before`. Then its two sides are the strings the joins counted, and their
 * counts are the joins'.
 */
const joinedGap = (text: string, at: number, prev: Join, join: Join, start: number): boolean => {
  const opens = start - join.before.length
  if (opens !== at + prev.after.length || prev.after.length === 0 || !text.startsWith(prev.after, at) || !text.startsWith(join.before, opens) || !isLineStart(text, opens)) return false
  for (let p = opens + 1; p <= start; p++) if (isLineStart(text, p)) return false
  return true
}

/**
 * Whether counts under `tokenizer` add up at word ends (see the module comment): the
 * encodings whose pre-tokenizer pattern the argument is about.
 *
 * @category utils
 */
export const splitsAtWordEnds = (tokenizer: Pick<Tokenizer, 'name'>): boolean => SPLITTABLE.has(tokenizer.name)

/**
 * The count of `before + text + after`, given the count of `text` (`textTokens`). For the
 * splittable encodings it is exact: by the argument of the module comment only `before` with
 * the text's first word and the text's last word with `after` are tokenized (a few
 * characters each); a text without a word end is counted joined when it is short. Otherwise
 * (a long text without a word end, another tokenizer) the parts are counted apart: an
 * estimate, off by a token or so at each join (either way: BPE may merge across a join, and
 * a join may split a whitespace run). `edges` finds the text's {@link Edges} (default: counted
 * with `count`); a build passes its meter's, which finds each content's once, and has the
 * {@link Join} remembered (`remember`).
 *
 * @example
 * joinedCount(count, 'o200k_base', 'user: ', 'hello world', 2, '\n') // === count('user: hello world\n')
 * @category utils
 * @since 0.2.0
 */
export const joinedCount = (
  count: (text: string) => number,
  encoding: string,
  before: string,
  text: string,
  textTokens: number,
  after: string,
  edges: (text: string) => Edges | undefined = (t) => edgesOf(count, t),
  remember?: (text: string, join: Join) => void,
): number => {
  if (!SPLITTABLE.has(encoding)) return count(before) + textTokens + count(after)
  const e = edges(text)
  if (e === undefined) return text.length < MIN_COMPOSED_LENGTH ? count(before + text + after) : count(before) + textTokens + count(after)
  const opening = count(before + text.slice(0, e.first))
  const closing = count(text.slice(e.last) + after)
  remember?.(text, { before, after, opening, closing })
  return textTokens - e.head - e.tail + opening + closing
}

/**
 * The exact count of `text` under `tokenizer`, taking the known counts of the item texts it
 * holds as given: `spans` (from the renderer's provenance, in order) say where each item's
 * text lies, `known` gives the count the build already took of an item text. Only the text
 * between the items' first and last word ends is tokenized (see the module comment). For any
 * other tokenizer, or a short text, it is a plain count. The pieces are counted with `count`
 * (default: the tokenizer's), so a build passes its meter's memo (see {@link meterCount}),
 * `found` gives the {@link Edges} of contents already found with that same `count` (a build's
 * meter keeps them), which are not looked for again, and `joined` the {@link Join} of each,
 * whose counts the text between two joined items is taken from.
 *
 * @example
 * spanCount(tokenizer, 'user: hello world', [{ start: 6, end: 17, packetId: 'h', content: 'hello world' }], () => 2)
 * // === tokenizer.count('user: hello world')
 * @category utils
 */
export const spanCount: SpanCounter = (tokenizer, text, spans, known, count = tokenizer.count, found, joined) =>
  text.length < MIN_COMPOSED_LENGTH ? count(text) : composedCount(tokenizer, text, spans, known, count, found, joined)

/**
 * The exact count of `text` under `tokenizer` from the known counts of the item texts it holds
 * (`spans`, `known`), the rest counted with `count`; `found` and `joined` give what a build's
 * meter found of each content already (see {@link spanCount}).
 *
 * @category model
 */
export type SpanCounter = (
  tokenizer: Tokenizer,
  text: string,
  spans: ReadonlyArray<Span>,
  known: (content: string) => number | undefined,
  count?: (text: string) => number,
  found?: (content: string) => Edges | undefined,
  joined?: (content: string) => Join | undefined,
) => number

/**
 * {@link spanCount} of a text of any length, composed from the known counts of the item texts
 * it holds: for a short text whose items were counted already, where counting it whole would
 * tokenize them again (a layout probe: `src/select/layoutAware.ts`).
 *
 * @category utils
 */
export const composedCount: SpanCounter = (tokenizer, text, spans, known, count = tokenizer.count, found, joined) => {
  if (!SPLITTABLE.has(tokenizer.name) || spans.length === 0) return count(text)
  let total = 0
  let from = 0 // start of the text not yet counted
  // the previous content's join and tail length, when it ends the text counted so far (`from`
  // is its last word end); two variables, not an object per content
  let prev: Join | undefined
  let prevTail = 0
  for (const span of spans) {
    if (span.start < from) continue
    const content = span.content
    const tokens = content.length >= 16 ? known(content) : undefined
    // edges found already (with `count`) are the numbers counting the slices would give
    const e = tokens === undefined ? undefined : found?.(content)
    let first: number
    let last: number
    if (e !== undefined && e.first < e.last) {
      first = e.first
      last = e.last
    } else {
      const ends = tokens === undefined || e !== undefined ? undefined : wordEnds(content)
      if (ends === undefined) {
        prev = undefined
        continue
      }
      ;[first, last] = ends
    }
    // the text before this content's first word end, then its middle from the known count
    const join = e === undefined ? undefined : joined?.(content)
    total += prev !== undefined && join !== undefined && joinedGap(text, from + prevTail, prev, join, span.start) ? prev.closing + join.opening : gapCount(count, text, from, span.start + first, span.start)
    total += tokens! - (e === undefined ? count(content.slice(0, first)) + count(content.slice(last)) : e.head + e.tail)
    from = span.start + last
    prev = join
    prevTail = content.length - last
  }
  return total + count(text.slice(from))
}

/**
 * A build's memoized count: a text its meter counted already is not tokenized again (any
 * length), any other through the meter.
 *
 * @category utils
 */
export const meterCount = (meter: Meter): ((text: string) => number) => meter.once

/**
 * The counter a build counts its output with: a string the renderer joined from item texts
 * is counted with {@link spanCount} over the counts the build's meter took; any other string
 * through the meter (once per build).
 *
 * @category utils
 */
export const outputCounter = (meter: Meter, spans: ReadonlyMap<string, ReadonlyArray<Span>>): Counter => ({
  count: (text) => {
    const own = spans.get(text)
    if (own === undefined) return meter.text(text)
    // a text that is one item's whole content is already counted
    const only = own.length === 1 && own[0]!.start === 0 && own[0]!.end === text.length ? meter.counted(text) : undefined
    return only ?? spanCount(meter.tokenizer, text, own, meter.counted, meterCount(meter), meter.found, meter.joined)
  },
})
