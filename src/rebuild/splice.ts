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
import { renderBlocks, sectionsOf, type Document, type Item, type Section } from '../structure/document.js'

/** The previous output: its text, ids, and window `[from, to)` of `context`'s turns. */
export interface Before {
  readonly output: string
  readonly included: ReadonlyArray<string>
  readonly context: Section
  readonly from: number
  readonly to: number
  /** The lengths of the text before the window's first turn and after its last. */
  readonly chars: { readonly opening: number; readonly closing: number }
}

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
 * The output showing the turns `[from, to)`, or undefined when the window does not start
 * inside the previous one (then the caller renders it).
 *
 * @category utils
 */
export const spliced = (b: Before, from: number, to: number, item: (i: number) => Item): Spliced | undefined => {
  const { output, context, chars } = b
  if (from < b.from || from >= b.to || to < b.to) return undefined
  const sep = context.separator
  let start = chars.opening
  for (let i = b.from; i < from; i++) start += shownLength(context.items[i - b.from]!) + sep.length
  const end = output.length - chars.closing
  let text = output.slice(0, chars.opening) + output.slice(start, end)
  const added: string[] = []
  for (let i = b.to; i < to; i++) {
    const it = item(i)
    text += `${sep}${it.prefix}${it.text}${it.suffix ?? ''}`
    added.push(it.packetId!)
  }
  text += output.slice(end)
  // the window's ids sit together among the output's, after those of the sections before it
  const inc = b.included
  const at = inc.indexOf(`history:${b.from}`)
  if (at < 0) return undefined
  // arrays of their final length, filled in order: a rebuild's largest allocations
  const windowIds = new Array<string>(b.to - from + added.length)
  const ids = new Array<string>(inc.length - (from - b.from) + added.length)
  let w = 0
  let k = 0
  for (; k < at; k++) ids[k] = inc[k]!
  for (let j = at + from - b.from; j < at + b.to - b.from; j++) ids[k++] = windowIds[w++] = inc[j]!
  for (const id of added) ids[k++] = windowIds[w++] = id
  for (let j = at + b.to - b.from; j < inc.length; j++) ids[k++] = inc[j]!
  return { text, ids, windowIds }
}
