/**
 * One fill of the history window, as `layoutAware` fills it (`src/select/fill.ts`, which this
 * follows for single-turn units): from the newest turn back, each turn charged its count and
 * a decoration, until the first that does not fit; the turns behind it are left out too.
 *
 * @module
 */
import { BUDGET_FULL } from '../select/fill.js'
import { atLeastOf, isCounted, joinOf, markCounted, oldestHolding, sumOver, takeCount, textLengthOf, type BuildTable } from './table.js'

/** One fill of the history window: the turns taken are the newest ones, `[from, n)`. */
export interface Window {
  /** The oldest turn taken (`n` when none was). */
  readonly from: number
  /** Why the newest turn not taken (`from − 1`) was left out, if one was. */
  readonly miss: string | undefined
}

/** What the memo's turns `[s, to)` cost, each its count and decoration (its join from turn `joined` on, `other` before it): NaN when a number is not known. */
const costOver = (t: BuildTable, s: number, to: number, joined: number, other: number): number => {
  const { sums } = t.memo
  const j = Math.max(s, Math.min(joined, to))
  return sumOver(t, sums.counts, s, to) + (j < to ? sumOver(t, sums.joins, j, to) : 0) + (j > s ? (j - s) * other : 0)
}

/**
 * The oldest of the memo's turns from `i` back that a fill with `remaining` tokens left at
 * turn `i` surely takes, when it surely takes `i`: the turns it takes cost less than
 * `remaining` together. Its own function, so that `fillWindow` makes no closure (see
 * `./append.ts` on how the rebuild's code is written).
 */
const surelyTaken = (t: BuildTable, i: number, lo: number, remaining: number, joined: number, other: number, hint: number): number =>
  // a sum grows as it goes back; NaN never fits
  oldestHolding(lo, i, (k) => costOver(t, k, i + 1, joined, other) < remaining, hint)

/**
 * The window `room` tokens hold, from the newest of the history's `t.n` turns back to `reach`
 * at most, each turn charged its count and its decoration: its join (the table's) from turn
 * `joined` on, `other` before it. A hot loop: the table is read through plain functions, a
 * count taken only when unknown.
 *
 * Over the memo's turns it steps past the turns it surely takes at once: the oldest of them
 * from turn `i` back cost less than the room left together, so none is the first miss nor
 * leaves nothing for the next (a binary search on the table's sums, trying `hint` first:
 * where the previous build's same fill stopped). The turn where it stops goes through the
 * fill's own steps. A rebuild runs too few times before it is timed for V8 to optimize this
 * loop, and then a step per turn costs more than the rest of the fill.
 *
 * @category utils
 */
export const fillWindow = (t: BuildTable, reach: number, room: number, joined: number, other: number, hint: number): Window => {
  const lo = Math.max(reach, t.memo.from)
  let remaining = room
  for (let i = t.n - 1; i >= reach; i--) {
    // the turns taken so far are counted from `counted.low` on, without a gap: those surely taken join them
    if (i < t.length && i >= lo && remaining > 0 && t.counted.low <= i + 1 && costOver(t, i, i + 1, joined, other) < remaining) {
      const s = surelyTaken(t, i, lo, remaining, joined, other, hint)
      remaining -= costOver(t, s, i + 1, joined, other)
      t.counted.low = Math.min(t.counted.low, s)
      i = s
      continue
    }
    const d = i >= joined ? joinOf(t, i) : other
    let miss: string | undefined
    if (remaining <= 0) miss = BUDGET_FULL
    else {
      const known = isCounted(t, i) ? takeCount(t, i) : undefined
      // a lower bound first, when even the text's length could not fit (the cold fill's test)
      const b = (known ?? textLengthOf(t, i)) + d > remaining ? (known ?? atLeastOf(t, i, remaining)) + d : 0
      if (b > remaining) miss = `needs ${known === undefined ? 'at least ' : ''}${b} tokens, ${remaining} left`
      else {
        markCounted(t, i)
        const cost = takeCount(t, i) + d
        if (cost > remaining) miss = `needs ${cost} tokens, ${remaining} left`
        else remaining -= cost
      }
    }
    // the turns behind the first miss are left out too (see `reportOf`)
    if (miss !== undefined) return { from: i + 1, miss }
  }
  return { from: reach, miss: undefined }
}
