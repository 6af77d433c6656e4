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
import { oldestHolding, sumOver, takeBound, takeCount, type BuildTable } from './table.js'

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
 * A build that carries no memo for the next one (`exact` false) needs the new turns' bounds
 * only for where the walk stops: a bound is at least 0 and at most the turn's count (the
 * text before its first word end and from its last count a token each; a text without one
 * is bounded by the tokenizer's lower bound), and the walk stops no later with smaller
 * bounds. So where the walk with each new turn's bound at its count stops, the walk with
 * the bounds stops too, unless the walk with them at 0 takes the turn before (`mayTake`).
 * The count is the one the fill takes next; the bound would count the text's two ends
 * besides, two calls of the tokenizer. Otherwise the bounds are taken: every new turn's for
 * a build that carries them to the next.
 *
 * @category utils
 */
export const walkReach = (t: BuildTable, leadBound: number, budget: number, windowStart: number, hint: number, exact: boolean): number => {
  if (exact) for (let i = t.length; i < t.n; i++) takeBound(t, i)
  else {
    const most = walkWith(t, leadBound, budget, windowStart, hint, takeCount)
    if (!mayTake(t, leadBound, budget, windowStart, most - 1)) return most
  }
  return walkWith(t, leadBound, budget, windowStart, hint, takeBound)
}

/**
 * Whether the walk with every new turn's bound at its least (0, and one more per turn) may
 * take turn `k`: it does when its bounds from the newest turn to `k` stay within the budget
 * (the walk stops no later than there), and it may when `k` lies before the table (its bound
 * not known here).
 */
const mayTake = (t: BuildTable, leadBound: number, budget: number, windowStart: number, k: number): boolean => {
  if (k < windowStart) return false
  if (k < t.memo.from) return true
  const top = t.length
  return leadBound + t.n - Math.max(k, top) + (k < top ? sumOver(t, t.memo.sums.bounds, k, top) : 0) <= budget
}

/** {@link walkReach}'s walk, a new turn's bound taken by `bound`. */
const walkWith = (t: BuildTable, leadBound: number, budget: number, windowStart: number, hint: number, bound: (t: BuildTable, i: number) => number): number => {
  const top = t.length
  const lo = Math.max(windowStart, t.memo.from)
  let sum = leadBound
  let i = t.n - 1
  // the new turns, one by one
  for (; i >= top && i >= windowStart; i--) {
    sum += bound(t, i) + 1
    if (sum > budget) return i + 1
  }
  if (i >= lo) {
    // the memo's turns: the newest one at which the bounds pass the budget, if any (the sums grow as the walk goes back)
    const sums = t.memo.sums.bounds
    if (sum + sumOver(t, sums, lo, top) > budget) return !(sum + sumOver(t, sums, i, top) > budget) ? passing(t, lo, i, sum, budget, hint) : i + 1
    sum += sumOver(t, sums, lo, top)
    i = lo - 1
  }
  // a turn before the table's is the one the walk stops at, at most
  for (; i >= windowStart; i--) {
    sum += countedBound(t.meter, t.turns[i]!.content) + 1
    if (sum > budget) return i + 1
  }
  return windowStart
}
