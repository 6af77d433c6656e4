/**
 * The structurer contract: a pure function from the selection to a layout.
 *
 * @module
 */
import type { Selected } from '../phase.js'
import type { Document } from './document.js'

/** Lays out the selected packets. Replace it with your own function of the same type. */
export type Structurer = (s: Selected) => Document

/**
 * Where each selected packet was among the gathered ones, by id: sections that keep input
 * order use it. Only the selection is indexed: a build may gather thousands of packets it
 * leaves out, and it lays out twice (`layoutAware`).
 */
export const inputOrder = (s: Selected): ReadonlyMap<string, number> => {
  // one map, not a set of the chosen ids and then the map: the chosen ids go in first (-1:
  // not found yet) and take their positions; an id not among the packets leaves again
  const order = new Map<string, number>()
  for (const x of s.selected) order.set(x.packet.id, -1)
  let found = 0
  for (let i = 0; i < s.packets.length; i++) {
    const id = s.packets[i]!.id
    const at = order.get(id)
    if (at === undefined) continue
    if (at < 0) found++
    order.set(id, i)
  }
  if (found < order.size) for (const [id, at] of order) if (at < 0) order.delete(id)
  return order
}
