/**
 * Pre-tokenization: splitting text into pieces with the encoding's own regex (`pat_str`, flags
 * `u`), exactly where js-tiktoken's `matchAll` splits it, but without allocating a match
 * array per piece.
 *
 * The encodings' regexes match every character, so pieces are contiguous: a sticky `test()`
 * at the end of the previous piece finds the next one, and `lastIndex` is its end. Should a
 * character ever match nothing, a global `exec` from the same place finds the next match, as
 * `matchAll` would. For o200k_base and cl100k_base, a piece of ASCII text is found by a scan
 * instead (`asciiPieces.ts`): the regex is compiled only once some text needs it.
 *
 * @module
 */
import { asciiPieceEnd, type AsciiRules } from './asciiPieces.js'

/** The two compiled forms of one pre-tokenizer pattern, and its ASCII rules when known. */
export interface Splitter {
  /**
   * Flags `uy`: matches only at `lastIndex`. Compiled on first use: compiling a pattern of
   * Unicode property classes costs 10–20 ms of a process's first count, which ASCII text
   * split by `ascii` never needs.
   */
  readonly sticky: () => RegExp
  /** Flags `gu`: searches from `lastIndex`. Compiled on first use: the sticky form almost always matches. */
  readonly global: () => RegExp
  /** The pattern's rules written out for ASCII text (`asciiPieces.ts`), when it is one of those. */
  readonly ascii: AsciiRules | undefined
}

/**
 * Compiles a pre-tokenizer pattern (on first use). Capturing groups become non-capturing
 * (they change no match, only what a match records). Give `ascii` only for the pattern
 * those rules are written from.
 *
 * @example
 * const splitter = compileSplitter(ranks.pat_str, 'o200k')
 * @category constructors
 */
export const compileSplitter = (pattern: string, ascii?: AsciiRules): Splitter => {
  const source = nonCapturing(pattern)
  let sticky: RegExp | undefined
  let global: RegExp | undefined
  return {
    sticky: () => (sticky ??= new RegExp(source, 'uy')),
    global: () => (global ??= new RegExp(source, 'gu')),
    ascii,
  }
}

/**
 * Rewrites `(` that opens a capturing group to `(?:`, leaving escapes and character classes
 * alone.
 *
 * @example
 * nonCapturing("('s|'t)|[(]\\(") // "(?:'s|'t)|[(]\\("
 * @category utils
 */
export const nonCapturing = (pattern: string): string => {
  let out = ''
  let inClass = false
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '')
      i++
      continue
    }
    if (inClass) inClass = c !== ']'
    else if (c === '[') inClass = true
    else if (c === '(' && pattern[i + 1] !== '?') {
      out += '(?:'
      continue
    }
    out += c
  }
  return out
}

/**
 * Finds the piece at or after UTF-16 offset `from`: returns its end and writes its start to
 * `start[0]`, or returns −1 when no piece is left. `units` holds the text's code units
 * (`codeUnits`), which the ASCII scan reads; the regex reads the string.
 *
 * @category utils
 */
export const nextPiece = (splitter: Splitter, text: string, units: Uint16Array, from: number, start: Int32Array): number => {
  // nothing is left (an empty match there would yield no token): asking the global form would
  // compile it, milliseconds of every first count, only to learn that
  if (from >= text.length) return -1
  const end = splitter.ascii === undefined ? -1 : asciiPieceEnd(splitter.ascii, units, text.length, from)
  if (end > from) {
    start[0] = from
    return end
  }
  const sticky = splitter.sticky()
  sticky.lastIndex = from
  if (sticky.test(text) && sticky.lastIndex > from) {
    start[0] = from
    return sticky.lastIndex
  }
  const global = splitter.global()
  global.lastIndex = from
  for (;;) {
    const m = global.exec(text)
    if (m === null) return -1
    if (m[0].length > 0) {
      start[0] = m.index
      return m.index + m[0].length
    }
    // An empty match yields no token; step over one code point, as matchAll does.
    const c = text.charCodeAt(m.index)
    global.lastIndex = m.index + (c >= 0xd800 && c <= 0xdbff && isLow(text.charCodeAt(m.index + 1)) ? 2 : 1)
    if (global.lastIndex > text.length) return -1
  }
}

const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff
