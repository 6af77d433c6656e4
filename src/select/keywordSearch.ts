/**
 * Counting a query's keywords in a packet by searching for them, instead of reading every
 * word of the packet: what relevance runs on each of a build's candidates (1,000 passages of
 * evidence are 200,000 characters, most of them words that can match no keyword).
 *
 * A word whose stem is `s` starts with `s` (the stemmer only strips endings, undoubles and
 * drops a final `e`), or with `s` minus its final `y` (`flies` → `fly`). So each keyword's
 * *prefix* is looked for with `indexOf` (native, a few hundred MB/s), and an occurrence is
 * taken only when a word of `WORD_OR_RUN` (keywords.ts) starts there and stems to the
 * keyword. The word segmentation is the regular expression's, read around the occurrence:
 * a maximal run of word characters (`[\p{L}\p{M}\p{N}_]`) and unspaced-script characters is
 * matched from its left, an unspaced run first; so an occurrence starts a word exactly when
 * the character before it is neither (nor the end of a word still going on), or when the
 * unspaced characters before it end an unspaced run. A property test checks the counts
 * against `countWords` on arbitrary text.
 *
 * @module
 */
import { isUnspaced, stemmer } from './keywords.js'

const WORD_CHAR = /^[\p{L}\p{M}\p{N}_]$/u

/** ASCII characters of `[\p{L}\p{M}\p{N}_]`. */
const isAsciiWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95

/** The code point ending just before `p` (a surrogate pair read whole). */
const codePointBefore = (t: string, p: number): number => {
  const lo = t.charCodeAt(p - 1)
  if (lo >= 0xdc00 && lo <= 0xdfff && p >= 2) {
    const hi = t.charCodeAt(p - 2)
    if (hi >= 0xd800 && hi <= 0xdbff) return (hi - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000
  }
  return lo
}

/** Character classes of non-ASCII code points, decided by the regular expressions, remembered per counter. */
const classifier = () => {
  const known = new Map<number, number>() // bit 1: word character, bit 2: unspaced script
  return (cp: number): number => {
    if (cp < 128) return isAsciiWordChar(cp) ? 1 : 0
    let k = known.get(cp)
    if (k === undefined) {
      const ch = String.fromCodePoint(cp)
      k = (WORD_CHAR.test(ch) ? 1 : 0) | (isUnspaced(ch) ? 2 : 0)
      known.set(cp, k)
    }
    return k
  }
}

/**
 * How many of `wanted` (stemmed spaced-script keywords) occur as words of a lowercased text,
 * counted as `countWords` counts them; `undefined` when a keyword is shorter than 3
 * characters (its prefix would match almost anywhere: scan the words instead).
 *
 * @example
 * keywordSearch(new Set(['build', 'fail']))?.('the builds failed.') // 2
 * @category utils
 */
export const keywordSearch = (wanted: ReadonlySet<string>): ((lower: string) => number) | undefined => {
  const targets: Array<readonly [string, string]> = []
  for (const s of wanted) {
    if (s.length < 3) return undefined
    // a word starting in an unspaced script is never counted (a stem keeps its first letter)
    if (!isUnspaced(s)) targets.push([s, s.endsWith('y') ? s.slice(0, -1) : s])
  }
  const classOf = classifier()
  const stemOf = stemmer()
  /** Whether a word of the regular expression starts at `i` (the character at `i` is a word character, not unspaced). */
  const startsWord = (t: string, i: number): boolean => {
    let p = i
    let allWord = true
    // the unspaced characters just before i: an unspaced run ends at i unless a word reads through them
    while (p > 0) {
      const cp = codePointBefore(t, p)
      const k = classOf(cp)
      if ((k & 2) === 0) break
      if ((k & 1) === 0) allWord = false
      p -= cp > 0xffff ? 2 : 1
    }
    return !allWord || p === 0 || (classOf(codePointBefore(t, p)) & 1) === 0
  }
  /** The end of the word starting at `i`: its word characters, unspaced or not. */
  const wordEnd = (t: string, i: number): number => {
    let j = i
    while (j < t.length) {
      const c = t.charCodeAt(j)
      if (c < 128) {
        if (!isAsciiWordChar(c)) break
        j++
        continue
      }
      const cp = t.codePointAt(j)!
      if ((classOf(cp) & 1) === 0) break
      j += cp > 0xffff ? 2 : 1
    }
    return j
  }
  return (lower) => {
    let hits = 0
    for (const [s, prefix] of targets)
      for (let i = lower.indexOf(prefix); i >= 0; i = lower.indexOf(prefix, i + 1))
        if (startsWord(lower, i) && stemOf(lower.slice(i, wordEnd(lower, i))) === s) {
          hits++
          break
        }
    return hits
  }
}
