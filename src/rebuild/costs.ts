/**
 * What the layout of a build adds around its history turns (headings, joins, labels, the
 * always-kept packets), measured once on the cold build's document and kept in the memo
 * (`./memo.ts`): a rebuild charges a turn its role's cost from it instead of laying the
 * turn out again.
 *
 * @module
 */
import { joinedCount, meterCount } from '../compress/outputCount.js'
import type { PacketType } from '../packet.js'
import type { BuildResult } from '../report.js'
import { layoutOverheads } from '../select/layoutAware.js'
import { decorationOf, isRendered, sectionsOf, type Document } from '../structure/document.js'
import type { Meter } from '../tokenize/meter.js'

/** What the layout adds around the history turns, measured on the build's own layout. */
export interface LayoutCosts {
  /** `layoutOverheads(doc).raw`: headings, joins and static text. */
  readonly raw: number
  /** The always-kept packets' tokens (instructions, task, the conversation's system prompt), summed. */
  readonly alwaysTokens: number
  /** Their items' content, decoration and separator, summed. */
  readonly alwaysItems: number
  /** Their items' content, summed. */
  readonly alwaysContent: number
  /** Their items' decoration and separator as they join the content (`joinedCount`), summed: what layoutAware's second fill charges them. */
  readonly alwaysJoined: number
  /** The widest decoration and separator of their items, by type. */
  readonly typeCost: ReadonlyMap<PacketType, number>
  /** A history turn's decoration and separator, by role. */
  readonly roleCost: ReadonlyMap<string, number>
}

/**
 * What the layout adds, from the build's document: the context section holds the turns.
 *
 * @category utils
 */
export const layoutCosts = (doc: Document, meter: Meter, result: BuildResult<string>): LayoutCosts | undefined => {
  const typeOf = new Map(result.packets.map((p) => [p.id, p]))
  const { raw } = layoutOverheads(doc, meter, new Map(result.packets.map((p) => [p.id, p.type])))
  let alwaysItems = 0
  let alwaysContent = 0
  let alwaysJoined = 0
  let laidOut = 0
  const count = meterCount(meter)
  const typeCost = new Map<PacketType, number>()
  const roleCost = new Map<string, number>()
  for (const sec of sectionsOf(doc).filter(isRendered)) {
    const sep = meter.text(sec.separator)
    for (const item of sec.items) {
      if (item.packetId === undefined) continue
      const cost = decorationOf(item, meter) + sep
      if (sec.name === 'context') roleCost.set(item.message?.role ?? '', cost)
      else {
        const type = typeOf.get(item.packetId)?.type
        if (type === undefined) return undefined
        alwaysItems += item.tokens + cost
        alwaysContent += item.tokens
        alwaysJoined += joinedCount(count, meter.tokenizer.name, item.prefix, item.text, item.tokens, `${item.suffix ?? ''}${sec.separator}`) - item.tokens
        laidOut++
        typeCost.set(type, Math.max(typeCost.get(type) ?? 0, cost))
      }
    }
  }
  const always = result.packets.filter((p) => p.priority === 0 || p.type === 'task')
  let alwaysTokens = 0
  for (const p of always) alwaysTokens += p.tokens ?? Number.NaN
  // an always-kept packet the layout does not show would be charged another type's decoration
  return Number.isNaN(alwaysTokens) || laidOut !== always.length ? undefined : { raw, alwaysTokens, alwaysItems, alwaysContent, alwaysJoined, typeCost, roleCost }
}
