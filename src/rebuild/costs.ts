/**
 * What the layout of a build adds around its history turns (headings, joins, the always-kept
 * packets), measured once on the cold build's document and kept in the memo (`./memo.ts`).
 *
 * @module
 */
import { composedCount, meterCount } from '../compress/outputCount.js'
import type { BuildResult } from '../report.js'
import { decorationOf, isRendered, renderBlocks, sectionsOf, type Document } from '../structure/document.js'
import type { Meter } from '../tokenize/meter.js'

/** What the layout adds around the history turns, measured on the build's own layout. */
export interface LayoutCosts {
  /**
   * The exact count of the layout without its turns: the always-kept packets (instructions,
   * task, the conversation's system prompt) and the text around them. What layoutAware
   * reserves before its fill (`src/select/layoutAware.ts`, its probe), the same for every
   * build of the conversation.
   */
  readonly base: number
  /** The always-kept packets' tokens, summed. */
  readonly alwaysTokens: number
  /** A history turn's decoration and separator, each counted on its own, by role (the sections' estimates). */
  readonly roleCost: ReadonlyMap<string, number>
}

/**
 * What the layout adds, from the build's document: the context section holds the turns.
 *
 * @category utils
 */
export const layoutCosts = (doc: Document, meter: Meter, result: BuildResult<string>): LayoutCosts | undefined => {
  const roleCost = new Map<string, number>()
  let laidOut = 0
  const without: Document = { ...doc, blocks: doc.blocks.filter((b) => !(b._tag === 'Section' && b.name === 'context')) }
  for (const sec of sectionsOf(doc).filter(isRendered)) {
    const sep = meter.text(sec.separator)
    for (const item of sec.items) {
      if (item.packetId === undefined) continue
      if (sec.name === 'context') roleCost.set(item.message?.role ?? '', decorationOf(item, meter) + sep)
      else laidOut++
    }
  }
  const always = result.packets.filter((p) => p.priority === 0 || p.type === 'task')
  let alwaysTokens = 0
  for (const p of always) alwaysTokens += p.tokens ?? Number.NaN
  // an always-kept packet the layout does not show is not what the probe measured
  if (Number.isNaN(alwaysTokens) || laidOut !== always.length) return undefined
  const { text, spans } = renderBlocks(without.blocks, without.joiner)
  const base = composedCount(meter.tokenizer, text, spans, meter.counted, meterCount(meter), meter.found, meter.joined)
  return { base, alwaysTokens, roleCost }
}
