/**
 * Decoding of js-tiktoken's compressed rank text (`bpe_ranks`): lines of
 * `<tag> <first rank> <base64 token> <base64 token> …`, where the tokens of a line take
 * consecutive ranks. One pass over the string, base64 decoded by hand into one buffer: far
 * cheaper than js-tiktoken's `split`, `base64.toByteArray` and `join(",")` string keys.
 *
 * @module
 */

/** Every token of an encoding, as byte ranges of one buffer. */
export interface DecodedRanks {
  /** All token bytes, concatenated in file order. */
  readonly bytes: Uint8Array
  /** Per token (file order): its rank, and where its bytes start and end in `bytes`. */
  readonly rank: Int32Array
  readonly start: Int32Array
  readonly end: Int32Array
}

// base64 digit values; 64 marks the padding character, −1 anything else
const DIGITS = new Int8Array(128).fill(-1)
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/='
  .split('')
  .forEach((c, i) => (DIGITS[c.charCodeAt(0)] = i))
const PAD = 64

const SPACE = 32
const ZERO = 48

const digit = (text: string, at: number): number => {
  const c = text.charCodeAt(at)
  return c < 128 ? DIGITS[c]! : -1 // NaN past the end compares false: −1
}

/**
 * Decodes `bpe_ranks` text. Throws on a character that is not base64: the text ships inside
 * js-tiktoken, so that is a broken install, not an input error.
 *
 * @example
 * decodeRanks('! 0 IQ== Ig==').rank // Int32Array [0, 1]; the tokens are "!" and '"'
 * @category constructors
 * @since 0.1.0
 */
export const decodeRanks = (text: string): DecodedRanks => {
  // Base64 is 4/3 the size of its bytes, and a token usually takes a space and a quad or
  // more; trimmed at the end (and grown, should empty tokens abound).
  const size = text.length
  const bytes = new Uint8Array(Math.ceil((size * 3) / 4))
  let rank: Int32Array = new Int32Array(Math.ceil(size / 5) + 1)
  let start: Int32Array = new Int32Array(rank.length)
  let end: Int32Array = new Int32Array(rank.length)
  let out = 0
  let count = 0
  let line = 0
  while (line < size) {
    const stop = lineEnd(text, line)
    const tagEnd = text.indexOf(' ', line)
    if (tagEnd < 0 || tagEnd >= stop) {
      line = stop + 1 // an empty (or token-less) line
      continue
    }
    let i = tagEnd + 1
    let next = 0
    for (let c = text.charCodeAt(i); i < stop && c !== SPACE; c = text.charCodeAt(++i)) next = next * 10 + c - ZERO
    // Tokens: every space opens one; a base64 quad yields up to three bytes.
    while (i < stop) {
      i++ // the space
      if (count === rank.length) {
        rank = grown(rank)
        start = grown(start)
        end = grown(end)
      }
      start[count] = out
      rank[count++] = next++
      for (; i < stop && text.charCodeAt(i) !== SPACE; i += 4) {
        const a = digit(text, i)
        const b = digit(text, i + 1)
        const c = digit(text, i + 2)
        const d = digit(text, i + 3)
        if (a < 0 || b < 0 || c < 0 || d < 0 || a === PAD || b === PAD || (c === PAD && d !== PAD))
          throw new Error(`bpe_ranks: ${JSON.stringify(text.slice(i, i + 4))} at offset ${i} is not base64`)
        bytes[out++] = (a << 2) | (b >> 4)
        if (c !== PAD) bytes[out++] = ((b & 15) << 4) | (c >> 2)
        if (d !== PAD) bytes[out++] = ((c & 3) << 6) | d
      }
      end[count - 1] = out
    }
    line = stop + 1
  }
  return { bytes: bytes.subarray(0, out), rank: rank.slice(0, count), start: start.slice(0, count), end: end.slice(0, count) }
}

const grown = (a: Int32Array): Int32Array => {
  const b = new Int32Array(a.length * 2)
  b.set(a)
  return b
}

const lineEnd = (text: string, from: number): number => {
  const at = text.indexOf('\n', from)
  return at < 0 ? text.length : at
}
