/**
 * The fill of the history window, as `layoutAware` fills it (`src/select/fill.ts`, which this
 * follows for single-turn units): from the newest turn back, each turn charged its count and
 * its label and separator joined with its text, until the first that does not fit; the turns
 * behind it are left out too. A lower bound rules a turn out before it is counted, charged
 * nothing for its label (a join is known only once the turn is counted).
 *
 * @module
 */
import { BUDGET_FULL } from '../select/fill.js'
import { joinAt } from './join.js'
import type { Layouts } from './layOut.js'
import { atLeastOf, isCounted, markCounted, oldestHolding, sumOver, takeCount, textLengthOf, type BuildTable } from './table.js'

/** The fill of the history window: the turns taken are the newest ones, `[from, n)`. */
export interface Window {
  /** The oldest turn taken (`n` when none was). */
  readonly from: number
  /** Why the newest turn not taken (`from − 1`) was left out, if one was. */
  readonly miss: string | undefined
}

/** What the memo's turns `[s, to)` cost, each its count and join: NaN when a number is not known. */
const costOver = (t: BuildTable, s: number, to: number): number => sumOver(t, t.memo.sums.counts, s, to) + sumOver(t, t.memo.sums.joins, s, to)

/**
 * The oldest of the memo's turns from `i` back that a fill with `remaining` tokens left at
 * turn `i` surely takes, when it surely takes `i`: the turns it takes cost less than
 * `remaining` together. Its own function, so that `fillWindow` makes no closure (see
 * `./append.ts` on how the rebuild's code is written).
 */
const surelyTaken = (t: BuildTable, i: number, lo: number, remaining: number, hint: number): number =>
  // a sum grows as it goes back; NaN never fits
  oldestHolding(lo, i, (k) => costOver(t, k, i + 1) < remaining, hint)

/**
 * The window `room` tokens hold, from the newest of the history's `t.n` turns back to `reach`
 * at most, each turn charged its count and its join (measured on the layouts `l` where the
 * table has none). A hot loop: the table is read through plain functions, a count taken only
 * when unknown.
 *
 * Over the memo's turns it steps past the turns it surely takes at once: the oldest of them
 * from turn `i` back cost less than the room left together, so none is the first miss nor
 * leaves nothing for the next (a binary search on the table's sums, trying `hint` first:
 * where the previous build's fill stopped). The turn where it stops goes through the fill's
 * own steps. A rebuild runs too few times before it is timed for V8 to optimize this loop,
 * and then a step per turn costs more than the rest of the fill.
 *
 * @category utils
 */
export const fillWindow = (l: Layouts, reach: number, room: number, hint: number): Window => {
  const t = l.table
  const lo = Math.max(reach, t.memo.from)
  let remaining = room
  for (let i = t.n - 1; i >= reach; i--) {
    // the turns taken so far are counted from `counted.low` on, without a gap: those surely taken join them
    if (i < t.length && i >= lo && remaining > 0 && t.counted.low <= i + 1 && costOver(t, i, i + 1) < remaining) {
      const s = surelyTaken(t, i, lo, remaining, hint)
      remaining -= costOver(t, s, i + 1)
      t.counted.low = Math.min(t.counted.low, s)
      i = s
      continue
    }
    let miss: string | undefined
    if (remaining <= 0) miss = BUDGET_FULL
    else {
      const known = isCounted(t, i) ? takeCount(t, i) : undefined
      // a lower bound first, when even the text's length could not fit (the cold fill's test)
      const b = (known ?? textLengthOf(t, i)) > remaining ? (known ?? atLeastOf(t, i, remaining)) : 0
      if (b > remaining) miss = `needs ${known === undefined ? 'at least ' : ''}${b} tokens, ${remaining} left`
      else {
        markCounted(t, i)
        const cost = takeCount(t, i) + joinAt(l, i)
        if (cost > remaining) miss = `needs ${cost} tokens, ${remaining} left`
        else remaining -= cost
      }
    }
    // the turns behind the first miss are left out too (see `reportOf`)
    if (miss !== undefined) return { from: i + 1, miss }
  }
  return { from: reach, miss: undefined }
}
