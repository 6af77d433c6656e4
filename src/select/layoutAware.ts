/**
 * Selection that leaves room for the layout. The default selector budgets packet contents
 * only; headings, source tags and speaker labels then push the output over, and the
 * compressor must drop what was just selected. This fills once, charging each packet what it
 * will cost laid out: its count, its decoration joined with its text (a speaker label merges
 * with the first word, a separator with the last), and, for the first packet of a section,
 * the section's opening (its heading and the text joining it to the rest). The layout's own
 * text around the always-kept packets is reserved up front.
 *
 * Everything is measured exactly, on small layouts of the always-kept packets (the *probe*):
 * the probe's exact count, and the same with one more packet for each section the fill
 * opens. A packet's decoration comes from the layout's `decorate` (the built-in layouts say
 * it), or else from the layout of the probe with that packet. A packet's join is counted
 * only once the fill counts the packet itself, and with it: a packet not counted yet is
 * counted laid out, its decoration, text and separator in one pass (`Meter.laidOut`), which
 * gives its own count too. Lower bounds are never charged more than its decoration, so a
 * packet a bound rules out costs no join.
 *
 * The sum is exact when the layout's text around an item depends on that item alone, as in
 * the built-in layouts, but for where a section ends: its last item joins what follows the
 * section, which the opening measured with the section's first packet. For the history (the
 * newest turn is both) it is exact; where it is not, the compress stage's exact count and
 * guard settle it.
 *
 * @module
 */
import { composedCount, joinedCount, meterCount, splitsAtWordEnds } from '../compress/outputCount.js'
import type { Packet, PacketType } from '../packet.js'
import type { Exclusion, Gathered, Selection } from '../phase.js'
import { decorationOf, estimate, isRendered, renderBlocks, sectionsOf, type Document } from '../structure/document.js'
import type { Decoration, Structurer } from '../structure/structurer.js'
import type { Meter } from '../tokenize/meter.js'
import { fillUnworded } from './fill.js'
import { scoresOf } from './scoresById.js'
import { prepare, type Prepared, type SelectOptions, type Selector } from './selector.js'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * @example
 * pipe(request, gather(gs), select(layoutAware(sectioned())), structure(sectioned()), compress())
 * @category constructors
 * @since 0.1.0
 */
export const layoutAware =
  (structurer: Structurer, options: SelectOptions = {}): Selector =>
  (g) => {
    const prepared = prepare(g, options)
    const probe = layoutProbe(structurer, g, prepared)
    const [s, left] = fillUnworded(g, prepared, {
      ...options,
      reserve: (options.reserve ?? 0) + probe.reserve,
      joined: options.joined === undefined ? probe.joined : (p) => options.joined!(p) + probe.joined(p),
      section: probe.section,
    })
    // the selector's findings by place, when it knows the places (every unit one packet)
    if (prepared.gatedAt === undefined || prepared.scoresAt === undefined) return { ...s, excluded: s.excluded.concat(left()) }
    const at = new Array<Exclusion | undefined>(g.packets.length)
    for (let k = 0; k < prepared.gatedAt.length; k++) at[prepared.gatedAt[k]!] = prepared.gatedOut[k]
    const own = left(at)
    return { ...s, excluded: s.excluded.concat(own), places: { packets: g.packets, scores: prepared.scoresAt, excluded: at, from: g.excluded.length } }
  }

/** What a layout adds to a selection, measured on small layouts (see the module comment). */
export interface LayoutProbe {
  /** The layout's text with the always-kept packets laid out, less their contents: reserved before the fill. */
  readonly reserve: number
  /** A packet's decoration and separator joined with its text, less the text's count (0 for a packet the layout does not show). */
  readonly joined: (p: Packet) => number
  /** The section a packet goes in, and what opening it costs. */
  readonly section: { readonly of: (p: Packet) => string | undefined; readonly opening: (section: string, p: Packet, at?: number) => number }
}

/**
 * Measures what `structurer` adds to the selection of `g` (see the module comment). Counts
 * go through the build's meter, so nothing is tokenized twice.
 *
 * @category constructors
 */
export const layoutProbe = (structurer: Structurer, g: Gathered, prepared: Prepared): LayoutProbe => {
  const { meter, env } = { meter: g.env.meter, env: g.env }
  const always = prepared.always.map((p, k) => selectionOf(p, prepared, meter, prepared.alwaysAt?.[k]))
  const probed = (selected: ReadonlyArray<Selection>): Document => structurer({ ...g, _phase: 'selected', selected, scores: prepared.scores })
  const base = exactCount(probed(always), meter)
  let alwaysTokens = 0
  for (const x of always) alwaysTokens += x.tokens
  const probedWith = (p: Packet, at?: number): Document => probed([...always, selectionOf(p, prepared, meter, at)])
  // a layout that cannot say how it shows a packet shows it: every candidate laid out once,
  // when the first decoration is asked (their counts are not needed, and not taken)
  let shown: ReadonlyMap<string, Decoration> | undefined
  const shownBy = (p: Packet): Decoration | undefined => {
    if (shown === undefined) {
      const all: Selection[] = [...always]
      for (const level of prepared.levels)
        for (const u of [...level.others, ...level.history])
          for (const q of u.packets) all.push({ packet: q, tokens: meter.known(q) ?? 0, scores: prepared.scores.get(q.id)! })
      shown = decorationsIn(probed(all))
    }
    return shown.get(p.id)
  }
  const decorations = new Map<string, Decoration | null>()
  const decorationOfPacket = (p: Packet): Decoration | undefined => {
    let d = decorations.get(p.id)
    if (d === undefined) decorations.set(p.id, (d = (structurer.decorate === undefined ? shownBy(p) : structurer.decorate(p, env)) ?? null))
    return d ?? undefined
  }
  const count = meterCount(meter)
  const splits = splitsAtWordEnds(meter.tokenizer)
  const joined = (p: Packet): number => {
    const d = decorationOfPacket(p)
    if (d === undefined) return 0
    const after = d.suffix === undefined ? d.separator : `${d.suffix}${d.separator}`
    // a packet not counted yet is counted laid out, in one pass (its count comes with it)
    const line = splits ? meter.laidOut(p, d.prefix, after) : undefined
    if (line !== undefined) return line - meter.packet(p)
    const tokens = meter.packet(p)
    return joinedCount(count, meter.tokenizer.name, d.prefix, p.content, tokens, after, meter.edges, meter.join) - tokens
  }
  const openings = new Map<string, number>()
  return {
    reserve: base - alwaysTokens,
    joined,
    section: {
      of: (p) => decorationOfPacket(p)?.section,
      opening: (section, p, at) => {
        let o = openings.get(section)
        if (o === undefined) openings.set(section, (o = exactCount(probedWith(p, at), meter) - base - meter.packet(p) - joined(p)))
        return o
      },
    },
  }
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
 * fixed text and each type's decoration, each counted on its own (the estimate's way). The
 * in-memory rebuild (`src/rebuild/`) measures a build's layout this way.
 *
 * @category utils
 */
export const layoutOverheads = (doc: Document, meter: Meter, typeOf: ReadonlyMap<string, PacketType>): LayoutOverheads => {
  const perType = new Map<PacketType, number>()
  let content = 0
  let decorations = 0
  for (const sec of sectionsOf(doc)) {
    if (!isRendered(sec)) continue
    const separator = meter.text(sec.separator)
    for (const item of sec.items) {
      if (item.packetId === undefined) continue
      content += item.tokens
      const cost = decorationOf(item, meter) + separator
      decorations += cost
      const type = typeOf.get(item.packetId)
      if (type !== undefined) perType.set(type, Math.max(perType.get(type) ?? 0, cost))
    }
  }
  const raw = estimate(doc, meter) - content - decorations
  return { fixed: Math.max(0, raw), raw, perType, widest: Math.max(0, ...perType.values()) }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** A packet's selection in a probe, its scores read by its place `at` when known. */
const selectionOf = (p: Packet, prepared: Prepared, meter: Meter, at?: number): Selection => ({ packet: p, tokens: meter.packet(p), scores: scoresOf(prepared, p, at) })

/**
 * The exact count of a document as text, through the build's meter, composed from its items'
 * counts (edges and joins) even when short: a probe's items are counted already.
 */
const exactCount = (doc: Document, meter: Meter): number => {
  const { text, spans } = renderBlocks(doc.blocks, doc.joiner)
  return composedCount(meter.tokenizer, text, spans, meter.counted, meterCount(meter), meter.found, meter.joined)
}

/**
 * How a document shows each packet: its item's decoration, its section's separator and name.
 *
 * @category utils
 */
export const decorationsIn = (doc: Document): ReadonlyMap<string, Decoration> => {
  const out = new Map<string, Decoration>()
  for (const sec of sectionsOf(doc))
    for (const item of sec.items)
      if (item.packetId !== undefined)
        out.set(
          item.packetId,
          item.suffix === undefined ? { section: sec.name, prefix: item.prefix, separator: sec.separator } : { section: sec.name, prefix: item.prefix, suffix: item.suffix, separator: sec.separator },
        )
  return out
}
