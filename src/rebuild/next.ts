/**
 * The memo a rebuilt result carries for the next build (`./memo.ts`): the same settings, the
 * turns it read, and what it knows of them, shared with the previous memo where unchanged.
 *
 * @module
 */
import { availableTokens } from '../config.js'
import { reachOf } from '../request.js'
import type { RebuildMemo } from './memo.js'
import type { Turn } from './layOut.js'

/** What this build learned, for {@link nextMemo}. */
export interface Learned {
  readonly reach: number
  /** Counts and joins taken besides the memo's. */
  readonly counts: ReadonlyMap<number, number>
  readonly joins: ReadonlyMap<number, number>
  readonly first: RebuildMemo['first']
  readonly output: RebuildMemo['output']
  readonly frame: RebuildMemo['frame']
  readonly roleCost: ReadonlyMap<string, number>
  readonly lowerBound: (text: string) => number
}

/**
 * The memo of the rebuilt result of history `h`.
 *
 * @category utils
 */
export const nextMemo = (memo: RebuildMemo, h: ReadonlyArray<unknown>, l: Learned): RebuildMemo => {
  const { reach, lowerBound: lb } = l
  const from = Math.min(reach, reachOf(h, { budget: availableTokens(memo.key.config), lowerBound: lb }).from)
  const bounds = new Map<string, number>()
  for (let i = 0; i < memo.lead; i++) bounds.set((h[i] as Turn).content, lb((h[i] as Turn).content))
  for (let i = from; i < h.length; i++) bounds.set((h[i] as Turn).content, lb((h[i] as Turn).content))
  return {
    ...memo,
    length: h.length,
    from,
    reach,
    turns: [...h.slice(0, memo.lead), ...h.slice(from)],
    lowerBounds: bounds,
    counts: since(reach, memo.counts, l.counts),
    joins: since(reach, memo.joins, l.joins),
    first: l.first,
    output: l.output,
    frame: l.frame,
    // the previous table when no role was added (the same object)
    layout: l.roleCost.size === memo.layout.roleCost.size ? memo.layout : { ...memo.layout, roleCost: l.roleCost },
  }
}

/** The entries of `a` and `b` from index `reach` on. */
const since = (reach: number, a: ReadonlyMap<number, number>, b: ReadonlyMap<number, number>): ReadonlyMap<number, number> => {
  const out = new Map<number, number>()
  for (const m of [a, b]) for (const [i, c] of m) if (i >= reach) out.set(i, c)
  return out
}
