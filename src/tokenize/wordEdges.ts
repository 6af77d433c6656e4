/**
 * Word ends and line starts: the positions where, for the o200k and cl100k pre-tokenizers,
 * a text's count splits into the counts of its two sides. Why that holds is argued in
 * `compress/outputCount.ts`, which composes an output's exact count from them; a build's meter
 * (`meter.ts`) keeps each content's {@link Edges} and {@link Join}, so they live here, beside
 * it, not in the compress stage.
 *
 * @module
 */

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
 * Whether `p` is a word end of `t` (see `compress/outputCount.ts`'s module comment): the character before `p` is a
 * letter and the one at `p` cannot continue a piece holding that letter.
 *
 * @category utils
 */
export const isWordEnd = (t: string, p: number): boolean =>
  p > 0 && p < t.length && isLetter(t.charCodeAt(p - 1)) && isWordBreak(t.charCodeAt(p))

/**
 * Whether `p` is a line start of `t` (see `compress/outputCount.ts`'s module comment): the character before `p` is
 * a line break and the one at it is printable ASCII other than `/`, or a letter.
 *
 * @category utils
 */
export const isLineStart = (t: string, p: number): boolean => {
  if (p <= 0 || p >= t.length) return false
  const b = t.charCodeAt(p - 1)
  const c = t.charCodeAt(p)
  return (b === 10 || b === 13) && ((c > 32 && c < 127 && c !== 47) || isLetter(c))
}

/**
 * The first and last word ends of `t`, or undefined when they do not enclose anything (or,
 * with `one`, when there is none: then a single word end is both).
 *
 * @category utils
 */
export const wordEnds = (t: string, one = false): readonly [number, number] | undefined => {
  let first = -1
  for (let p = 1; p < t.length; p++)
    if (isWordEnd(t, p)) {
      first = p
      break
    }
  if (first < 0) return undefined
  for (let p = t.length - 1; p > first; p--) if (isWordEnd(t, p)) return [first, p]
  return one ? [first, first] : undefined
}

/**
 * A text's first and last word ends (`last` is `first` when it has only one) and the counts
 * of the text before the first (`head`) and from the last (`tail`): what joining the text to
 * its decoration (`joinedCount`) and composing an output around it (`spanCount`) both need
 * (`compress/outputCount.ts`). A build's meter keeps them (`Meter.edges`), so each content's
 * are found once.
 *
 * @category model
 */
export interface Edges {
  readonly first: number
  readonly last: number
  readonly head: number
  readonly tail: number
}

/**
 * The {@link Edges} of `t` counted with `count`, or undefined when it has no word end.
 *
 * @category utils
 */
export const edgesOf = (count: (text: string) => number, t: string): Edges | undefined => {
  const ends = wordEnds(t, true)
  return ends === undefined ? undefined : { first: ends[0], last: ends[1], head: count(t.slice(0, ends[0])), tail: count(t.slice(ends[1])) }
}

/**
 * How a content was joined to its decoration (`joinedCount`): the text before and after
 * it, and the counts of `before` with the content's head (`opening`) and of its tail with
 * `after` (`closing`). Between two items laid out one after the other lies one's closing and
 * the next one's opening, so an output's count takes these numbers instead of slicing that
 * text out and looking it up again. A build's meter keeps them (`Meter.joined`).
 *
 * @category model
 */
export interface Join {
  readonly before: string
  readonly after: string
  readonly opening: number
  readonly closing: number
}
