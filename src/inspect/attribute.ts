/**
 * Which section a packet belongs to. A kept packet's report names its section; a dropped one
 * has none, yet "the evidence section lost three passages" is what a user wants to read. So
 * a dropped packet goes where the build put kept packets of the same kind, or else where the
 * built-in layouts put its slot, when the layout has such a section.
 *
 * @module
 */
import type { PacketReport } from '../report.js'
import { slotOf } from '../structure/items.js'

/** The kind of packet a layout places together: P0 packets all go with the instructions. */
const kindOf = (p: Pick<PacketReport, 'type' | 'priority'>): string => (p.priority === 0 ? 'p0' : p.type)

/**
 * A function from a packet's report to the name of its section, or `undefined` when the
 * layout has no place for it.
 *
 * @example
 * const sectionOf = attributor(result.packets, ['instructions', 'task', 'evidence'])
 * sectionOf(droppedEvidence) // 'evidence'
 * @category utils
 */
export const attributor = (
  packets: ReadonlyArray<PacketReport>,
  sectionNames: ReadonlyArray<string>,
): ((p: PacketReport) => string | undefined) => {
  const learned = new Map<string, string>()
  for (const p of packets) if (p.section !== undefined && !learned.has(kindOf(p))) learned.set(kindOf(p), p.section)
  const names = new Set(sectionNames)
  return (p) => {
    if (p.section !== undefined) return p.section
    const seen = learned.get(kindOf(p))
    if (seen !== undefined) return seen
    const slot = slotOf(p)
    return names.has(slot) ? slot : undefined
  }
}
