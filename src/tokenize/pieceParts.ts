/**
 * The parts a piece's merge starts from: one per byte, except characters that may enter
 * whole (see `charTable.ts`), and the rank of each adjacent pair.
 *
 * @module
 */
import { charRank, codePoint, type CharTable } from './charTable.js'
import { joinedRank, type PairCache } from './pairCache.js'
import type { RankTable } from './rankTable.js'
import type { Scratch } from './scratch.js'

/**
 * Splits the `n` bytes in `s.bytes` into starting parts: part k is bytes
 * `[s.pos[k], s.pos[k + 1])` with rank `s.ranks[k]`. Returns the number of parts. Without a
 * character table, every byte is a part.
 *
 * @category utils
 */
export const initialParts = (table: RankTable, chars: CharTable | undefined, s: Scratch, n: number): number => {
  const { bytes, pos, ranks } = s
  const { byteRank } = table
  let m = 0
  for (let i = 0; i < n; ) {
    const b = bytes[i]!
    const length = b < 0xc0 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4
    if (chars !== undefined && (length === 2 || length === 3)) {
      const after = i + length < n ? bytes[i + length]! : -1
      const rank = charRank(chars, codePoint(bytes, i, length), i > 0 ? bytes[i - 1]! : -1, after)
      if (rank >= 0) {
        pos[m] = i
        ranks[m++] = rank
        i += length
        continue
      }
    }
    pos[m] = i
    ranks[m++] = byteRank[b]!
    i++
  }
  pos[m] = n
  return m
}

/**
 * The rank of the token joining starting parts k and k + 1 (laid out by
 * {@link initialParts}), or −1.
 *
 * @category utils
 */
export const initialPairRank = (table: RankTable, cache: PairCache, s: Scratch, k: number): number => {
  const { bytes, pos, ranks } = s
  const start = pos[k]!
  const mid = pos[k + 1]!
  const end = pos[k + 2]!
  return mid - start === 1 && end - mid === 1
    ? table.bytePairRank[(bytes[start]! << 8) | bytes[mid]!]!
    : joinedRank(cache, table, bytes, s.hash, start, end, ranks[k]!, ranks[k + 1]!)
}
