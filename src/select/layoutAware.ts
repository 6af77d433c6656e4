/**
 * Selection that leaves room for the layout. The default selector budgets packet contents
 * only; headings, source tags and speaker labels then push the output over, and the
 * compressor must drop what was just selected. This runs the selector, lays the selection
 * out, measures the layout's fixed text and each packet type's decoration, and selects again
 * with both accounted for. The second pass costs no tokenizing: the build's meter remembers
 * every count, and scoring and ordering are done once.
 *
 * @module
 */
import { joinedCount, meterCount, spanCount } from '../compress/outputCount.js'
import type { PacketType } from '../packet.js'
import { decorationOf, estimate, isRendered, renderBlocks, sectionsOf } from '../structure/document.js'
import type { Structurer } from '../structure/structurer.js'
import type { Document } from '../structure/document.js'
import type { Meter } from '../tokenize/meter.js'
import { fillUnworded } from './fill.js'
import { prepare, type SelectOptions, type Selector } from './selector.js'

/**
 * @example
 * pipe(request, gather(gs), select(layoutAware(sectioned())), structure(sectioned()), compress())
 * @category constructors
 * @since 0.1.0
 */
export const layoutAware =
  (structurer: Structurer, options: SelectOptions = {}): Selector =>
  (g) => {
    const { meter, available } = g.env
    const prepared = prepare(g, options)
    // a trial, measured: what it left out is worded only if it is the fill kept
    const [first, left] = fillUnworded(g, prepared, options)
    const doc = structurer(first)
    if (estimate(doc, meter) <= available - (options.reserve ?? 0)) return { ...first, excluded: first.excluded.concat(left()) }
    // a loop, not `new Map(selected.map(pair))`: no pair array per selected packet
    const typeOf = new Map<string, PacketType>()
    for (const x of first.selected) typeOf.set(x.packet.id, x.packet.type)
    const { content, perType, widest, joined, joinedTotal } = itemCosts(doc, meter, typeOf, true)
    // the layout's own text: the exact count of the first layout (its joins with the items
    // included; only the glue and the items' edges are tokenized) less what its items cost
    const spanned = renderBlocks(doc.blocks, doc.joiner)
    const tokens = spanCount(meter.tokenizer, spanned.text, spanned.spans, meter.counted, meterCount(meter), meter.found, meter.joined)
    const fixed = Math.max(0, tokens - content - joinedTotal)
    const [second, leftSecond] = fillUnworded(g, prepared, {
      ...options,
      reserve: (options.reserve ?? 0) + fixed,
      overhead: (p) => (options.overhead?.(p) ?? 0) + (joined.get(p.id) ?? perType.get(p.type) ?? widest),
    })
    // what was measured, for the next build of the conversation (src/rebuild/); one copy of
    // the selection, not `fill`'s and then this one's
    return { ...second, excluded: second.excluded.concat(leftSecond()), firstLayout: { joined, text: spanned.text, spans: spanned.spans, tokens } }
  }

/** What a layout adds to a selection's contents: see {@link layoutOverheads}. */
export interface LayoutOverheads {
  /** The estimate's tokens outside the selected packets' contents and decorations (headings, joins, static text), at least 0. */
  readonly fixed: number
  /** The same before the floor at 0: the estimate is `raw` plus each item's content, decoration and separator. */
  readonly raw: number
  /** The widest decoration (with its separator) of each packet type's items. */
  readonly perType: ReadonlyMap<PacketType, number>
  /** The widest of all; what a type the layout shows no item of is charged. */
  readonly widest: number
}

/**
 * Measures a layout of a selection (`typeOf`: the type of each selected packet id): its
 * fixed text and each type's decoration, what the second fill of {@link layoutAware}
 * leaves room for. The in-memory rebuild (`src/rebuild/`) measures the same way.
 *
 * @category utils
 */
export const layoutOverheads = (doc: Document, meter: Meter, typeOf: ReadonlyMap<string, PacketType>): LayoutOverheads => {
  const { content, decorations, perType, widest } = itemCosts(doc, meter, typeOf, false)
  const raw = estimate(doc, meter) - content - decorations
  return { fixed: Math.max(0, raw), raw, perType, widest }
}

/** What a layout's packet items cost: see {@link itemCosts}. */
interface ItemCosts {
  /** Their contents' tokens. */
  readonly content: number
  /** Their decorations and separators, each counted on its own (the estimate's way). */
  readonly decorations: number
  readonly perType: ReadonlyMap<PacketType, number>
  readonly widest: number
  /** With `joins`: each item's decoration and separator as they join its text, by packet id. */
  readonly joined: ReadonlyMap<string, number>
  readonly joinedTotal: number
}

/**
 * One pass over a layout's packet items (static text such as the answer format is the
 * layout's own, not an item's): their contents, decorations, the widest decoration of each
 * type, and, with `joins`, each item's decoration and separator counted as one string with
 * its text (only the joins are tokenized), so a turn is not over-counted by a token or two.
 */
const itemCosts = (doc: Document, meter: Meter, typeOf: ReadonlyMap<string, PacketType>, joins: boolean): ItemCosts => {
  const perType = new Map<PacketType, number>()
  const joined = new Map<string, number>()
  let content = 0
  let decorations = 0
  let joinedTotal = 0
  const count = meterCount(meter)
  for (const sec of sectionsOf(doc)) {
    if (!isRendered(sec)) continue
    const separator = meter.text(sec.separator)
    for (const item of sec.items) {
      if (item.packetId === undefined) continue
      content += item.tokens
      const cost = decorationOf(item, meter) + separator
      decorations += cost
      if (joins) {
        const join = joinedCount(count, meter.tokenizer.name, item.prefix, item.text, item.tokens, item.suffix === undefined ? sec.separator : `${item.suffix}${sec.separator}`, meter.edges, meter.join) - item.tokens
        joined.set(item.packetId, join)
        joinedTotal += join
      }
      const type = typeOf.get(item.packetId)
      if (type !== undefined) perType.set(type, Math.max(perType.get(type) ?? 0, cost))
    }
  }
  return { content, decorations, perType, widest: Math.max(0, ...perType.values()), joined, joinedTotal }
}
