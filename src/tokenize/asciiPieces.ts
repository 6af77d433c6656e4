/**
 * The pre-tokenizers of o200k_base and cl100k_base on ASCII text, written out: where the
 * encoding's regex would end the piece that starts at a given offset, found by one scan of
 * character classes, or −1 when the scan meets a character past ASCII (then the regex
 * decides that piece).
 *
 * Why: compiling either regex (Unicode property classes) is 10–20 ms of a process's first
 * count, and an ASCII message never needs it; a scan over a class table also beats a sticky
 * regex test per piece. On ASCII the classes are few (letters are `A-Z` and `a-z`, numbers
 * `0-9`, `\s` is `\t\n\v\f\r` and space), and each rule below is the regex's alternative with
 * its backtracking worked out; a property test holds both splitters to the regex's pieces.
 *
 * @module
 */
import type { EncodingName } from './bpe.js'

/** Which encoding's rules: its name. */
export type AsciiRules = EncodingName

const UPPER = 1
const LOWER = 2
const DIGIT = 3
const CRLF = 4 // \r \n
const SPACE = 5 // \t \v \f and ' '
const OTHER = 6 // punctuation, symbols, control characters

/** ASCII character classes: a read-only table built once. */
const CLASS: Uint8Array = (() => {
  const t = new Uint8Array(128).fill(OTHER)
  for (let c = 0; c < 128; c++)
    if (c >= 65 && c <= 90) t[c] = UPPER
    else if (c >= 97 && c <= 122) t[c] = LOWER
    else if (c >= 48 && c <= 57) t[c] = DIGIT
    else if (c === 10 || c === 13) t[c] = CRLF
    else if (c === 32 || (c >= 9 && c <= 12)) t[c] = SPACE
  return t
})()

const PAST_ASCII = 0 // a class of its own: the scan gives up

// The class of code unit text[i]: 0 past ASCII, and −1 past the text's end (`n` units).
const at = (text: Uint16Array, n: number, i: number): number => {
  if (i >= n) return -1
  const c = text[i]!
  return c < 128 ? CLASS[c]! : PAST_ASCII
}

const isLetter = (k: number): boolean => k === UPPER || k === LOWER
const isSpace = (k: number): boolean => k === SPACE || k === CRLF

/**
 * The end of the piece `rules`' regex matches at `from` (which must be inside the text: its
 * `n` code units, `text[0, n)`, see `codeUnits`), or −1 when deciding it would read a
 * character past ASCII.
 *
 * @category utils
 */
export const asciiPieceEnd = (rules: AsciiRules, text: Uint16Array, n: number, from: number): number => {
  const k = at(text, n, from)
  if (k === PAST_ASCII) return -1
  if (rules === 'cl100k_base') {
    const contraction = contractionEnd(text, n, from)
    if (contraction !== 0) return contraction
  }
  // letters, after at most one character that is neither a letter, a number nor \r \n
  const prefixed = k === SPACE || k === OTHER
  const first = prefixed ? at(text, n, from + 1) : k
  if (first === PAST_ASCII) return -1
  if (isLetter(first)) return letters(rules, text, n, prefixed ? from + 1 : from)
  if (k === DIGIT) {
    let i = from + 1
    while (i < from + 3 && at(text, n, i) === DIGIT) i++
    // a number past ASCII (², ٣) would join the piece
    return i < from + 3 && at(text, n, i) === PAST_ASCII ? -1 : i
  }
  // punctuation, after at most one space, then line breaks (and slashes, o200k)
  const punct = k === OTHER ? from : k === SPACE && text[from] === 32 && first === OTHER ? from + 1 : -1
  if (punct >= 0) {
    let i = punct + 1
    let c: number
    while ((c = at(text, n, i)) === OTHER || c === PAST_ASCII) {
      if (c === PAST_ASCII) return -1
      i++
    }
    // (no character past ASCII is one of these)
    while (at(text, n, i) === CRLF || (rules === 'o200k_base' && i < n && text[i] === 47)) i++
    return i
  }
  return whitespace(text, n, from)
}

// A run of letters from `from`: o200k's `[A-Z]*[a-z]*` (what its two letter alternatives
// match together, once backtracking is worked out) then a contraction; cl100k's `[A-Za-z]+`.
const letters = (rules: AsciiRules, text: Uint16Array, n: number, from: number): number => {
  let i = from
  let k: number
  if (rules === 'cl100k_base') {
    while (isLetter((k = at(text, n, i)))) i++
    return k === PAST_ASCII ? -1 : i
  }
  while ((k = at(text, n, i)) === UPPER) i++
  while (k === LOWER) k = at(text, n, ++i)
  if (k === PAST_ASCII) return -1
  const contraction = contractionEnd(text, n, i)
  return contraction < 0 ? -1 : contraction === 0 ? i : contraction
}

// `(?i:'s|'t|'re|'ve|'m|'ll|'d)` at `i`: its end, 0 for none, −1 when a character past ASCII
// would decide.
const contractionEnd = (text: Uint16Array, n: number, i: number): number => {
  if (i + 1 >= n || text[i] !== 39) return 0
  // case-insensitive under Unicode rules: ſ (U+017F) is an s
  if (text[i + 1]! >= 128) return -1
  const c = text[i + 1]! | 32
  if (c === 115 || c === 116 || c === 109 || c === 100) return i + 2 // s t m d
  if (c !== 114 && c !== 118 && c !== 108) return 0 // r v l
  if (i + 2 >= n) return 0
  const d = text[i + 2]!
  if (d >= 128) return -1
  return (d | 32) === (c === 108 ? 108 : 101) ? i + 3 : 0 // 'll, 're, 've
}

// The whitespace alternatives from `from` (a whitespace character): `\s*[\r\n]+` (the run up
// to its last line break), else `\s+(?!\S)` (the run but its last character, when something
// follows and the run is longer than one), else `\s+`.
const whitespace = (text: Uint16Array, n: number, from: number): number => {
  let i = from
  let lastBreak = -1
  let k: number
  while (isSpace((k = at(text, n, i)))) {
    if (k === CRLF) lastBreak = i
    i++
  }
  // a character past ASCII may be whitespace too (U+00A0, U+3000…)
  if (k === PAST_ASCII) return -1
  if (lastBreak >= 0) return lastBreak + 1
  return k === -1 || i - from === 1 ? i : i - 1
}
