/**
 * What the history gatherer's walk back counts a turn as, when the history has the budget to
 * itself (`build`, when nothing but what is always kept competes with the history): from the
 * turn's exact count, taken through the build's meter, so the count is the one the selector
 * takes next.
 *
 * Why it bounds what the turn costs wherever it is laid out: counts split at word ends
 * whatever comes before or after (`compress/outputCount.ts`). A layout that shows the text
 * whole, a label before it and a separator after, costs the text's middle (between its first
 * and last word ends: the count less what the two ends count alone), plus the label with the
 * text before the first word end, which holds a letter, so a token at least, and the text
 * from the last word end with the separator, which holds the character at that end, so a
 * token too. So `count − count(head) − count(tail) + 1`, plus the walk's one more per turn,
 * never exceeds the turn's cost.
 *
 * The ends are counted through the meter, as the text's {@link Meter.edges}, in the same
 * pass as the text itself where the tokenizer can (`Tokenizer.countEnds`): joining a selected
 * turn to its decoration needs exactly those counts, so a turn the selector keeps costs no
 * count more. Bounding the ends by their UTF-8 bytes instead (one token holds one at
 * least) cost no count, but a Chinese head of twelve characters is 36 bytes and perhaps six
 * tokens: of 10,000 bench turns the walk read 131 where 99 fit, and counted each; with the ends
 * counted it reads 108 (the budget it stops at is the whole available one, not what the
 * instructions and headings leave), 15% fewer characters tokenized a build.
 *
 * @module
 */
import { splitsAtWordEnds } from '../compress/outputCount.js'
import type { Meter } from '../tokenize/meter.js'

/**
 * A turn's text as the walk counts it (see the module comment), counted through `meter`; the
 * tokenizer's lower bound when the text has no word end, or when counts under the tokenizer
 * do not split at word ends. Never more than the text's own count.
 *
 * @example
 * countedBound(meter, 'why does the build fail?') // meter.once(text) − count('why') − count('?') + 1
 * @category utils
 */
export const countedBound = (meter: Meter, text: string): number => {
  if (!splitsAtWordEnds(meter.tokenizer)) return meter.tokenizer.lowerBound(text)
  const e = meter.edges(text)
  if (e === undefined) return meter.tokenizer.lowerBound(text)
  return Math.max(0, meter.once(text) - e.head - e.tail + 1)
}
