/**
 * The BPE engine contract, and the reference engine built on js-tiktoken.
 *
 * Engines treat special-token text such as `<|endoftext|>` as plain text: user content is
 * data, never control tokens (js-tiktoken's default `encode` would throw on it).
 *
 * @module
 */
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite'
import { loadRanks } from './ranks.js'
import { codeUnits, MAX_BYTES_PER_UNIT, utf8Into } from './utf8.js'

export { loadRanks }

/** The exact encodings gssc ships. */
export type EncodingName = 'o200k_base' | 'cl100k_base'

/** An exact byte-pair encoder. */
export interface Bpe {
  readonly encoding: EncodingName
  /** Number of tokens; equals js-tiktoken's `encode(text, [], []).length`. */
  readonly count: (text: string) => number
  /** Token ids; equal to js-tiktoken's `encode(text, [], [])`. */
  readonly encode: (text: string) => ReadonlyArray<number>
  /**
   * For each token, the UTF-16 offset in `text` where it ends, or −1 when it ends inside a
   * code point (a multi-byte character split across tokens). Used to cut text by tokens
   * without splitting a character.
   */
  readonly tokenEnds: (text: string) => Int32Array
  /**
   * In one pass: the count of `text`, of its pieces that end at or before `first`, and of
   * those that start at or after `last`. At positions where the pre-tokenizer always splits
   * (word ends, `tokenize/wordEdges.ts`) these are the counts of `text.slice(0, first)` and
   * `text.slice(last)`. Optional: an engine without it is asked for the three counts apart.
   */
  readonly countEnds?: (text: string, first: number, last: number) => CountedEnds
}

/** A text's count and the counts of its two ends (see {@link Bpe.countEnds}). */
export interface CountedEnds {
  readonly count: number
  readonly head: number
  readonly tail: number
}

/**
 * The reference engine: js-tiktoken itself. Exact, but its merge loop is quadratic in the
 * length of a pre-tokenized piece, so Chinese text is slow; the fast engine in `fastBpe.ts`
 * must agree with it token for token.
 *
 * @category constructors
 * @since 0.1.0
 */
export const referenceBpe = (encoding: EncodingName, ranks: TiktokenBPE = loadRanks(encoding)): Bpe => {
  const enc = new Tiktoken(ranks)
  const encode = (text: string): ReadonlyArray<number> => enc.encode(text, [], [])
  return {
    encoding,
    count: (text) => (text.length === 0 ? 0 : encode(text).length),
    encode,
    tokenEnds: (text) => {
      const ids = encode(text)
      const ends = new Int32Array(ids.length)
      // byte offset → UTF-16 offset, only at code point boundaries (−1 inside one)
      const byteToUnit = new Int32Array(MAX_BYTES_PER_UNIT * text.length + 1).fill(-1)
      utf8Into(codeUnits(text), 0, text.length, new Uint8Array(MAX_BYTES_PER_UNIT * text.length), byteToUnit)
      let off = 0
      ids.forEach((id, i) => {
        off += tokenBytes(enc, id)
        ends[i] = byteToUnit[off] ?? -1
      })
      return ends
    },
  }
}

// js-tiktoken does not expose token byte lengths; decoding one token to UTF-8 text is lossy
// for partial characters, so measure through its raw byte table.
const tokenBytes = (enc: Tiktoken, id: number): number => {
  const table = (enc as unknown as { textMap: Map<number, Uint8Array> }).textMap
  return table.get(id)?.length ?? 0
}
