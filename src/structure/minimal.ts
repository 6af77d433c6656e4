/**
 * The minimal layout: no headings, packets in priority order (P0 first), blank lines between.
 * History keeps its speaker labels so the conversation stays readable.
 *
 * @module
 */
import type { Document, Section } from './document.js'
import { bySlot, itemOf, prefixOf, type Slot } from './items.js'
import { labelsFor } from './labels.js'
import { section, SLOT_LAYOUT } from './sectioned.js'
import { inputOrder, type Structurer } from './structurer.js'

const ORDER: ReadonlyArray<Slot> = ['instructions', 'task', 'state', 'evidence', 'context', 'custom']

/**
 * @example
 * pipe(selected, minimal())
 * @category constructors
 * @since 0.1.0
 */
export const minimal =
  (): Structurer =>
  (s) => {
    const labels = labelsFor(s.env.config.locale)
    const slots = bySlot(s.selected, inputOrder(s))
    const blocks: Section[] = ORDER.map((slot) =>
      section(
        {
          name: slot,
          head: '',
          separator: '\n\n',
          items: (slots.get(slot) ?? []).map((x) => itemOf(x, prefixOf(x.packet, labels))),
          ...SLOT_LAYOUT[slot],
        },
        labels,
      ),
    )
    return { blocks, joiner: '\n\n' } satisfies Document
  }
