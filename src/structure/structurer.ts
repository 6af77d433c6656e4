/**
 * The structurer contract: a pure function from the selection to a layout.
 *
 * @module
 */
import type { Packet } from '../packet.js'
import type { Env, Selected } from '../phase.js'
import type { Document } from './document.js'

/** How a layout shows one packet's text: what comes before and after it, and in which section. */
export interface Decoration {
  readonly section: string
  readonly prefix: string
  readonly suffix?: string
  /** What follows the item when another item of its section follows it. */
  readonly separator: string
}

/**
 * Lays out the selected packets. Replace it with your own function of the same type. A
 * layout that can say how it will show a packet before laying anything out (`decorate`)
 * lets the selection charge each packet its label and separator joined with its text, in
 * one fill.
 */
export interface Structurer {
  (s: Selected): Document
  readonly decorate?: (p: Packet, env: Env) => Decoration | undefined
}

/**
 * Where each selected packet was among the gathered ones, by id: sections that keep input
 * order use it. Only the selection is indexed: a build may gather thousands of packets it
 * leaves out, and it lays out twice (`layoutAware`). A selection that says where its packet
 * is (`Selection.at`, as gssc's selector does) is taken at its word; the others are looked
 * for among the packets from the first on, until every one is found.
 */
export const inputOrder = (s: Selected): ReadonlyMap<string, number> => {
  // the chosen ids go in first, at their place when they say it (-1: not found yet); an id
  // not among the packets leaves again
  const order = new Map<string, number>()
  let missing = 0
  for (const x of s.selected) {
    if (x.at !== undefined && s.packets[x.at] === x.packet) order.set(x.packet.id, x.at)
    else {
      order.set(x.packet.id, -1)
      missing++
    }
  }
  for (let i = 0; i < s.packets.length && missing > 0; i++) {
    const id = s.packets[i]!.id
    if (order.get(id) !== -1) continue
    missing--
    order.set(id, i)
  }
  if (missing > 0) for (const [id, at] of order) if (at < 0) order.delete(id)
  return order
}
