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
import type { Appendable } from './append.js'
import { HISTORY } from './memo.js'
import { frameOf, type Frame, type FrameCounts } from './frame.js'

/** A plain history turn. */
export type Turn = { readonly role: string; readonly content: string }

/** What laying out a turn needs. */
export interface LayoutEnv {
  readonly prev: Appendable
  readonly context: Section
  readonly now: number
  readonly turn: (i: number) => Turn
  /** A turn's exact count (the build's). */
  readonly count: (i: number) => number
  /** Counts the frame's text (the build's counter). */
  readonly countFrame: (f: Frame) => FrameCounts
}

/** The layouts of one build. */
export interface Layouts {
  /** Turn `i`'s item. */
  readonly item: (i: number) => Item
  /** The items of the window `[from, to)`. */
  readonly itemsOf: (from: number, to: number) => ReadonlyArray<Item>
  /** The previous document showing `items` in its context section. */
  readonly docOf: (items: ReadonlyArray<Item>) => Document
  /** The counts of the text around the window: the previous build's, or made when first asked. */
  readonly frame: () => FrameCounts | undefined
}

/** The previous window: its turns `[from, to)`, and their items by turn index. */
export interface Shown {
  readonly from: number
  readonly to: number
  readonly item: (i: number) => Item | undefined
}

/** The previous window, or undefined when it is not contiguous (newest last, ids `history:<i>`) or empty. */
export const shownWindow = (context: Section): Shown | undefined => {
  const shown = context.items
  if (shown.length === 0) return undefined
  const from = Number(HISTORY.exec(shown[0]!.packetId ?? '')?.[1] ?? Number.NaN)
  if (shown[shown.length - 1]!.packetId !== `history:${from + shown.length - 1}`) return undefined
  return { from, to: from + shown.length, item: (i) => (i >= from && i < from + shown.length ? shown[i - from] : undefined) }
}

/**
 * The layouts of a build whose previous window is `shown`.
 *
 * @category utils
 */
export const layouts = (env: LayoutEnv, shown: Shown): Layouts => {
  const { prev, context } = env
  const labels = labelsFor(prev.rebuild.key.config.locale)
  const made = new Map<number, Item>()
  const item = (i: number): Item => {
    let it = shown.item(i) ?? made.get(i)
    if (it === undefined) {
      const t = env.turn(i)
      const packet = historyPacket(toChatMessage(t as never), i, t.content, env.now)
      made.set(i, (it = itemOf({ packet, tokens: env.count(i), scores: { relevance: undefined, recency: 0, composite: 0 } }, prefixOf(packet, labels))))
    }
    return it
  }
  const docOf = (items: ReadonlyArray<Item>): Document => ({ ...prev.doc, blocks: prev.doc.blocks.map((b) => (b === context ? { ...context, items } : b)) })
  let frame: FrameCounts | undefined | null = null
  return {
    item,
    itemsOf: (from, to) => {
      // the previous window's items as they are, from the first one shown again
      const out = from >= shown.from && from < shown.to ? context.items.slice(from - shown.from) : []
      for (let i = from + out.length; i < to; i++) out.push(item(i))
      return out
    },
    docOf,
    // `let` of one build's call, not module state: the frame is the same for every window
    frame: () => (frame === null ? (frame = prev.rebuild.frame ?? counted(frameOf(prev.doc, context, item(prev.rebuild.length - 1)), env.countFrame)) : frame),
  }
}

const counted = (f: Frame | undefined, count: (f: Frame) => FrameCounts): FrameCounts | undefined => (f === undefined ? undefined : count(f))

/** What a turn's item adds besides its text under this layout: its label and suffix, and the separator. */
export const decorationCost =
  (meter: Meter, context: Section) =>
  (i: Item): number =>
    meter.text(i.prefix) + (i.suffix === undefined ? 0 : meter.text(i.suffix)) + meter.text(context.separator)
