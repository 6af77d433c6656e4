/**
 * Byte sequence → rank, as flat typed arrays: a hash table keyed by a polynomial hash (mod
 * 2^32) of the bytes, its entries grouped by bucket (one offset array, one entry array, about
 * one token per bucket), plus direct tables for one and two bytes.
 *
 * The hash of any slice of a piece comes from the piece's prefix hashes in O(1) (see
 * {@link prefixHashes}): no string key and no allocation per lookup. An entry holds the
 * token's length and first 8 bytes, so a lookup usually reads two cache lines, and a match
 * is always confirmed byte for byte: collisions never change a result. The grouped layout
 * needs no empty slots and no insertion order, so a packed file holds the table itself and
 * loading it writes nothing (`rankFile.ts`).
 *
 * @module
 */
import type { DecodedRanks } from './decodeRanks.js'
import { readBucket, type Pages } from './rankPages.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A rank table. Read-only once built ({@link rankTable}, or straight from a packed file's
 * bytes: every array but `power` is a view into it, read as lookups reach it, see `pages`).
 */
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
  /** Bucket `b` holds entries `buckets[b]` to `buckets[b + 1] − 1` (one more than the bucket count). */
  readonly buckets: Int32Array
  /**
   * Four int32 per entry, grouped by bucket: `(rank + 1) · 256 + length`, the token's first 8
   * bytes (two little-endian words, zero-padded), and where its bytes start in `bytes`.
   */
  readonly entries: Int32Array
  /** `32 − log2(bucket count)`: Fibonacci hashing keeps the high bits. */
  readonly shift: number
  /**
   * For a table opened from a packed file and not read whole yet: which of its pages are in
   * (`rankPages.ts`); {@link rankOf} reads what it compares first. Undefined for a table
   * built or read whole.
   */
  readonly pages: Pages | undefined
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
  const { bytes, rank, start, end } = tokens
  const count = rank.length
  let maxLength = 0
  let maxRank = 0
  for (let t = 0; t < count; t++) {
    maxLength = Math.max(maxLength, end[t]! - start[t]!)
    maxRank = Math.max(maxRank, rank[t]!)
  }
  // programmer errors: an entry keeps the length in 8 bits and the rank in 23
  if (maxLength > 255) throw new Error(`rank table: a token of ${maxLength} bytes is longer than 255`)
  if (maxRank >= 1 << 23) throw new Error(`rank table: rank ${maxRank} does not fit in 23 bits`)
  const power = powers(maxLength)
  // about one token per bucket: a lookup reads one bucket pair and one or two entries
  const bits = Math.max(4, Math.ceil(Math.log2(count + 1)))
  const shift = 32 - bits
  const bucketOf = new Int32Array(count)
  const buckets = new Int32Array((1 << bits) + 1)
  for (let t = 0; t < count; t++) {
    let h = 0
    for (let k = start[t]!; k < end[t]!; k++) h = (Math.imul(h, HASH_BASE) + bytes[k]!) | 0
    buckets[(bucketOf[t] = Math.imul(h, GOLDEN) >>> shift) + 1]!++
  }
  for (let b = 1; b < buckets.length; b++) buckets[b]! += buckets[b - 1]!
  // filled from each bucket's end, so a later duplicate comes first and wins
  const cursor = buckets.slice(1)
  const entries = new Int32Array(4 * count)
  const byteRank = new Int32Array(256).fill(-1)
  const bytePairRank = new Int32Array(65536).fill(-1)
  for (let t = 0; t < count; t++) {
    const s = start[t]!
    const n = end[t]! - s
    if (n === 1) byteRank[bytes[s]!] = rank[t]!
    if (n === 2) bytePairRank[(bytes[s]! << 8) | bytes[s + 1]!] = rank[t]!
    const at = --cursor[bucketOf[t]!]! << 2
    entries[at] = (rank[t]! + 1) * 256 + n
    entries[at + 1] = word(bytes, s, s + n)
    entries[at + 2] = word(bytes, s + 4, s + n)
    entries[at + 3] = s
  }
  return { bytes, byteRank, bytePairRank, maxLength, power, buckets, entries, shift, pages: undefined }
}

/**
 * `HASH_BASE^k mod 2^32` for k ≤ `maxLength` (the one part of a table not stored in a packed
 * file: a few hundred bytes).
 *
 * @category utils
 */
export const powers = (maxLength: number): Int32Array => {
  const power = new Int32Array(maxLength + 1)
  power[0] = 1
  for (let k = 1; k <= maxLength; k++) power[k] = Math.imul(power[k - 1]!, HASH_BASE)
  return power
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
  const { buckets, entries } = table
  const b = Math.imul(h, GOLDEN) >>> table.shift
  const { pages } = table
  if (pages !== undefined && !pages.complete) readBucket(table, pages, b)
  const last = buckets[b + 1]! << 2
  let at = buckets[b]! << 2
  if (at === last) return -1
  const head = word(bytes, start, end)
  const tail = word(bytes, start + 4, end)
  for (; at < last; at += 4) {
    const meta = entries[at]!
    if ((meta & 255) === n && entries[at + 1] === head && entries[at + 2] === tail && sameRest(table.bytes, entries[at + 3]!, bytes, start, n))
      return (meta >> 8) - 1
  }
  return -1
}

// Whether the token at `from` in `tokens` and bytes[start..start+n) agree past their first 8 bytes.
const sameRest = (tokens: Uint8Array, from: number, bytes: Uint8Array, start: number, n: number): boolean => {
  for (let k = 8; k < n; k++) if (tokens[from + k] !== bytes[start + k]) return false
  return true
}
