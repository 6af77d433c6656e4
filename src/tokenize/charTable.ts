/**
 * Which characters may enter the merge as one token instead of as their 2–3 UTF-8 bytes.
 *
 * A Han character is three bytes; merging them one pair at a time is most of the work on
 * Chinese text. Taking a character c as a single part up front gives exactly tiktoken's
 * result when, on c's own, its bytes merge into one token through merges of rank ≤ R, and
 * every token that overlaps c and reaches past it, *and fits the bytes next to c*, has a rank
 * above R. Why: while c is incomplete, one of its own pairs (rank ≤ R) is always available,
 * so the lowest-rank rule never picks a pair reaching into c from outside; and pairs joining
 * the whole of c to a neighbour rank above R as well, so having c whole early picks no pair
 * earlier than tiktoken would. The merge sequence is tiktoken's minus c's own merges.
 *
 * "Fits the bytes next to c" keys the competitors by the one byte on each side of c in the
 * piece (any ASCII byte counts as one, conservatively): an overlapping token must contain
 * that byte. On the shipped tables this admits ≈98% of the Han characters in Chinese prose.
 *
 * Only BMP characters of 2–3 bytes are considered; 4-byte ones (emoji) stay bytes.
 *
 * @module
 */
import type { DecodedRanks } from './decodeRanks.js'
import type { RankTable } from './rankTable.js'

/** Per BMP code point, 8 int32 (see {@link charTable}). Read-only once built. */
export interface CharTable {
  /**
   * At `cp · 8`: rank + 1 (0: never whole), flags (1: no ASCII byte before, 2: no ASCII byte
   * after), two words of a bit set over the continuation byte before (bit k: 0x80 + k is
   * not allowed), two words over the lead byte after (bit k: 0xC0 + k), two unused.
   */
  readonly info: Int32Array
}

const NO_ASCII_BEFORE = 1
const NO_ASCII_AFTER = 2
const SIDES = 65 // 64 continuation (or lead) bytes, then "any ASCII byte"
const PARTIALS = 64 + 64 * 64 // one or two bytes of a character

const isContinuation = (b: number): boolean => (b & 0xc0) === 0x80
const sequenceLength = (lead: number): number => (lead < 0x80 ? 1 : lead < 0xc0 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4)

// A 1–2 byte piece of a character, by its bytes; `base` is the first byte's lowest value.
const partialIndex = (bytes: Uint8Array, from: number, length: number, base: number): number =>
  length === 1 ? bytes[from]! - base : 64 + ((bytes[from]! - base) << 6) + (bytes[from + 1]! - 0x80)

// The byte next to a character: an ASCII byte, or one of 64 bytes of the kind that can be
// there (continuation before, lead after). −1 for a byte that cannot be there in UTF-8.
const sideIndex = (b: number, base: number): number => (b < 0x80 ? 64 : b >= base && b < base + 64 ? b - base : -1)

// Competitor tables hold the lowest rank + 1 of their tokens, 0 for none (fresh memory needs
// no fill); `(entry − 1) >>> 0` reads an entry back as a rank, none as 2^32 − 1.
interface Competitors {
  /** Tokens starting with a character's proper suffix, by suffix × the next byte. */
  readonly startsInside: Int32Array
  /** Tokens ending with a character's proper prefix, by prefix × the byte before. */
  readonly endsInside: Int32Array
  /** Tokens holding the whole character and more, by code point. */
  readonly holding: Int32Array
  /** Tokens (indexes into the decoded ranks) that are exactly one 2–3 byte character. */
  readonly singles: ReadonlyArray<number>
}

const lower = (table: Int32Array, at: number, rank: number): void => {
  const held = table[at]!
  if (held === 0 || rank < held - 1) table[at] = rank + 1
}

// One pass over all token bytes. It runs once, at load, mostly before the JIT has optimized
// it, so the common case (an ASCII byte) is kept to a few plain operations.
const competitors = (tokens: DecodedRanks): Competitors => {
  const { bytes, rank: ranks, start: starts, end: ends } = tokens
  const startsInside = new Int32Array(PARTIALS * SIDES)
  const endsInside = new Int32Array(PARTIALS * SIDES)
  const holding = new Int32Array(65536)
  const singles: number[] = []
  for (let t = 0; t < ranks.length; t++) {
    const rank = ranks[t]!
    const s = starts[t]!
    const e = ends[t]!
    let i = s
    while (i < e && (bytes[i]! & 0xc0) === 0x80) i++
    const side = i < e ? sideIndex(bytes[i]!, 0xc0) : -1
    if (i > s && i - s <= 2 && side >= 0) lower(startsInside, partialIndex(bytes, s, i - s, 0x80) * SIDES + side, rank)
    while (i < e) {
      if (bytes[i]! < 0x80) {
        i++
        continue
      }
      const length = sequenceLength(bytes[i]!)
      let k = 1
      while (k < length && i + k < e && isContinuation(bytes[i + k]!)) k++
      if (length === 0 || (k < length && i + k < e)) {
        i += Math.max(1, k) // bytes no valid text has here: nothing to record
        continue
      }
      if (k < length) {
        const before = i > s ? sideIndex(bytes[i - 1]!, 0x80) : -1
        if (k <= 2 && before >= 0) lower(endsInside, partialIndex(bytes, i, k, 0xc0) * SIDES + before, rank)
        break
      }
      if (length === 2 || length === 3) {
        if (e - s > length) lower(holding, codePoint(bytes, i, length), rank)
        else singles.push(t)
      }
      i += length
    }
  }
  return { startsInside, endsInside, holding, singles }
}

/**
 * The code point of the 2–3 byte UTF-8 sequence at `bytes[at]`.
 *
 * @category utils
 */
export const codePoint = (bytes: Uint8Array, at: number, length: number): number =>
  length === 2
    ? ((bytes[at]! & 0x1f) << 6) | (bytes[at + 1]! & 0x3f)
    : ((bytes[at]! & 0x0f) << 12) | ((bytes[at + 1]! & 0x3f) << 6) | (bytes[at + 2]! & 0x3f)

/**
 * Builds the table from the decoded ranks (one pass over all token bytes, then one step per
 * single-character token).
 *
 * @example
 * const chars = charTable(decoded, rankTable(decoded))
 * @category constructors
 * @since 0.1.0
 */
export const charTable = (tokens: DecodedRanks, table: RankTable): CharTable => {
  const { startsInside, endsInside, holding, singles } = competitors(tokens)
  const { bytes } = tokens
  const info = new Int32Array(65536 * 8)
  for (let j = 0; j < singles.length; j++) {
    const t = singles[j]!
    const rank = tokens.rank[t]!
    const at = tokens.start[t]!
    const length = tokens.end[t]! - at
    const own = ownMergeRank(table, bytes, at, length, rank)
    const cp = codePoint(bytes, at, length)
    if (own < 0 || (holding[cp]! - 1) >>> 0 < own) continue
    const o = cp << 3
    info[o] = rank + 1
    // the character's proper prefixes (lead byte first) and suffixes, as competitor rows
    const prefix1 = partialIndex(bytes, at, 1, 0xc0) * SIDES
    const prefix2 = length === 3 ? partialIndex(bytes, at, 2, 0xc0) * SIDES : prefix1
    const suffix1 = partialIndex(bytes, at + length - 1, 1, 0x80) * SIDES
    const suffix2 = length === 3 ? partialIndex(bytes, at + 1, 2, 0x80) * SIDES : suffix1
    for (let side = 0; side < SIDES; side++) {
      // written out rather than through helpers: this loop runs before the JIT has warmed up
      const before =
        (endsInside[prefix1 + side]! - 1) >>> 0 < own || (endsInside[prefix2 + side]! - 1) >>> 0 < own
      const after =
        (startsInside[suffix1 + side]! - 1) >>> 0 < own || (startsInside[suffix2 + side]! - 1) >>> 0 < own
      if (side === 64) info[o + 1] = (before ? NO_ASCII_BEFORE : 0) | (after ? NO_ASCII_AFTER : 0)
      else {
        if (before) info[o + 2 + (side >> 5)]! |= 1 << (side & 31)
        if (after) info[o + 4 + (side >> 5)]! |= 1 << (side & 31)
      }
    }
  }
  return { info }
}

// The highest rank among the merges that join a character's bytes on their own, or −1 when
// they do not join into one token. Two bytes: one merge. Three: the lower-ranked pair first.
const ownMergeRank = (table: RankTable, bytes: Uint8Array, at: number, length: number, rank: number): number => {
  if (length === 2) return rank
  const left = table.bytePairRank[(bytes[at]! << 8) | bytes[at + 1]!]!
  const right = table.bytePairRank[(bytes[at + 1]! << 8) | bytes[at + 2]!]!
  if (left < 0 && right < 0) return -1
  const first = left < 0 ? right : right < 0 ? left : Math.min(left, right)
  return Math.max(first, rank)
}

/**
 * The rank of character `cp` as one part, or −1 when its bytes must merge one by one.
 * `before`/`after` are the bytes next to it in the piece, −1 at the piece's ends.
 *
 * @category utils
 */
export const charRank = (chars: CharTable, cp: number, before: number, after: number): number => {
  const { info } = chars
  const o = cp << 3
  const rank = info[o]! - 1
  if (rank < 0) return -1
  if (before >= 0) {
    if (before < 0x80) {
      if ((info[o + 1]! & NO_ASCII_BEFORE) !== 0) return -1
    } else {
      const k = before - 0x80
      if (k >= 64 || ((info[o + 2 + (k >> 5)]! >>> (k & 31)) & 1) !== 0) return -1
    }
  }
  if (after >= 0) {
    if (after < 0x80) {
      if ((info[o + 1]! & NO_ASCII_AFTER) !== 0) return -1
    } else {
      const k = after - 0xc0
      if (k < 0 || ((info[o + 4 + (k >> 5)]! >>> (k & 31)) & 1) !== 0) return -1
    }
  }
  return rank
}
