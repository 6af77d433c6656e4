/**
 * The agent-chunk layout (`--structurer xml`, seed 000): chunk packets are already rendered
 * as XML elements with their roles; this lays them out as the conversation, in input order,
 * with no labels. In chat formats consecutive chunks of one role merge into one turn, as the
 * seed's grouping diagram shows; in text they are XML blocks one after another.
 *
 * Instructions (the system prompt, SYSTEM chunks) come first; the task, when there is one,
 * is the last user turn. Evidence and custom packets join the system part.
 *
 * @module
 */
import type { Document, Item } from './document.js'
import { itemOf } from './items.js'
import { labelsFor } from './labels.js'
import { section } from './sectioned.js'
import { inputOrder, type Structurer } from './structurer.js'

/**
 * @example
 * build({ query, packets: chunkPackets }, { structurer: xml(), renderer: openaiRenderer() })
 * @category constructors
 * @since 0.1.0
 */
export const xml =
  (): Structurer =>
  (s) => {
    const labels = labelsFor(s.env.config.locale)
    const order = inputOrder(s)
    const sorted = [...s.selected].sort((a, b) => (order.get(a.packet.id) ?? 0) - (order.get(b.packet.id) ?? 0))
    const items = (keep: (type: string, priority: number) => boolean): ReadonlyArray<Item> =>
      sorted.filter((x) => keep(x.packet.type, x.packet.priority)).map((x) => itemOf(x, ''))
    const isSystem = (type: string, priority: number): boolean => priority === 0 || type === 'instructions'
    return {
      joiner: '\n\n',
      blocks: [
        section({ name: 'instructions', rank: 0, head: '', channel: 'system', items: items(isSystem) }, labels),
        section(
          { name: 'context', rank: 5, head: '', channel: 'turns', dropFrom: 'start', keep: 'tail', mergeTurns: true, items: items((t, p) => !isSystem(t, p) && t === 'history') },
          labels,
        ),
        section({ name: 'evidence', rank: 4, head: '', channel: 'system', items: items((t, p) => !isSystem(t, p) && t !== 'history' && t !== 'task') }, labels),
        section({ name: 'task', rank: 1, head: '', channel: 'user', items: items((t, p) => !isSystem(t, p) && t === 'task') }, labels),
      ],
    } satisfies Document
  }
