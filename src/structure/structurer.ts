/**
 * The structurer contract: a pure function from the selection to a layout.
 *
 * @module
 */
import type { Selected } from '../phase.js'
import type { Document } from './document.js'

/** Lays out the selected packets. Replace it with your own function of the same type. */
export type Structurer = (s: Selected) => Document

/** Input order of the gathered packets, by id: sections that keep input order use it. */
export const inputOrder = (s: Selected): ReadonlyMap<string, number> =>
  new Map(s.packets.map((p, i) => [p.id, i]))
