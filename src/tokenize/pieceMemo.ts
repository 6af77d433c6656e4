/**
 * A small direct-mapped memo of pre-tokenized pieces: the piece's UTF-16 code units → its
 * token count. Text repeats pieces (Chinese words between punctuation, common English words),
 * and a hit skips the UTF-8 encoding, the rank lookups and the merge: one pass over the
 * piece's code units to hash it and one to confirm it, so a collision never changes a count.
 *
 * Fixed size, overwrite on collision: O(1) per lookup, bounded memory, and results never
 * depend on what it holds (the pair memo's design, `pairCache.ts`, one level up).
 *
 * @module
 */
import { HASH_BASE } from './rankTable.js'

/**
 * Memo slots: per slot, two int32 in `keys` (the piece's hash; its length in code units plus
 * its token count · 256, 0 when empty, so fresh memory is an empty memo) and
 * {@link MEMO_UNITS} code units in `units`.
 */
export interface PieceMemo {
  readonly keys: Int32Array
  readonly units: Uint16Array
  readonly shift: number
}

/** The longest piece memoized, in UTF-16 code units (about nine in ten Chinese pieces). */
export const MEMO_UNITS = 32

const GOLDEN = 0x9e3779b1 | 0

/**
 * A memo of `2^bits` pieces, 72 bytes each. The default (1.1 MiB, as much as the pair memo)
 * answers 89% of the short pieces of 100 KB of Chinese prose (2,700 distinct ones) on a second
 * pass, where 2^13 slots answer 79% and 2^12 64%; English, code and JSON repeat fewer distinct
 * pieces and reach 99%.
 *
 * @category constructors
 */
export const pieceMemo = (bits = 14): PieceMemo => ({
  keys: new Int32Array(2 << bits),
  units: new Uint16Array(MEMO_UNITS << bits),
  shift: 32 - bits,
})

/**
 * The token count memoized for code units `text[start..end)` (`codeUnits`; at most {@link MEMO_UNITS} code units, at
 * least one), or, when there is none, `−1 − slot`: the slot to hand {@link remember} once the
 * piece is counted.
 *
 * @category utils
 */
export const recall = (memo: PieceMemo, text: Uint16Array, start: number, end: number): number => {
  const n = end - start
  let h = 0
  for (let u = start; u < end; u++) h = (Math.imul(h, HASH_BASE) + text[u]!) | 0
  const slot = Math.imul(h ^ n, GOLDEN) >>> memo.shift
  const { keys, units } = memo
  const meta = keys[2 * slot + 1]!
  if ((meta & 255) !== n || keys[2 * slot] !== h) return -1 - slot
  for (let u = start, at = slot * MEMO_UNITS; u < end; u++, at++) if (units[at] !== text[u]) return -1 - slot
  return meta >>> 8
}

/**
 * Stores `count` for `text[start..end)` in `slot` (from a missed {@link recall}), replacing
 * what was there.
 *
 * @category utils
 */
export const remember = (memo: PieceMemo, slot: number, text: Uint16Array, start: number, end: number, count: number): void => {
  const { keys, units } = memo
  let h = 0
  for (let u = start, at = slot * MEMO_UNITS; u < end; u++, at++) {
    const c = text[u]!
    h = (Math.imul(h, HASH_BASE) + c) | 0
    units[at] = c
  }
  keys[2 * slot] = h
  keys[2 * slot + 1] = count * 256 + (end - start)
}
