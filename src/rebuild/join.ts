/**
 * What `layoutAware` charges a turn besides its count, as a rebuild takes it: its label and
 * separator joined with its text (`src/select/layoutAware.ts`), from the table when the
 * previous build measured it, else measured on the turn's item and kept.
 *
 * @module
 */
import { joinedCount } from '../compress/outputCount.js'
import type { Item } from '../structure/document.js'
import { itemAt, type Layouts } from './layOut.js'
import { joinOf, setJoin } from './table.js'

/**
 * Turn `i`'s label and separator joined with its text, less its count: the table's, else
 * measured (and kept).
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
 * What a turn's label, suffix and separator add joined with its text. A short turn is
 * counted whole: one count where `joinedCount` would take four pieces, and the same number
 * (below its 512 units it counts whole too, or splits at word ends, where counts add up).
 *
 * @category utils
 */
export const joinedTurn = (count: (text: string) => number, encoding: string, item: Item, separator: string): number => {
  const after = `${item.suffix ?? ''}${separator}`
  const whole = item.text.length <= SHORT ? count(`${item.prefix}${item.text}${after}`) : joinedCount(count, encoding, item.prefix, item.text, item.tokens, after)
  return whole - item.tokens
}
