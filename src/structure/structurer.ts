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
  const chosen = new Set<string>()
  for (const x of s.selected) chosen.add(x.packet.id)
  const order = new Map<string, number>()
  s.packets.forEach((p, i) => {
    if (chosen.has(p.id)) order.set(p.id, i)
  })
  return order
}
