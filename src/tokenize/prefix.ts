/**
 * Where the first N tokens of a text end, without tokenizing all of a long text: a growing
 * window from its start is tokenized until the window holds more than N tokens.
 *
 * @module
 */
import type { Tokenizer } from './tokenizer.js'

/** A first window that usually holds `limit` tokens (a token is rarely 8 code units long). */
export const windowFor = (limit: number): number => (limit + 16) * 8

/** Never slice between the two halves of a surrogate pair. */
const codePointEnd = (text: string, end: number): number => {
  const c = text.charCodeAt(end - 1)
  return end < text.length && c >= 0xd800 && c <= 0xdbff ? end - 1 : end
}

/**
 * The end of the first `limit` tokens of `text` (a code-point boundary), tokenizing a window
 * that grows ×4 until it holds more than `limit` tokens or reaches the text's end. It ends:
 * no token of the shipped encodings is longer than 128 bytes, and the window stops at the
 * text's end anyway. Near the window's edge the tokens can differ from the whole text's by
 * one piece, which is fine for a cut: the caller counts what it keeps.
 *
 * @example
 * prefixEndWindowed(twoMegabyteMemory, 2000, tokenizer) // tokenizes ~16 KB, not 2 MB
 * @category utils
 * @since 0.1.0
 */
export const prefixEndWindowed = (text: string, limit: number, tokenizer: Tokenizer): number => {
  for (let size = windowFor(limit); ; size *= 4) {
    const window = text.slice(0, codePointEnd(text, Math.min(text.length, size)))
    const end = tokenizer.prefixEnd(window, limit)
    if (end < window.length || window.length >= text.length) return end
  }
}

/**
 * The start of the last `limit` tokens of `text` (a code-point boundary), tokenizing a window
 * from the text's end that grows ×4 until it holds more than `limit` tokens or reaches the
 * text's start: the tail of a 2 MB log costs about what the tail itself costs. Near the
 * window's start the tokens can differ from the whole text's by one piece (the caller counts
 * what it keeps).
 *
 * @example
 * suffixStartWindowed(hugeLog, 500, tokenizer) // text.slice(start) is about the last 500 tokens
 * @category utils
 * @since 0.2.0
 */
export const suffixStartWindowed = (text: string, limit: number, tokenizer: Tokenizer): number => {
  if (limit <= 0) return text.length
  for (let size = windowFor(limit); ; size *= 4) {
    let from = Math.max(0, text.length - size)
    // never start on the second half of a surrogate pair
    const c = text.charCodeAt(from)
    if (from > 0 && c >= 0xdc00 && c <= 0xdfff) from++
    const window = text.slice(from)
    const n = tokenizer.count(window)
    if (n > limit || from === 0) return n <= limit ? 0 : from + tokenizer.prefixEnd(window, n - limit)
  }
}
