/**
 * One fill of the history window, as `layoutAware` fills it (`src/select/fill.ts`, which this
 * follows for single-turn units): from the newest turn back, each turn charged its count and
 * a decoration, until the first that does not fit; the turns behind it are left out too.
 *
 * @module
 */
import { BUDGET_FULL } from '../select/fill.js'
import { countOf, isCounted, joinOf, markCounted, textLengthOf, type BuildTable } from './table.js'

/** One fill of the history window: the turns taken are the newest ones, `[from, n)`. */
export interface Window {
  /** The oldest turn taken (`n` when none was). */
  readonly from: number
  /** Why the newest turn not taken (`from − 1`) was left out, if one was. */
  readonly miss: string | undefined
}

/** The turns a fill reads, and the counts it takes (the build's, each taken at most once). */
export interface FillEnv {
  /** Turns in the history; the window ends at the newest. */
  readonly n: number
  /** The oldest turn the fill may take. */
  readonly reach: number
  /** The build's table: the turns' text lengths, and which counts a fill has taken (`counted`; a fill that asked only a bound did not). */
  readonly table: BuildTable
  /** The turn's exact count, when the table has none yet (it is taken then). */
  readonly count: (i: number) => number
  /** A lower bound of the turn's count, cut short above `above`. */
  readonly atLeast: (i: number, above: number) => number
}

/** What a fill charges a turn besides its count: its join (the table's) from turn `joined` on, `other` before it. */
export interface Decoration {
  readonly joined: number
  readonly other: number
}

/**
 * The window `room` tokens hold, each turn charged its count and its decoration. A hot loop:
 * the table is read through plain functions, the count asked of `env` only when unknown.
 *
 * @category utils
 */
export const fillWindow = (env: FillEnv, room: number, decoration: Decoration): Window => {
  const { table } = env
  const count = (i: number): number => {
    const c = countOf(table, i)
    return c === c ? c : env.count(i)
  }
  let remaining = room
  for (let i = env.n - 1; i >= env.reach; i--) {
    const d = i >= decoration.joined ? joinOf(table, i) : decoration.other
    let miss: string | undefined
    if (remaining <= 0) miss = BUDGET_FULL
    else {
      const known = isCounted(table, i) ? count(i) : undefined
      // a lower bound first, when even the text's length could not fit (the cold fill's test)
      const b = (known ?? textLengthOf(table, i)) + d > remaining ? (known ?? env.atLeast(i, remaining)) + d : 0
      if (b > remaining) miss = `needs ${known === undefined ? 'at least ' : ''}${b} tokens, ${remaining} left`
      else {
        markCounted(table, i)
        const cost = count(i) + d
        if (cost > remaining) miss = `needs ${cost} tokens, ${remaining} left`
        else remaining -= cost
      }
    }
    // the turns behind the first miss are left out too (see `reportOf`)
    if (miss !== undefined) return { from: i + 1, miss }
  }
  return { from: env.reach, miss: undefined }
}
