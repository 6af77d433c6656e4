/**
 * What a fill leaves out, recorded as it goes and worded only when read.
 *
 * A build with a thousand evidence passages leaves most of them out, each with a reason and
 * a detail (`needs at least 48 tokens, 12 left`), most of them against the same tokens left:
 * the fill records each unit with the numbers of its detail, and the words are made once,
 * when the reasons are read, exactly as the fill would have made them then (the numbers are
 * the ones it saw; nothing it records changes afterwards), each distinct detail once.
 *
 * @module
 */
import type { Exclusion, ExclusionReason } from '../phase.js'
import type { Unit } from './selector.js'

/** The record of one fill: one entry per unit left out, in order (a builder local to the fill). */
export interface LeftOut {
  readonly units: Unit[]
  readonly reasons: ExclusionReason[]
  /** The detail, or undefined for `needs …` details, worded from `numbers`. */
  readonly details: Array<string | undefined>
  /** Three per entry: the tokens the unit needs, 1 when that is a lower bound, the tokens left. */
  readonly numbers: number[]
}

/** An empty record. */
export const leftOut = (): LeftOut => ({ units: [], reasons: [], details: [], numbers: [] })

/** Records `u` left out for `reason`, with its `detail`. */
export const leave = (j: LeftOut, u: Unit, reason: ExclusionReason, detail: string): void => {
  j.units.push(u)
  j.reasons.push(reason)
  j.details.push(detail)
  j.numbers.push(0, 0, 0)
}

/** Records `u` left out over the budget: it needs `tokens` (at least, with `atLeast`) and `remaining` were left. */
export const leaveNeeding = (j: LeftOut, u: Unit, tokens: number, atLeast: boolean, remaining: number): void => {
  j.units.push(u)
  j.reasons.push('over_budget')
  j.details.push(undefined)
  j.numbers.push(tokens, atLeast ? 1 : 0, remaining)
}

/** The detail of a unit that needs `tokens` with `remaining` left. */
export const needsText = (u: Unit, tokens: number, atLeast: boolean, remaining: number): string =>
  `needs ${atLeast ? 'at least ' : ''}${tokens} tokens${u.packets.length > 1 ? ` with the ${u.packets.length - 1} other packet(s) of its group` : ''}, ${remaining} left`

/**
 * The exclusions recorded, one per packet of each unit, in order. Hundreds of passages left
 * out against the same `remaining` share a handful of distinct details: each is made once.
 * With `at`, the exclusion of a unit of one packet is also put at the unit's `index` (its
 * packet's place among the packets prepared).
 */
export const worded = (j: LeftOut, at?: Array<Exclusion | undefined>): ReadonlyArray<Exclusion> => {
  const out: Exclusion[] = []
  const made = new Map<number, string>()
  let madeAt = Number.NaN
  for (let k = 0; k < j.units.length; k++) {
    const u = j.units[k]!
    let detail = j.details[k]
    if (detail === undefined) {
      const tokens = j.numbers[3 * k]!
      const atLeast = j.numbers[3 * k + 1] === 1
      const remaining = j.numbers[3 * k + 2]!
      if (u.packets.length > 1) detail = needsText(u, tokens, atLeast, remaining)
      else {
        if (remaining !== madeAt) {
          made.clear()
          madeAt = remaining
        }
        const key = atLeast ? -1 - tokens : tokens
        detail = made.get(key)
        if (detail === undefined) made.set(key, (detail = needsText(u, tokens, atLeast, remaining)))
      }
    }
    const reason = j.reasons[k]!
    for (const p of u.packets) out.push({ id: p.id, reason, detail })
    if (at !== undefined && u.packets.length === 1) at[u.index] = out[out.length - 1]
  }
  return out
}
