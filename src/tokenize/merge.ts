/**
 * Byte-pair merging of one pre-tokenized piece, with tiktoken's rule: while some adjacent
 * pair of parts concatenates to a token, merge the pair with the lowest rank, the leftmost
 * one on a tie.
 *
 * js-tiktoken rescans every pair with a fresh string key after each merge, quadratic in the
 * piece length with a large constant; runs of Han characters pre-tokenize as one long piece,
 * so Chinese is where it hurts. Here:
 *
 * - pieces of few parts (most of them) use tiktoken's own array scan over cached pair ranks:
 *   O(n²) in the worst case, but n is bounded by {@link SCAN_MAX_PARTS} and each step is a
 *   tight loop over a typed array;
 * - pieces of more parts use a binary min-heap of pairs keyed by `rank · 2^32 + start`, over a linked
 *   list of parts: O(n log n). The key order is exactly (lowest rank, leftmost). A merge
 *   changes at most two pairs; their old heap entries stay and are skipped when popped (an
 *   entry is live only while it matches the pair's current rank).
 *
 * Both leave the tokens in `s.pos` / `s.ranks` and agree with each other and with tiktoken.
 *
 * @module
 */
import { joinedRank, type PairCache } from './pairCache.js'
import { initialPairRank } from './pieceParts.js'
import type { RankTable } from './rankTable.js'
import type { Scratch } from './scratch.js'

/** Pieces of up to this many starting parts merge by scanning; longer ones through the heap. */
export const SCAN_MAX_PARTS = 48

const NONE = 0x7fffffff // "no token": compares above every rank

/**
 * Merges the `m` starting parts in `s.pos`/`s.ranks` (see `initialParts`) of the `n` bytes in
 * `s.bytes` (prefix hashes in `s.hash`) into tokens and returns how many there are; token k
 * then covers bytes `[s.pos[k], s.pos[k + 1])` and has rank `s.ranks[k]`.
 *
 * @category utils
 */
export const mergePiece = (table: RankTable, cache: PairCache, s: Scratch, n: number, m: number): number =>
  m <= SCAN_MAX_PARTS ? mergeByScan(table, cache, s, m) : mergeByHeap(table, cache, s, n, m)

/**
 * The scanning merge, for any number of parts (exported for tests; {@link mergePiece} picks).
 *
 * @category utils
 */
export const mergeByScan = (table: RankTable, cache: PairCache, s: Scratch, parts: number): number => {
  const { bytes, hash, pos, ranks, pairRank } = s
  for (let k = 0; k + 1 < parts; k++) pairRank[k] = orNone(initialPairRank(table, cache, s, k))
  let m = parts // pairRank[0..m-2] are live
  for (;;) {
    let best = NONE
    let at = -1
    for (let k = 0; k < m - 1; k++) {
      const r = pairRank[k]!
      if (r < best) {
        best = r
        at = k
      }
    }
    if (at < 0) return m
    // parts at and at+1 become one: drop boundary at+1 and pair at+1
    for (let k = at + 1; k < m; k++) {
      pos[k] = pos[k + 1]!
      ranks[k] = ranks[k + 1]!
      pairRank[k] = pairRank[k + 1]!
    }
    m--
    ranks[at] = best
    if (at + 1 < m)
      pairRank[at] = orNone(joinedRank(cache, table, bytes, hash, pos[at]!, pos[at + 2]!, best, ranks[at + 1]!))
    else pairRank[at] = NONE
    if (at > 0)
      pairRank[at - 1] = orNone(joinedRank(cache, table, bytes, hash, pos[at - 1]!, pos[at + 1]!, ranks[at - 1]!, best))
  }
}

const orNone = (rank: number): number => (rank < 0 ? NONE : rank)

const HIGH = 4294967296 // 2^32: rank in the high part of a heap key, start byte in the low part

/**
 * The heap merge, for any number of parts (exported for tests; {@link mergePiece} picks).
 *
 * @category utils
 */
export const mergeByHeap = (table: RankTable, cache: PairCache, s: Scratch, n: number, parts: number): number => {
  // Parts are named by their start byte: next/prev link them, ranks holds their token. The
  // starting layout is by part index; scattering from the end never overwrites an unread
  // entry, since part k starts at byte ≥ k.
  const { bytes, hash, pos, next, prev, ranks, pairRank, heap } = s
  let size = 0
  for (let k = 0; k + 1 < parts; k++) {
    const r = initialPairRank(table, cache, s, k)
    pairRank[k] = r // by index for now
    if (r >= 0) heap[size++] = r * HIGH + pos[k]!
  }
  for (let k = parts - 1; k >= 0; k--) {
    const i = pos[k]!
    ranks[i] = ranks[k]!
    pairRank[i] = k + 1 < parts ? pairRank[k]! : -1
    next[i] = pos[k + 1]!
    prev[i] = k > 0 ? pos[k - 1]! : -1
  }
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(heap, size, i)
  while (size > 0) {
    const key = heap[0]!
    size--
    if (size > 0) {
      heap[0] = heap[size]!
      siftDown(heap, size, 0)
    }
    const rank = Math.floor(key / HIGH)
    const i = key - rank * HIGH
    if (pairRank[i] !== rank) continue // stale: this pair changed since it was pushed
    const j = next[i]!
    const k = next[j]!
    next[i] = k
    if (k < n) prev[k] = i
    ranks[i] = rank
    pairRank[j] = -1
    const r = k < n ? joinedRank(cache, table, bytes, hash, i, next[k]!, rank, ranks[k]!) : -1
    pairRank[i] = r
    if (r >= 0) size = push(heap, size, r * HIGH + i)
    if (i > 0) {
      const p = prev[i]!
      const left = joinedRank(cache, table, bytes, hash, p, k, ranks[p]!, rank)
      pairRank[p] = left
      if (left >= 0) size = push(heap, size, left * HIGH + p)
    }
  }
  // Compact to the output layout; token m starts at or after byte m, so reads stay ahead.
  let m = 0
  for (let i = 0; i < n; i = next[i]!) {
    pos[m] = i
    ranks[m++] = ranks[i]!
  }
  pos[m] = n
  return m
}

const push = (heap: Float64Array, size: number, key: number): number => {
  let i = size
  while (i > 0) {
    const parent = (i - 1) >> 1
    const up = heap[parent]!
    if (up <= key) break
    heap[i] = up
    i = parent
  }
  heap[i] = key
  return size + 1
}

const siftDown = (heap: Float64Array, size: number, from: number): void => {
  const key = heap[from]!
  let i = from
  for (;;) {
    let child = 2 * i + 1
    if (child >= size) break
    const right = child + 1
    if (right < size && heap[right]! < heap[child]!) child = right
    if (heap[child]! >= key) break
    heap[i] = heap[child]!
    i = child
  }
  heap[i] = key
}
