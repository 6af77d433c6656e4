/**
 * Turning selected packets into layout items, and sorting them the way each section reads.
 *
 * @module
 */
import type { Packet } from '../packet.js'
import type { Selection } from '../phase.js'
import type { Item } from './document.js'
import type { Labels } from './labels.js'

/** The layout slot a packet belongs to. P0 packets of any type go with the instructions. */
export type Slot = 'instructions' | 'task' | 'state' | 'evidence' | 'context' | 'custom'

/** @category utils */
export const slotOf = (p: Pick<Packet, 'type' | 'priority'>): Slot =>
  p.priority === 0
    ? 'instructions'
    : p.type === 'task_state'
      ? 'state'
      : p.type === 'history'
        ? 'context'
        : p.type === 'instructions'
          ? 'instructions'
          : p.type

/**
 * The decoration of a packet in text layouts: `[Source: rag] ` for evidence, `user: ` for
 * history, nothing for the rest.
 *
 * @category utils
 */
export const prefixOf = (p: Packet, labels: Labels): string =>
  p.type === 'evidence' ? labels.source(p.source) : p.type === 'history' ? labels.speaker(p.message?.role ?? roleOf(p)) : ''

const roleOf = (p: Packet): 'user' | 'assistant' | 'system' | 'tool' => {
  const r = p.metadata['role']
  return r === 'assistant' || r === 'system' || r === 'tool' ? r : 'user'
}

/** @category constructors */
export const itemOf = (s: Selection, prefix: string): Item => ({
  packetId: s.packet.id,
  prefix,
  text: s.packet.content,
  tokens: s.tokens,
  ...(s.packet.message === undefined ? {} : { message: s.packet.message }),
  ...(s.packet.group === undefined ? {} : { group: s.packet.group }),
})

/**
 * Selections grouped by slot, each in reading order: history, instructions and the task in
 * input order (a conversation's order is its input order), the rest best score first.
 *
 * @category utils
 */
export const bySlot = (
  selected: ReadonlyArray<Selection>,
  order: ReadonlyMap<string, number>,
): ReadonlyMap<Slot, ReadonlyArray<Selection>> => {
  const slots = new Map<Slot, Selection[]>()
  for (const s of selected) {
    const slot = slotOf(s.packet)
    const list = slots.get(slot)
    if (list === undefined) slots.set(slot, [s])
    else list.push(s)
  }
  const index = (s: Selection): number => order.get(s.packet.id) ?? 0
  for (const [slot, list] of slots) {
    if (slot === 'context' || slot === 'instructions' || slot === 'task') list.sort((a, b) => index(a) - index(b))
    else list.sort((a, b) => b.scores.composite - a.scores.composite || index(a) - index(b))
  }
  return slots
}
