/**
 * Byte sequence → rank, as flat typed arrays: an open-addressing hash table keyed by a
 * polynomial hash (mod 2^32) of the bytes, plus direct tables for one and two bytes.
 *
 * The hash of any slice of a piece comes from the piece's prefix hashes in O(1) (see
 * {@link prefixHashes}): no string key and no allocation per lookup. A hash slot holds the
 * token's length and first 8 bytes, so a lookup usually reads one cache line, and a match
 * is always confirmed byte for byte: collisions never change a result.
 *
 * @module
 */
import type { DecodedRanks } from './decodeRanks.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A rank table. Read-only once {@link rankTable} has built it. */
export interface RankTable {
  /** All token bytes (from {@link DecodedRanks}). */
  readonly bytes: Uint8Array
  /** Rank of each single byte, −1 when none. */
  readonly byteRank: Int32Array
  /** Rank of each two-byte token at `first · 256 + second`, −1 when none. */
  readonly bytePairRank: Int32Array
  /** Longest token, in bytes: no longer slice can be a token. */
  readonly maxLength: number
  /** `HASH_BASE^k mod 2^32` for k ≤ maxLength. */
  readonly power: Int32Array
  /**
   * Four int32 per slot: `(rank + 1) · 256 + length` (0 when empty), the token's first 8 bytes
   * (two little-endian words, zero-padded), and where its bytes start in `bytes`.
   */
  readonly slots: Int32Array
  /** `32 − log2(slot count)`: Fibonacci hashing keeps the high bits. */
  readonly shift: number
}

/** Multiplier of the polynomial hash (odd, so every byte reaches every higher bit). */
export const HASH_BASE = 0x01000193

const GOLDEN = 0x9e3779b1 | 0

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Builds the lookup table of decoded ranks. A byte sequence listed twice keeps its last rank,
 * as js-tiktoken's Map does (the shipped tables list none twice).
 *
 * @example
 * const table = rankTable(decodeRanks(loadRanks('cl100k_base').bpe_ranks))
 * @category constructors
 * @since 0.1.0
 */
export const rankTable = (tokens: DecodedRanks): RankTable => {
  const count = tokens.rank.length
  let maxLength = 0
  let maxRank = 0
  for (let t = 0; t < count; t++) {
    maxLength = Math.max(maxLength, tokens.end[t]! - tokens.start[t]!)
    maxRank = Math.max(maxRank, tokens.rank[t]!)
  }
  // programmer errors: a slot keeps the length in 8 bits and the rank in 23
  if (maxLength > 255) throw new Error(`rank table: a token of ${maxLength} bytes is longer than 255`)
  if (maxRank >= 1 << 23) throw new Error(`rank table: rank ${maxRank} does not fit in 23 bits`)
  const power = new Int32Array(maxLength + 1)
  power[0] = 1
  for (let k = 1; k <= maxLength; k++) power[k] = Math.imul(power[k - 1]!, HASH_BASE)
  const bits = Math.max(4, Math.ceil(Math.log2(count * 2 + 1)))
  const table: RankTable = {
    bytes: tokens.bytes,
    byteRank: new Int32Array(256).fill(-1),
    bytePairRank: new Int32Array(65536).fill(-1),
    maxLength,
    power,
    slots: new Int32Array(4 << bits),
    shift: 32 - bits,
  }
  const { rank, start, end } = tokens
  for (let t = 0; t < count; t++) insert(table, rank[t]!, start[t]!, end[t]!)
  return table
}

// Building is the one time a table is written to.
const insert = (table: RankTable, rank: number, start: number, end: number): void => {
  const { bytes, slots } = table
  const n = end - start
  if (n === 1) table.byteRank[bytes[start]!] = rank
  if (n === 2) table.bytePairRank[(bytes[start]! << 8) | bytes[start + 1]!] = rank
  let h = 0
  for (let k = start; k < end; k++) h = (Math.imul(h, HASH_BASE) + bytes[k]!) | 0
  const head = word(bytes, start, end)
  const tail = word(bytes, start + 4, end)
  const mask = (slots.length >> 2) - 1
  for (let s = Math.imul(h, GOLDEN) >>> table.shift; ; s = (s + 1) & mask) {
    const at = s << 2
    if (slots[at] === 0 || sameToken(table, at, bytes, start, n, head, tail)) {
      slots[at] = (rank + 1) * 256 + n
      slots[at + 1] = head
      slots[at + 2] = tail
      slots[at + 3] = start
      return
    }
  }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

// Up to four bytes from `from` (stopping at `end`), little-endian, zero-padded.
const word = (bytes: Uint8Array, from: number, end: number): number => {
  let w = 0
  for (let k = Math.min(end, from + 4) - 1; k >= from; k--) w = (w << 8) | bytes[k]!
  return w
}

// Whether the slot at `at` holds bytes[start..start+n), whose first words are head and tail.
const sameToken = (
  table: RankTable,
  at: number,
  bytes: Uint8Array,
  start: number,
  n: number,
  head: number,
  tail: number,
): boolean => {
  const { slots } = table
  if ((slots[at]! & 255) !== n || slots[at + 1] !== head || slots[at + 2] !== tail) return false
  const tokens = table.bytes
  const from = slots[at + 3]! - start
  for (let k = start + 8; k < start + n; k++) if (tokens[from + k] !== bytes[k]) return false
  return true
}

/**
 * Fills `hash[0..n]` with the prefix hashes of `bytes[0..n)`: `hash[i]` covers the first `i`
 * bytes, and the hash of a slice is `hash[e] − hash[s] · HASH_BASE^(e−s)`.
 *
 * @category utils
 */
export const prefixHashes = (bytes: Uint8Array, n: number, hash: Int32Array): void => {
  let h = 0
  hash[0] = 0
  for (let i = 0; i < n; i++) {
    h = (Math.imul(h, HASH_BASE) + bytes[i]!) | 0
    hash[i + 1] = h
  }
}

/**
 * The rank of the token whose bytes are `bytes[start..end)`, or −1 when that slice is not a
 * token. `hash` holds the prefix hashes of `bytes` (see {@link prefixHashes}).
 *
 * @category utils
 */
export const rankOf = (table: RankTable, bytes: Uint8Array, hash: Int32Array, start: number, end: number): number => {
  const n = end - start
  if (n > table.maxLength) return -1
  const h = (hash[end]! - Math.imul(hash[start]!, table.power[n]!)) | 0
  const head = word(bytes, start, end)
  const tail = word(bytes, start + 4, end)
  const { slots } = table
  const mask = (slots.length >> 2) - 1
  for (let s = Math.imul(h, GOLDEN) >>> table.shift; ; s = (s + 1) & mask) {
    const at = s << 2
    const meta = slots[at]!
    if (meta === 0) return -1
    if (sameToken(table, at, bytes, start, n, head, tail)) return (meta >> 8) - 1
  }
}
