/**
 * The rebuild's layouts: the previous document with its context section showing another
 * window of turns. A turn the previous layout showed keeps its item; any other is laid out as
 * the default layout lays out a turn (its speaker label, then its text), once per build.
 *
 * @module
 */
import { historyPacket, toChatMessage } from '../gather/builtins.js'
import type { Document, Item, Section } from '../structure/document.js'
import { itemOf, prefixOf } from '../structure/items.js'
import { labelsFor } from '../structure/labels.js'
import type { Meter } from '../tokenize/meter.js'
import type { Packet } from '../packet.js'
import type { Appendable } from './append.js'
import { frameCounts, frameOf, type FrameCounts } from './frame.js'
import { takeCount, type BuildTable } from './table.js'
import { itemCount } from './windowCount.js'

/** A plain history turn. */
export type Turn = { readonly role: string; readonly content: string }

/**
 * The layouts of one build: the previous document and its context section, the previous
 * window, and the items laid out for turns it did not show (made once per build). Read
 * through the functions below (`itemAt`, `itemsOf`, `docOf`, `frameCountsOf`), not through
 * closures made per build: see `./append.ts`.
 */
export interface Layouts {
  readonly prev: Appendable
  readonly context: Section
  readonly shown: Shown
  /** The build's table: the turns, and their counts (taken when a new turn is laid out). */
  readonly table: BuildTable
  /**
   * The packets and items made for turns the previous window did not show: turn `i` after it
   * at `i − shown.to` (an array: the new turns, most of them), one before it in `older` (a
   * map, made when first needed).
   */
  readonly made: Array<Made | undefined>
  older: Map<number, Made> | undefined
  /** The counts of the text around the window: the previous build's, or made when first asked (null: not asked yet). */
  frame: FrameCounts | undefined | null
}

/** A turn the previous window did not show: its packet, as the history gatherer makes it, and its item. */
export interface Made {
  readonly packet: Packet
  readonly item: Item
}

/** The previous window: its turns `[from, to)`, shown by the context section's items. */
export interface Shown {
  readonly from: number
  readonly to: number
  readonly items: ReadonlyArray<Item>
}

/**
 * The previous window, the turns `[from, to)` of the memo's output, or undefined when
 * `context` does not show them (newest last, ids `history:<i>`) or shows none.
 *
 * @category utils
 */
export const shownWindow = (context: Section, from: number, to: number): Shown | undefined => {
  const shown = context.items
  if (shown.length === 0 || shown.length !== to - from || shown[0]!.packetId !== `history:${from}` || shown[shown.length - 1]!.packetId !== `history:${to - 1}`) return undefined
  return { from, to, items: shown }
}

/**
 * The previous window's item of turn `i`, if it showed it.
 *
 * @category utils
 */
export const shownItem = (shown: Shown, i: number): Item | undefined => (i >= shown.from && i < shown.to ? shown.items[i - shown.from] : undefined)

/**
 * The layouts of a build whose previous window is `shown`, in `context` of `prev`'s document.
 *
 * @category utils
 */
export const layouts = (prev: Appendable, context: Section, shown: Shown, table: BuildTable): Layouts => ({ prev, context, shown, table, made: [], older: undefined, frame: null })

/** The scores an item is made with: `itemOf` does not read them (a selection's type needs them). */
const UNSCORED = { relevance: undefined, recency: 0, composite: 0 } as const

/**
 * Turn `i`'s packet and item when the previous window did not show it: made as the history
 * gatherer and the default layout make them, once per build (the report scores the packet).
 *
 * @category utils
 */
export const madeAt = (l: Layouts, i: number): Made => {
  const k = i - l.shown.to
  let m = k >= 0 ? l.made[k] : l.older?.get(i)
  if (m === undefined) {
    const t = l.table.turns[i]!
    const { key } = l.prev.rebuild
    const packet = historyPacket(toChatMessage(t as never), i, t.content, key.now)
    const item = itemOf({ packet, tokens: takeCount(l.table, i), scores: UNSCORED }, prefixOf(packet, labelsFor(key.config.locale)))
    m = { packet, item }
    if (k >= 0) l.made[k] = m
    else (l.older ??= new Map()).set(i, m)
  }
  return m
}

/**
 * Turn `i`'s item: the previous window's, else laid out as the default layout lays out a turn (once per build).
 *
 * @category utils
 */
export const itemAt = (l: Layouts, i: number): Item => shownItem(l.shown, i) ?? madeAt(l, i).item

/**
 * The items of the window `[from, to)`: the previous window's as they are (one copy, a
 * builtin's), then the others.
 *
 * @category utils
 */
export const itemsOf = (l: Layouts, from: number, to: number): ReadonlyArray<Item> => {
  const { shown } = l
  const out: Item[] = []
  if (from < shown.from || from >= shown.to) {
    for (let i = from; i < to; i++) out.push(itemAt(l, i))
    return out
  }
  const end = Math.min(to, shown.to)
  for (let i = end; i < to; i++) out.push(itemAt(l, i))
  return (from === shown.from && end === shown.to ? shown.items : shown.items.slice(from - shown.from, end - shown.from)).concat(out)
}

/**
 * The previous document showing `items` in its context section.
 *
 * @category utils
 */
export const docOf = (l: Layouts, items: ReadonlyArray<Item>): Document => {
  const { prev, context } = l
  const blocks = prev.doc.blocks.slice()
  blocks[blocks.indexOf(context)] = { ...context, items }
  return { ...prev.doc, blocks }
}

/**
 * The counts of the text around the window: the previous build's, or made once when first
 * asked (the same for every window), counted with `meter`.
 *
 * @category utils
 */
export const frameCountsOf = (l: Layouts): FrameCounts | undefined => {
  if (l.frame !== null) return l.frame
  return (l.frame = l.prev.rebuild.frame ?? frameMeasured(l))
}

/** The counts of the text around the window, measured on the previous document (`frameCountsOf`'s when the memo has none). */
const frameMeasured = (l: Layouts): FrameCounts | undefined => {
  const { prev, context } = l
  const f = frameOf(prev.doc, context, itemAt(l, prev.rebuild.length - 1))
  const { meter } = l.table
  return f === undefined ? undefined : frameCounts(meter.tokenizer, meter.once, (content) => meter.counted(content) ?? itemCount(prev.doc, [], content), f)
}

/** What a turn's item adds besides its text under this layout: its label and suffix, and the separator. */
export const decorationCost =
  (meter: Meter, context: Section) =>
  (i: Item): number =>
    meter.text(i.prefix) + (i.suffix === undefined ? 0 : meter.text(i.suffix)) + meter.text(context.separator)
