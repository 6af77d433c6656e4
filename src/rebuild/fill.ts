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

/** The turns a fill reads, and the counts it takes (the table's, each taken at most once per build). */
export interface FillEnv {
  /** Turns in the history; the window ends at the newest. */
  readonly n: number
  /** The oldest turn the fill may take. */
  readonly reach: number
  /**
   * The build's table: the turns' text lengths, their counts (taken through it when unknown,
   * `takeCount`, and their lower bounds, `atLeastOf`), and which counts a fill has taken
   * (`counted`; a fill that asked only a bound did not).
   */
  readonly table: BuildTable
}

/** What a fill charges a turn besides its count: its join (the table's) from turn `joined` on, `other` before it. */
export interface Decoration {
  readonly joined: number
  readonly other: number
}

/** What the memo's turns `[s, to)` cost, each its count and decoration: NaN when a number is not known. */
const costOver = (t: BuildTable, s: number, to: number, d: Decoration): number => {
  const { sums } = t.memo
  const joined = Math.max(s, Math.min(d.joined, to))
  return sumOver(t, sums.counts, s, to) + (joined < to ? sumOver(t, sums.joins, joined, to) : 0) + (joined > s ? (joined - s) * d.other : 0)
}

/**
 * The oldest of the memo's turns from `i` back that a fill with `remaining` tokens left at
 * turn `i` surely takes (`i + 1` when none): the turns it takes cost less than `remaining`
 * together, so none is the first miss nor leaves nothing for the next. A binary search on
 * the table's sums; the turn where it stops goes through the fill's own steps.
 */
const surelyTaken = (t: BuildTable, i: number, lo: number, remaining: number, d: Decoration): number => {
  if (lo > i || !(costOver(t, i, i + 1, d) < remaining)) return i + 1
  // a sum grows as it goes back; NaN never fits
  return oldestHolding(lo, i, (s) => costOver(t, s, i + 1, d) < remaining)
}

/**
 * The window `room` tokens hold, each turn charged its count and its decoration. A hot loop:
 * the table is read through plain functions, a count taken only when unknown.
 * Over the memo's turns it steps past the turns it surely takes (`surelyTaken`) at once: a
 * rebuild runs too few times before it is timed for V8 to optimize this loop, and then a step
 * per turn costs more than the rest of the fill.
 *
 * @category utils
 */
export const fillWindow = (env: FillEnv, room: number, decoration: Decoration): Window => {
  const { table } = env
  const lo = Math.max(env.reach, table.memo.from)
  let remaining = room
  for (let i = env.n - 1; i >= env.reach; i--) {
    // the turns taken so far are counted from `counted.low` on, without a gap: those surely taken join them
    if (i < table.length && i >= lo && remaining > 0 && table.counted.low <= i + 1) {
      const s = surelyTaken(table, i, lo, remaining, decoration)
      if (s <= i) {
        remaining -= costOver(table, s, i + 1, decoration)
        table.counted.low = Math.min(table.counted.low, s)
        i = s
        continue
      }
    }
    const d = i >= decoration.joined ? joinOf(table, i) : decoration.other
    let miss: string | undefined
    if (remaining <= 0) miss = BUDGET_FULL
    else {
      const known = isCounted(table, i) ? takeCount(table, i) : undefined
      // a lower bound first, when even the text's length could not fit (the cold fill's test)
      const b = (known ?? textLengthOf(table, i)) + d > remaining ? (known ?? atLeastOf(table, i, remaining)) + d : 0
      if (b > remaining) miss = `needs ${known === undefined ? 'at least ' : ''}${b} tokens, ${remaining} left`
      else {
        markCounted(table, i)
        const cost = takeCount(table, i) + d
        if (cost > remaining) miss = `needs ${cost} tokens, ${remaining} left`
        else remaining -= cost
      }
    }
    // the turns behind the first miss are left out too (see `reportOf`)
    if (miss !== undefined) return { from: i + 1, miss }
  }
  return { from: env.reach, miss: undefined }
}
