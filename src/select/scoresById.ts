/**
 * Packets' scores by id, as a map made when it is first read.
 *
 * A selector judges packets by their place (`Prepared.scoresAt`), and the report reads them
 * by place too (`Selected.places`): in most builds nothing asks for a score by id but the
 * layout probe's handful, and a map of a thousand passages' ids, made eagerly, cost each
 * build ~40 µs and its entries' collection. The view reads as the map it stands for (the
 * last packet of an id wins, as `Map` keeps the last value set); it is made from readonly
 * data and never changes once made.
 *
 * @module
 */
import type { Packet } from '../packet.js'
import type { Scores } from './score.js'
import type { Prepared } from './selector.js'

/**
 * `packets[k].id` → `scores[k]`, as a `ReadonlyMap` made on its first read.
 *
 * @example
 * scoresById([p], [{ relevance: 1, recency: 1, composite: 1 }]).get(p.id) // { relevance: 1, … }
 * @category utils
 */
export const scoresById = (packets: ReadonlyArray<Packet>, scores: ReadonlyArray<Scores>): ReadonlyMap<string, Scores> => {
  let made: Map<string, Scores> | undefined
  const map = (): Map<string, Scores> => {
    if (made === undefined) {
      made = new Map()
      for (let k = 0; k < packets.length; k++) made.set(packets[k]!.id, scores[k]!)
    }
    return made
  }
  const view: ReadonlyMap<string, Scores> = {
    get size() {
      return map().size
    },
    get: (id) => map().get(id),
    has: (id) => map().has(id),
    forEach: (f, thisArg) => map().forEach((v, k) => f.call(thisArg, v, k, view)),
    entries: () => map().entries(),
    keys: () => map().keys(),
    values: () => map().values(),
    [Symbol.iterator]: () => map()[Symbol.iterator](),
  }
  return view
}

/**
 * A packet's prepared scores: read at its place `at` among the packets when known, else by
 * its id (which makes the map by id).
 *
 * @category utils
 */
export const scoresOf = (prepared: Prepared, p: Packet, at?: number): Scores => (at === undefined ? undefined : prepared.scoresAt?.[at]) ?? prepared.scores.get(p.id)!
