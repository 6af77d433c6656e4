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

/** What the walk reads. */
export interface WalkEnv {
  /** The build's table (and its turns, and its meter's tokenizer for the turns before it). */
  readonly table: BuildTable
  /** The leading system turns' bounds, one more per turn: where the walk starts. */
  readonly leadBound: number
  readonly budget: number
  /** The oldest turn the walk may take (the window's start). */
  readonly windowStart: number
}

/**
 * The first turn made into a packet.
 *
 * @category utils
 */
export const walkReach = (env: WalkEnv): number => {
  const { table, budget, windowStart } = env
  const top = table.length
  const lo = Math.max(windowStart, table.memo.from)
  let bound = env.leadBound
  let i = table.n - 1
  // the new turns, one by one
  for (; i >= top && i >= windowStart; i--) {
    bound += boundOf(table, i) + 1
    if (bound > budget) return i + 1
  }
  if (i >= lo) {
    // the memo's turns: the newest one at which the bounds pass the budget, if any (the sums grow as the walk goes back)
    const sums = table.memo.sums.bounds
    if (bound + sumOver(table, sums, lo, top) > budget) {
      const from = bound
      return !(from + sumOver(table, sums, i, top) > budget) ? oldestHolding(lo, i, (m) => !(from + sumOver(table, sums, m, top) > budget)) : i + 1
    }
    bound += sumOver(table, sums, lo, top)
    i = lo - 1
  }
  // a turn before the table's is the one the walk stops at, at most
  for (; i >= windowStart; i--) {
    bound += countedBound(table.meter, table.turns[i]!.content) + 1
    if (bound > budget) return i + 1
  }
  return windowStart
}
