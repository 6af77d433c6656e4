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
import type { Meter } from '../tokenize/meter.js'

/**
 * Turn `i`'s label and separator joined with its text, less its count: the table's, else
 * measured (and kept).
 *
 * @category utils
 */
export const joinAt = (l: Layouts, i: number): number => {
  let j = joinOf(l.table, i)
  if (j !== j) setJoin(l.table, i, (j = joinedTurn(l.table.meter, itemAt(l, i), l.context.separator)))
  return j
}

/** A turn this short is counted whole with its label (see {@link joinedTurn}). */
const SHORT = 256

/**
 * What a turn's label, suffix and separator add joined with its text: from its word edges
 * when the meter found them (counted with the text, `Tokenizer.countEnds`: only the label with
 * the first word and the last word with the separator are counted, short pieces), else, for a
 * short turn, counted whole (one count where `joinedCount` would take four pieces). The same
 * number either way (below its 512 units `joinedCount` counts whole too, or splits at word
 * ends, where counts add up).
 *
 * @category utils
 */
export const joinedTurn = (meter: Meter, item: Item, separator: string): number => {
  const after = `${item.suffix ?? ''}${separator}`
  const found = meter.found(item.text) !== undefined
  const whole =
    found || item.text.length > SHORT
      ? joinedCount(meter.once, meter.tokenizer.name, item.prefix, item.text, item.tokens, after, found ? meter.found : meter.edges)
      : meter.once(`${item.prefix}${item.text}${after}`)
  return whole - item.tokens
}
