/**
 * One fill of the history window, as `layoutAware` fills it (`src/select/fill.ts`, which this
 * follows for single-turn units): from the newest turn back, each turn charged its count and
 * a decoration, until the first that does not fit; the turns behind it are left out too.
 *
 * @module
 */
import type { Exclusion } from '../phase.js'
import { BEHIND_WINDOW, BUDGET_FULL } from '../select/fill.js'

/** One fill of the history window. */
export interface Window {
  /** Indices taken, newest first. */
  readonly taken: ReadonlyArray<number>
  /** Why the newest turn not taken was left out, if one was. */
  readonly miss: string | undefined
}

/** The turns a fill reads, and the counts it takes (the build's, each taken at most once). */
export interface FillEnv {
  /** Turns in the history; the window ends at the newest. */
  readonly n: number
  /** The oldest turn the fill may take. */
  readonly reach: number
  readonly content: (i: number) => string
  /** The turn's exact count. */
  readonly count: (i: number) => number
  /** A lower bound of the turn's count, cut short above `above`. */
  readonly atLeast: (i: number, above: number) => number
  /** Turns whose count a fill has taken (a fill that asked only a bound did not). */
  readonly counted: Set<number>
}

/**
 * The window `room` tokens hold, each turn charged its count and `decoration(i)`.
 *
 * @category utils
 */
export const fillWindow = (env: FillEnv, room: number, decoration: (i: number) => number): Window => {
  const { counted, count } = env
  const taken: number[] = []
  let remaining = room
  for (let i = env.n - 1; i >= env.reach; i--) {
    const d = decoration(i)
    let miss: string | undefined
    if (remaining <= 0) miss = BUDGET_FULL
    else {
      const known = counted.has(i) ? count(i) : undefined
      // a lower bound first, when even the text's length could not fit (the cold fill's test)
      const b = (known ?? env.content(i).length) + d > remaining ? (known ?? env.atLeast(i, remaining)) + d : 0
      if (b > remaining) miss = `needs ${known === undefined ? 'at least ' : ''}${b} tokens, ${remaining} left`
      else {
        counted.add(i)
        const cost = count(i) + d
        if (cost > remaining) miss = `needs ${cost} tokens, ${remaining} left`
        else remaining -= cost
      }
    }
    // the turns behind the first miss are left out too (see `exclusionsOf`)
    if (miss === undefined) taken.push(i)
    else return { taken, miss }
  }
  return { taken, miss: undefined }
}

/** A window's turns, oldest first. */
export const oldestFirst = (w: Window): ReadonlyArray<number> => {
  const out: number[] = []
  for (let k = w.taken.length - 1; k >= 0; k--) out.push(w.taken[k]!)
  return out
}

/**
 * A window's exclusions, newest first: its first miss, then every older turn from `reach` on behind it.
 *
 * @category utils
 */
export const exclusionsOf = (w: Window, reach: number, n: number): ReadonlyArray<Exclusion> => {
  if (w.miss === undefined) return []
  const at = n - 1 - w.taken.length
  const excluded: Exclusion[] = [{ id: `history:${at}`, reason: 'over_budget', detail: w.miss }]
  for (let i = at - 1; i >= reach; i--) excluded.push({ id: `history:${i}`, reason: 'over_budget', detail: BEHIND_WINDOW })
  return excluded
}
