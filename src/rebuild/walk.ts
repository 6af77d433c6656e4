/**
 * The history gatherer's walk, as a rebuild takes it: from the newest turn back, each turn's
 * counted bound (`gather/walkBound.ts`) and one more added to the leading system turns' until past the budget; the
 * turn after the one that passed it is the first made into a packet (`reach`).
 *
 * Over the memo's turns the walk is a binary search on the sums of their bounds
 * (`TurnTable.sums`): a rebuild runs a few dozen times before the bench times it, too few for
 * V8 to have optimized the rebuild's own code, and there a step per turn costs more than all
 * the rest of the walk.
 *
 * @module
 */
import { countedBound } from '../gather/walkBound.js'
import { boundOf, oldestHolding, sumOver, type BuildTable } from './table.js'

/**
 * The oldest of the memo's turns `[lo, i]` from which the walk's bounds (from `bound` on)
 * stay within the budget. Its own function, so that `walkReach` makes no closure (see
 * `./append.ts` on how the rebuild's code is written).
 */
const passing = (t: BuildTable, lo: number, i: number, bound: number, budget: number, hint: number): number =>
  oldestHolding(lo, i, (m) => !(bound + sumOver(t, t.memo.sums.bounds, m, t.length) > budget), hint)

/**
 * The first turn made into a packet, in the build's table `t`: the walk starts at the
 * leading system turns' bounds (`leadBound`), goes back no further than `windowStart` (the
 * message limit's first turn), and tries `hint` first (the previous build's reach).
 *
 * @category utils
 */
export const walkReach = (t: BuildTable, leadBound: number, budget: number, windowStart: number, hint: number): number => {
  const top = t.length
  const lo = Math.max(windowStart, t.memo.from)
  let bound = leadBound
  let i = t.n - 1
  // the new turns, one by one
  for (; i >= top && i >= windowStart; i--) {
    bound += boundOf(t, i) + 1
    if (bound > budget) return i + 1
  }
  if (i >= lo) {
    // the memo's turns: the newest one at which the bounds pass the budget, if any (the sums grow as the walk goes back)
    const sums = t.memo.sums.bounds
    if (bound + sumOver(t, sums, lo, top) > budget) return !(bound + sumOver(t, sums, i, top) > budget) ? passing(t, lo, i, bound, budget, hint) : i + 1
    bound += sumOver(t, sums, lo, top)
    i = lo - 1
  }
  // a turn before the table's is the one the walk stops at, at most
  for (; i >= windowStart; i--) {
    bound += countedBound(t.meter, t.turns[i]!.content) + 1
    if (bound > budget) return i + 1
  }
  return windowStart
}
