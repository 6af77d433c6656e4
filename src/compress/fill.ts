/**
 * The engine's `fill` order: units are kept one at a time in preference order while they fit
 * (see `FitOrder` in `./policy.ts`), then the exact count settles it — units are given back
 * newest-taken first while the output is over, and taken back past the stop while it fits.
 * Under `miss: 'cut'` the last unit taken is cut further before it is given back, the unit
 * cut to the room left gets back what the estimates wasted, and when none is cut for the
 * budget, units past the stop are taken back as under `stop` (the last one possibly cut).
 *
 * Fitting is estimated first, with the renderer's cost of each item (the context's `cost`;
 * a section's head, tail and joiner come with its first item), then the exact steps fine-tune.
 * A section `cap` bounds its items' costs; its first miss closes the section.
 *
 * @module
 */
import { decorationOf, estimate, joinerOf, mapSections, type Document, type Item, type Section } from '../structure/document.js'
import type { FitContext, Settled } from './engine.js'
import type { FitPolicy } from './policy.js'
import { cutItem, isPinned, keptOf, markerCost, unitsOf } from './shrink.js'

/** A unit of the layout, with where it sorts. */
interface FillUnit {
  readonly block: number
  readonly items: ReadonlyArray<number>
  readonly pinned: boolean
  readonly key: ReadonlyArray<number>
}

/** What the `fill` order settled, and the items their section's `cap` cut or left out. */
export interface Filled extends Settled {
  /** Packet ids cut or left out for their section's `cap` (not for the budget). */
  readonly sectionCapped: ReadonlySet<string>
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
    // a guard, not a branch over kinds: literals hold no units
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
const assemble = (doc: Document, taken: Taken): Document =>
  mapSections(doc, (b, block) => ({ ...b, items: b.items.flatMap((item, i) => (taken.items[block]!.has(i) ? [taken.cuts.get(`${block}:${i}`) ?? item] : [])) }))

/**
 * Keeps units in keep order while they fit (see the module comment), then settles the budget
 * exactly.
 *
 * @category engine
 * @since 0.2.0
 */
export const fillAndSettle = (doc: Document, policy: FitPolicy, ctx: FitContext): Filled => {
  const { available, meter, measure } = ctx
  const unitCost = (s: Section, items: ReadonlyArray<number>): number => items.reduce((sum, i) => sum + ctx.cost(s.items[i]!, s), 0)
  const order = keepOrder(doc)
  const taken: Taken = { items: doc.blocks.map(() => new Set<number>()), cuts: new Map() }
  const opened = new Set<number>()
  const used = new Map<number, number>() // item costs per block, for section caps
  const closed = new Set<number>()
  const sectionCapped = new Set<string>()
  const history: number[] = [] // indices (in `order`) of the units taken, in the order taken
  const isTaken = new Set<number>()
  const empty: Document = mapSections(doc, (b) => ({ ...b, items: [] }))
  const idsOf = (u: FillUnit): ReadonlyArray<string> => u.items.flatMap((i) => sectionAt(doc, u.block).items[i]!.packetId ?? [])
  const keyOf = (u: FillUnit): string => `${u.block}:${u.items[0]!}`
  /** The one item of a unit that may be cut, as the document has it. */
  const cuttable = (u: FillUnit): Item | undefined => {
    const only = u.items.length === 1 ? sectionAt(doc, u.block).items[u.items[0]!]! : undefined
    return policy.cut && only !== undefined && only.group === undefined ? only : undefined
  }
  /** The unit's item cut to `keep` tokens of text, if that keeps enough and is shorter than it was ({@link keptOf}). */
  const cutTo = (u: FillUnit, keep: number): Item | undefined => {
    const only = cuttable(u)
    if (only === undefined) return undefined
    const s = sectionAt(doc, u.block)
    return keep >= policy.minKept && keep < keptOf(only, s, meter) ? cutItem(only, keep, s, meter, policy.minKept) : undefined
  }
  /** The unit's item cut to fit `space` tokens with its decoration, separator and marker. */
  const cutToSpace = (u: FillUnit, space: number): Item | undefined => {
    const only = cuttable(u)
    if (only === undefined) return undefined
    const s = sectionAt(doc, u.block)
    return cutTo(u, space - decorationOf(only, meter) - meter.text(s.separator) - markerCost(only, s, meter))
  }
  const take = (k: number, cut?: Item): number => {
    const u = order[k]!
    const s = sectionAt(doc, u.block)
    if (cut !== undefined) taken.cuts.set(keyOf(u), cut)
    u.items.forEach((i) => taken.items[u.block]!.add(i))
    opened.add(u.block)
    history.push(k)
    isTaken.add(k)
    const cost = cut === undefined ? unitCost(s, u.items) : ctx.cost(cut, s)
    used.set(u.block, (used.get(u.block) ?? 0) + cost)
    return cost
  }
  let room = available - estimate(empty, meter)
  let stop = order.length // index of the first unit not taken because the budget ran out
  let budgetCut: { readonly k: number; readonly most: number } | undefined // the unit cut to the room left
  const budgetCuts = new Set<number>() // units cut for the budget (to the room left, or further by the exact count)
  const capSkipped = new Set<number>() // units left out for their section's cap
  for (let k = 0; k < order.length; k++) {
    const u = order[k]!
    const s = sectionAt(doc, u.block)
    if (closed.has(u.block)) {
      capSkipped.add(k)
      idsOf(u).forEach((id) => sectionCapped.add(id))
      continue
    }
    const opening = opened.has(u.block) ? 0 : (s.omitWhenEmpty ? meter.text(s.head) + meter.text(s.tail ?? '') : 0) + meter.text(joinerOf(s, doc))
    const cost = unitCost(s, u.items)
    const sectionRoom = s.cap === undefined ? Infinity : s.cap - (used.get(u.block) ?? 0)
    if (cost + opening <= room && cost <= sectionRoom) {
      room -= take(k) + opening
      continue
    }
    if (sectionRoom < room - opening) {
      // the section's cap, not the budget: cut to what the section has left, close it, go on
      const cut = policy.miss === 'cut' && !u.pinned ? cutToSpace(u, sectionRoom) : undefined
      if (cut !== undefined) room -= take(k, cut) + opening
      else capSkipped.add(k)
      closed.add(u.block)
      idsOf(u).forEach((id) => sectionCapped.add(id))
      continue
    }
    if (u.pinned || policy.miss === 'skip') continue
    const cut = policy.miss === 'cut' ? cutToSpace(u, room - opening) : undefined
    if (cut !== undefined) {
      take(k, cut)
      const only = cuttable(u)!
      budgetCut = { k, most: Math.min(only.cut?.keptTokens ?? only.tokens, (cut.cut?.keptTokens ?? 0) + sectionRoom - ctx.cost(cut, s)) }
      budgetCuts.add(k)
      room = 0
    }
    stop = k
    break
  }
  // settle: give back (or, under miss 'cut', cut further) the last units taken while over
  let current = assemble(doc, taken)
  let tokens = measure(current)
  for (let round = 0; tokens > available && history.length > 0; round++) {
    let excess = tokens - available
    const last = order[history[history.length - 1]!]!
    const held = taken.cuts.get(keyOf(last)) ?? cuttable(last)
    const content = held === undefined ? 0 : keptOf(held, sectionAt(doc, last.block), meter)
    const shorter = policy.miss === 'cut' && held !== undefined ? cutTo(last, content - excess - (2 ** Math.min(round, 16) - 1)) : undefined
    if (shorter !== undefined) {
      taken.cuts.set(keyOf(last), shorter)
      budgetCuts.add(history[history.length - 1]!)
      idsOf(last).forEach((id) => sectionCapped.delete(id))
    } else
      while (excess > 0 && history.length > 0) {
        const k = history.pop()!
        const u = order[k]!
        isTaken.delete(k)
        excess -= unitCost(sectionAt(doc, u.block), u.items)
        u.items.forEach((i) => {
          taken.items[u.block]!.delete(i)
          taken.cuts.delete(`${u.block}:${i}`)
        })
        idsOf(u).forEach((id) => sectionCapped.delete(id))
        if (!u.pinned && k < stop) stop = k
      }
    current = assemble(doc, taken)
    tokens = measure(current)
  }
  if (tokens > available) {
    // not even the layout's fixed text fits
    const none: Document = { blocks: [], joiner: doc.joiner }
    return { doc: none, tokens: measure(none), nothingFits: true, sectionCapped }
  }
  if (budgetCut !== undefined && isTaken.has(budgetCut.k)) {
    // the estimates were upper bounds: the unit cut to the room left gets what they wasted
    const u = order[budgetCut.k]!
    for (let tries = 0; tries < 2 && tokens < available; tries++) {
      const before = taken.cuts.get(keyOf(u))!
      const kept = before.cut?.keptTokens ?? 0
      const grown = cutTo(u, Math.min(budgetCut.most, kept + available - tokens))
      if (grown === undefined || (grown.cut?.keptTokens ?? 0) <= kept) break
      taken.cuts.set(keyOf(u), grown)
      const next = assemble(doc, taken)
      const exact = measure(next)
      if (exact > available) {
        taken.cuts.set(keyOf(u), before)
        break
      }
      current = next
      tokens = exact
    }
  }
  // take back units past the stop while they fit exactly (the estimates are upper bounds) and
  // fit their section's cap; under miss 'cut', only while no unit is cut for the budget, and
  // the first that fits only cut is the last taken
  if (policy.miss !== 'skip' && ![...budgetCuts].some((k) => isTaken.has(k))) {
    for (let k = stop; k < order.length; k++) {
      const u = order[k]!
      if (isTaken.has(k) || u.pinned || capSkipped.has(k)) continue
      const s = sectionAt(doc, u.block)
      const held = taken.items[u.block]!
      const capRoom = s.cap === undefined ? Infinity : s.cap - [...held].reduce((sum, i) => sum + ctx.cost(taken.cuts.get(`${u.block}:${i}`) ?? s.items[i]!, s), 0)
      if (s.cap !== undefined && unitCost(s, u.items) > capRoom) break
      const opening = held.size > 0 ? 0 : meter.text(s.head) + meter.text(s.tail ?? '') + meter.text(joinerOf(s, doc))
      u.items.forEach((i) => held.add(i))
      let next = assemble(doc, taken)
      let exact = measure(next)
      const cut = exact > available && policy.miss === 'cut' ? cutToSpace(u, Math.min(capRoom, available - tokens - opening)) : undefined
      if (cut !== undefined) {
        taken.cuts.set(keyOf(u), cut)
        next = assemble(doc, taken)
        exact = measure(next)
      }
      if (exact > available) {
        u.items.forEach((i) => held.delete(i))
        taken.cuts.delete(keyOf(u))
        break
      }
      current = next
      tokens = exact
      history.push(k)
      isTaken.add(k)
      if (cut !== undefined) break
    }
  }
  return { doc: current, tokens, nothingFits: false, sectionCapped }
}
