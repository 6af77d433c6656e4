/**
 * What the history gatherer's walk back counts a turn as, when the history has the budget to
 * itself (`build`, when nothing but what is always kept competes with the history): from the
 * turn's exact count, taken through the build's meter, so the count is the one the selector
 * takes next.
 *
 * Why it bounds what the turn costs wherever it is laid out: counts split at word ends
 * whatever comes before or after (`compress/outputCount.ts`). A layout that shows the text
 * whole, a label before it and a separator after, costs at least the text's middle (between
 * its first and last word ends), plus a token for the label with the text before the first
 * word end and one for the text from the last with the separator. The middle is the count
 * less what the two ends count alone, and each end counts at most its UTF-8 bytes (a token
 * holds one at least). So `count − bytes(head) − bytes(tail) + 1`, plus the walk's one more
 * per turn, never exceeds the turn's cost, and the ends are measured, not tokenized: counting
 * short texts between the long ones slows the tokenizer's long counts (a build counts the
 * ends later, with the joins).
 *
 * The walk then stops about where the turns stop fitting. The tokenizer's lower bound (a
 * text's pieces, blind to how BPE merges them) let it read on: of 10,000 bench turns, 169
 * were made into packets where 99 fit, each bounded, then counted.
 *
 * @module
 */
import { splitsAtWordEnds } from '../compress/outputCount.js'
import type { Meter } from '../tokenize/meter.js'
import { utf8Length } from '../tokenize/utf8.js'
import { wordEnds } from '../tokenize/wordEdges.js'

/**
 * A turn's text as the walk counts it (see the module comment), counted through `meter`; the
 * tokenizer's lower bound when the text has no word end, or when counts under the tokenizer
 * do not split at word ends. Never more than the text's own count.
 *
 * @example
 * countedBound(meter, 'why does the build fail?') // meter.once(text) − 3 ("why") − 1 ("?") + 1
 * @category utils
 */
export const countedBound = (meter: Meter, text: string): number => {
  if (!splitsAtWordEnds(meter.tokenizer)) return meter.tokenizer.lowerBound(text)
  const ends = wordEnds(text, true)
  if (ends === undefined) return meter.tokenizer.lowerBound(text)
  return Math.max(0, meter.once(text) - utf8Length(text, 0, ends[0]) - utf8Length(text, ends[1]) + 1)
}
