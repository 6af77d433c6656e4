/**
 * Pre-tokenization: splitting text into pieces with the encoding's own regex (`pat_str`, flags
 * `u`), exactly where js-tiktoken's `matchAll` splits it, but without allocating a match
 * array per piece.
 *
 * The encodings' regexes match every character, so pieces are contiguous: a sticky `test()`
 * at the end of the previous piece finds the next one, and `lastIndex` is its end. Should a
 * character ever match nothing, a global `exec` from the same place finds the next match, as
 * `matchAll` would.
 *
 * @module
 */

/** The two compiled forms of one pre-tokenizer pattern. */
export interface Splitter {
  /** Flags `uy`: matches only at `lastIndex`. */
  readonly sticky: RegExp
  /**
   * Flags `gu`: searches from `lastIndex`. Compiled on first use: the sticky form almost always
   * matches, and compiling a pattern of Unicode property classes costs milliseconds of a first count.
   */
  readonly global: () => RegExp
}

/**
 * Compiles a pre-tokenizer pattern. Capturing groups become non-capturing (they change no
 * match, only what a match records).
 *
 * @example
 * const splitter = compileSplitter(ranks.pat_str)
 * @category constructors
 */
export const compileSplitter = (pattern: string): Splitter => {
  const source = nonCapturing(pattern)
  let global: RegExp | undefined
  return { sticky: new RegExp(source, 'uy'), global: () => (global ??= new RegExp(source, 'gu')) }
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
 * `start[0]`, or returns −1 when no piece is left.
 *
 * @category utils
 */
export const nextPiece = (splitter: Splitter, text: string, from: number, start: Int32Array): number => {
  // nothing is left (an empty match there would yield no token): asking the global form would
  // compile it, milliseconds of every first count, only to learn that
  if (from >= text.length) return -1
  const { sticky } = splitter
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

/**
 * Compiles a pattern's regex ahead of a first count, by splitting a short ASCII text with it.
 * V8 keeps a regex's compiled code by source and flags, so the splitter a tokenizer makes
 * later starts compiled: `ready()` runs this while the rank file is read off the main thread,
 * and a first count no longer pays the compile (10-20 ms for o200k's Unicode classes on a slow
 * machine). ASCII only: V8 compiles again for text with characters past Latin-1, and that
 * second compile would outlast the read.
 *
 * @example
 * warmSplitter(ranks.pat_str)
 * @category utils
 */
export const warmSplitter = (pattern: string): void => {
  const splitter = compileSplitter(pattern)
  const start = new Int32Array(1)
  // two matches or more: V8 interprets a regex first and compiles it on its second run
  for (let from = 0, end: number; (end = nextPiece(splitter, WARM_TEXT, from, start)) >= 0; from = end);
}

const WARM_TEXT = "Warm up: it's 2 words, then 3."
