/**
 * What `layoutAware` charges a window of the newest turns `[from, n)`, as a rebuild takes it:
 * its first estimate (the layout's own text, the always-kept packets' items, each turn's
 * count and role cost) and widest turn cost, and the second fill's totals (each turn's count,
 * and its label and separator joined with its text). The memo's turns are read from the
 * table's sums when it knows every number (`TurnTable.sums`), the others one by one.
 *
 * @module
 */
import { joinedCount } from '../compress/outputCount.js'
import type { Item } from '../structure/document.js'
import type { LayoutCosts } from './costs.js'
import { itemAt, type Layouts } from './layOut.js'
import { joinOf, roleCostOf, setJoin, sumOver, takeCount, type BuildTable } from './table.js'

/** The window's estimate and widest turn cost; `summed`: the memo's turns were read from the sums (NaN estimate: a turn's role cost is not known). */
export interface WindowEstimate {
  readonly estimate: number
  readonly widest: number
  readonly summed: boolean
}

/**
 * layoutAware's estimate of the window `[from, t.n)`: each turn its count and its role's cost (`roleCostOf`).
 *
 * @category utils
 */
export const windowEstimate = (layout: LayoutCosts, t: BuildTable, from: number): WindowEstimate => {
  const { sums } = t.memo
  let estimate = layout.raw + layout.alwaysItems
  let widest = layout.typeCost.get('history') ?? Number.NEGATIVE_INFINITY
  const known = from < t.length ? sumOver(t, sums.counts, from, t.length) + sumOver(t, sums.costs, from, t.length) : 0
  const summed = from < t.length && known === known
  if (summed) {
    estimate += known
    widest = Math.max(widest, sums.widest[from - t.memo.from]!)
  }
  for (let i = summed ? t.length : from; i < t.n; i++) {
    const cost = roleCostOf(t, i)
    estimate += takeCount(t, i) + cost
    widest = Math.max(widest, cost)
  }
  return { estimate, widest, summed }
}

/**
 * The second fill's totals over the window `[from, n)` of the layouts `l`, the always-kept
 * packets' included: the turns' counts, and their labels and separators joined with their
 * texts ({@link joinAt}, which measures a turn the table has not). `summed`:
 * {@link windowEstimate} read the memo's counts from the sums.
 *
 * @category utils
 */
export const windowJoins = (layout: LayoutCosts, l: Layouts, from: number, summed: boolean): { readonly content: number; readonly joined: number } => {
  const t = l.table
  let content = layout.alwaysContent
  let joined = layout.alwaysJoined
  const joins = summed ? sumOver(t, t.memo.sums.joins, from, t.length) : Number.NaN
  if (joins === joins) {
    content += sumOver(t, t.memo.sums.counts, from, t.length)
    joined += joins
  }
  for (let i = joins === joins ? t.length : from; i < t.n; i++) {
    joined += joinAt(l, i)
    content += takeCount(t, i)
  }
  return { content, joined }
}

/**
 * Turn `i`'s decoration and separator joined with its text (layoutAware's second fill): the
 * table's, else measured (and kept).
 *
 * @category utils
 */
export const joinAt = (l: Layouts, i: number): number => {
  let j = joinOf(l.table, i)
  if (j !== j) setJoin(l.table, i, (j = joinedTurn(l.table.meter.once, l.table.meter.tokenizer.name, itemAt(l, i), l.context.separator)))
  return j
}

/** A turn this short is counted whole with its label (see {@link joinedTurn}). */
const SHORT = 256

/**
 * What a turn's label, suffix and separator add joined with its text (layoutAware's second
 * fill). A short turn is counted whole: one count where `joinedCount` would take four pieces,
 * and the same number (below its 512 units it counts whole too, or splits at word ends, where
 * counts add up).
 *
 * @category utils
 */
export const joinedTurn = (count: (text: string) => number, encoding: string, item: Item, separator: string): number => {
  const after = `${item.suffix ?? ''}${separator}`
  const whole = item.text.length <= SHORT ? count(`${item.prefix}${item.text}${after}`) : joinedCount(count, encoding, item.prefix, item.text, item.tokens, after)
  return whole - item.tokens
}
