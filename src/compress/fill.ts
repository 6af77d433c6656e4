/**
 * The engine's `fill` order: units are kept one at a time in preference order while they fit
 * (see `FitOrder` in `./policy.ts`), then the exact count settles it — units are given back
 * newest-taken first while the output is over, and taken back past the stop while it fits.
 *
 * Fitting is estimated first, with the renderer's cost of each item (the context's `cost`;
 * a section's head and one joiner come with its first item), then the exact steps fine-tune.
 *
 * @module
 */
import { decorationOf, estimate, type Document, type Item, type Section } from '../structure/document.js'
import type { FitContext, Settled } from './engine.js'
import type { FitPolicy } from './policy.js'
import { cutItem, isPinned, unitsOf } from './shrink.js'

/** A unit of the layout, with where it sorts. */
interface FillUnit {
  readonly block: number
  readonly items: ReadonlyArray<number>
  readonly pinned: boolean
  readonly key: ReadonlyArray<number>
}

/** What is taken so far: items per block, and cut replacements by `block:item`. */
interface Taken {
  readonly items: ReadonlyArray<Set<number>>
  readonly cuts: Map<string, Item>
}

const compare = (a: FillUnit, b: FillUnit): number => {
  for (let k = 0; k < a.key.length; k++) if (a.key[k] !== b.key[k]) return a.key[k]! - b.key[k]!
  return 0
}

/**
 * The units of a document in keep order (see `FitOrder`).
 *
 * @category engine
 * @since 0.2.0
 */
export const keepOrder = (doc: Document): ReadonlyArray<FillUnit> => {
  const units: FillUnit[] = []
  let seq = 0
  doc.blocks.forEach((b, block) => {
    if (b._tag !== 'Section') return
    const all = unitsOf(b)
    const fromKeepEnd = b.dropFrom === 'start' ? [...all].reverse() : all
    fromKeepEnd.forEach((items, pos) => {
      const pinned = isPinned(b, items)
      const priority = Math.min(...items.map((i) => b.items[i]!.priority ?? 0))
      // pinned units in layout order; the rest by priority, section rank, place from the keep end
      units.push({ block, items, pinned, key: pinned ? [0, block, Math.min(...items), 0] : [1, priority, b.rank, pos, seq++] })
    })
  })
  return units.sort(compare)
}

const sectionAt = (doc: Document, block: number): Section => doc.blocks[block] as Section

/** The document holding only what is taken. */
const assemble = (doc: Document, taken: Taken): Document => ({
  ...doc,
  blocks: doc.blocks.map((b, block) =>
    b._tag === 'Section' ? { ...b, items: b.items.flatMap((item, i) => (taken.items[block]!.has(i) ? [taken.cuts.get(`${block}:${i}`) ?? item] : [])) } : b,
  ),
})


/**
 * Keeps units in keep order while they fit (see the module comment), then settles the budget
 * exactly.
 *
 * @category engine
 * @since 0.2.0
 */
export const fillAndSettle = (doc: Document, policy: FitPolicy, ctx: FitContext): Settled => {
  const { available, meter, measure } = ctx
  const unitCost = (s: Section, items: ReadonlyArray<number>): number => items.reduce((sum, i) => sum + ctx.cost(s.items[i]!, s), 0)
  const order = keepOrder(doc)
  const taken: Taken = { items: doc.blocks.map(() => new Set<number>()), cuts: new Map() }
  const opened = new Set<number>()
  const history: number[] = [] // indices (in `order`) of the units taken, in the order taken
  const isTaken = new Set<number>()
  const empty: Document = { ...doc, blocks: doc.blocks.map((b) => (b._tag === 'Section' ? { ...b, items: [] } : b)) }
  let room = available - estimate(empty, meter)
  let stop = order.length // index of the first unit not taken because the budget ran out
  for (let k = 0; k < order.length; k++) {
    const u = order[k]!
    const s = sectionAt(doc, u.block)
    const opening = opened.has(u.block) ? 0 : (s.omitWhenEmpty ? meter.text(s.head) : 0) + meter.text(doc.joiner)
    const cost = unitCost(s, u.items) + opening
    if (cost <= room) {
      u.items.forEach((i) => taken.items[u.block]!.add(i))
      opened.add(u.block)
      history.push(k)
      isTaken.add(k)
      room -= cost
      continue
    }
    if (u.pinned || policy.miss === 'skip') continue
    const only = u.items.length === 1 ? s.items[u.items[0]!]! : undefined
    if (policy.miss === 'cut' && policy.cut && only !== undefined && only.group === undefined) {
      const keep = room - opening - decorationOf(only, meter) - meter.text(s.separator) - meter.text(`\n${s.marker}`)
      if (keep >= policy.minKept && keep < only.tokens) {
        taken.cuts.set(`${u.block}:${u.items[0]!}`, cutItem(only, keep, s, meter))
        taken.items[u.block]!.add(u.items[0]!)
        opened.add(u.block)
        history.push(k)
        isTaken.add(k)
        room = 0
      }
    }
    stop = k
    break
  }
  // settle: give back the last units taken while the exact count is over
  let current = assemble(doc, taken)
  let tokens = measure(current)
  while (tokens > available && history.length > 0) {
    let excess = tokens - available
    while (excess > 0 && history.length > 0) {
      const k = history.pop()!
      const u = order[k]!
      isTaken.delete(k)
      excess -= unitCost(sectionAt(doc, u.block), u.items)
      u.items.forEach((i) => {
        taken.items[u.block]!.delete(i)
        taken.cuts.delete(`${u.block}:${i}`)
      })
      if (!u.pinned && k < stop) stop = k
    }
    current = assemble(doc, taken)
    tokens = measure(current)
  }
  if (tokens > available) {
    // not even the layout's fixed text fits
    const none: Document = { blocks: [], joiner: doc.joiner }
    return { doc: none, tokens: measure(none), nothingFits: true }
  }
  // take back whole units past the stop while they fit exactly (estimates are upper bounds)
  if ((policy.miss ?? 'stop') === 'stop') {
    for (let k = stop; k < order.length; k++) {
      const u = order[k]!
      if (isTaken.has(k) || u.pinned) continue
      u.items.forEach((i) => taken.items[u.block]!.add(i))
      const next = assemble(doc, taken)
      const exact = measure(next)
      if (exact > available) {
        u.items.forEach((i) => taken.items[u.block]!.delete(i))
        break
      }
      current = next
      tokens = exact
      history.push(k)
      isTaken.add(k)
    }
  }
  return { doc: current, tokens, nothingFits: false }
}
