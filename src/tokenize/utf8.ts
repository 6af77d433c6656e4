/**
 * UTF-8 encoding of a slice of a string into a caller's buffer, byte for byte as
 * `TextEncoder` does it (a lone surrogate becomes U+FFFD, `EF BF BD`), optionally recording
 * where each code point starts in the string.
 *
 * @module
 */

/** The most UTF-8 bytes one UTF-16 code unit can produce. */
export const MAX_BYTES_PER_UNIT = 3

/**
 * Whether the UTF-8 size of `text` could exceed `bytes`, from its length alone (a code unit
 * is at most {@link MAX_BYTES_PER_UNIT} bytes). Every token holds at least one byte, so a
 * text for which this is false has at most `bytes` tokens: the per-item cap never cuts it.
 *
 * @category utils
 */
export const mayExceedBytes = (text: string, bytes: number): boolean => text.length * MAX_BYTES_PER_UNIT > bytes

/**
 * The UTF-16 code units of `text` in `into` (when it holds them; else in a new array), at
 * `[0, text.length)`: what the tokenizer's loops read. A string reaches them in whichever of
 * V8's representations it has (flat, a slice of another, a joined pair), and code that reads
 * several of them through `charCodeAt` is compiled for all of them at once: a process that
 * once counted slices of strings (as `String.prototype.slice` makes) counted 100 KB of prose
 * at 20 MB/s where it had counted at 35. Copied once per count, every loop after reads one
 * kind of array.
 *
 * @example
 * codeUnits('a世') // Uint16Array [0x61, 0x4e16]
 * @category utils
 */
export const codeUnits = (text: string, into?: Uint16Array): Uint16Array => {
  const n = text.length
  const out = into !== undefined && into.length >= n ? into : new Uint16Array(n)
  for (let u = 0; u < n; u++) out[u] = text.charCodeAt(u)
  return out
}

/**
 * Writes the UTF-8 bytes of code units `text[start..end)` (see {@link codeUnits}) to `out`
 * (which must hold `MAX_BYTES_PER_UNIT × (end − start)` bytes) and returns how many were
 * written. When `units` is given, `units[b]` becomes the UTF-16 offset of the code point
 * starting at byte `b`, −1 for bytes inside a code point, and `units[byteCount] = end`.
 *
 * @example
 * const out = new Uint8Array(6)
 * utf8Into(codeUnits('a世'), 0, 2, out) // 4: 61 E4 B8 96
 * @category utils
 */
export const utf8Into = (text: Uint16Array, start: number, end: number, out: Uint8Array, units?: Int32Array): number => {
  let b = 0
  for (let u = start; u < end; u++) {
    if (units !== undefined) units[b] = u
    let c = text[u]!
    if (c < 0x80) {
      out[b++] = c
      continue
    }
    if (c < 0x800) {
      out[b++] = 0xc0 | (c >> 6)
      out[b++] = 0x80 | (c & 0x3f)
      if (units !== undefined) units[b - 1] = -1
      continue
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const low = u + 1 < end ? text[u + 1]! : 0
      if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00)
        out[b++] = 0xf0 | (cp >> 18)
        out[b++] = 0x80 | ((cp >> 12) & 0x3f)
        out[b++] = 0x80 | ((cp >> 6) & 0x3f)
        out[b++] = 0x80 | (cp & 0x3f)
        if (units !== undefined) units[b - 3] = units[b - 2] = units[b - 1] = -1
        u++
        continue
      }
      c = 0xfffd // a lone surrogate, as TextEncoder writes it
    }
    out[b++] = 0xe0 | (c >> 12)
    out[b++] = 0x80 | ((c >> 6) & 0x3f)
    out[b++] = 0x80 | (c & 0x3f)
    if (units !== undefined) units[b - 2] = units[b - 1] = -1
  }
  if (units !== undefined) units[b] = end
  return b
}

/**
 * The UTF-8 size of a string, or of its code units `[start, end)`, byte for byte what
 * `TextEncoder` would write (a lone surrogate is 3 bytes, and so is a pair's half the range
 * cuts off), without allocating the bytes: the one UTF-8 length in gssc.
 *
 * @example
 * utf8Length('a世😀') // 8: 1 + 3 + 4
 * utf8Length('a世😀', 0, 2) // 4
 * @category utils
 */
export const utf8Length = (text: string, start = 0, end = text.length): number => {
  let n = end - start
  for (let u = start; u < end; u++) {
    const c = text.charCodeAt(u)
    if (c < 0x80) continue
    if (c < 0x800) n += 1
    else if (c >= 0xd800 && c <= 0xdbff && u + 1 < end && (text.charCodeAt(u + 1) & 0xfc00) === 0xdc00) {
      n += 2 // a surrogate pair: two units, four bytes
      u++
    } else n += 2
  }
  return n
}
