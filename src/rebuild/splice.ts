/**
 * The rebuilt output's text and ids from the previous output's, when the new window starts
 * inside the previous one: the layout's text before the window and after it, and the turns
 * both windows show, are cut out of the previous output by their lengths, and the new turns
 * are laid out after them (as `renderBlocks` joins a section's items: the separator, then
 * each item's label, text and suffix). Only the turns that left the window and the new ones
 * are read; a cold build renders every turn of the window again.
 *
 * @module
 */
import { renderBlocks, sectionsOf, type Document, type Item } from '../structure/document.js'
import { itemAt, type Layouts } from './layOut.js'

/** The spliced output: its text, every item's id in order, and the window's ids. */
export interface Spliced {
  readonly text: string
  readonly ids: ReadonlyArray<string>
  readonly windowIds: ReadonlyArray<string>
}

/**
 * A document's text and ids, rendered whole: the output when it cannot be spliced.
 *
 * @category utils
 */
export const rendering = (doc: Document): Spliced => {
  const r = renderBlocks(doc.blocks, doc.joiner)
  const context = sectionsOf(doc).find((s) => s.name === 'context')
  return { text: r.text, ids: r.ids, windowIds: (context?.items ?? []).map((i) => i.packetId!) }
}

const shownLength = (it: Item): number => it.prefix.length + it.text.length + (it.suffix?.length ?? 0)

/**
 * The output of the layouts `l` showing the turns `[from, to)`, or undefined when the window
 * does not start inside the previous one, or the previous output's text around its window
 * could not be split off (then the caller renders it).
 *
 * @category utils
 */
export const spliced = (l: Layouts, from: number, to: number): Spliced | undefined => {
  const { prev, context, shown } = l
  const { output } = prev
  const { chars } = prev.rebuild
  if (chars === undefined || from < shown.from || from >= shown.to || to < shown.to) return undefined
  const sep = context.separator
  let start = chars.opening
  for (let i = shown.from; i < from; i++) start += shownLength(shown.items[i - shown.from]!) + sep.length
  const end = output.length - chars.closing
  let text = output.slice(0, chars.opening) + output.slice(start, end)
  for (let i = shown.to; i < to; i++) {
    const it = itemAt(l, i)
    text += `${sep}${it.prefix}${it.text}${it.suffix ?? ''}`
  }
  text += output.slice(end)
  // the window's ids sit together among the output's, after those of the sections before it
  const inc = prev.included
  const at = inc.indexOf(shown.items[0]!.packetId!)
  if (at < 0) return undefined
  // slices and a concat, builtins: a loop per turn here runs as V8's baseline code (a
  // rebuild runs too few times to be optimized: see ./append.ts), three times slower
  const a = at + from - shown.from
  const b = at + shown.to - shown.from
  const windowIds = inc.slice(a, b)
  for (let i = shown.to; i < to; i++) windowIds.push(itemAt(l, i).packetId!)
  const ids = inc.slice(0, at).concat(windowIds, inc.slice(b))
  return { text, ids, windowIds }
}
