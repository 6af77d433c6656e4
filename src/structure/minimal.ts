/**
 * The minimal layout: no headings, packets in priority order (P0 first), blank lines between.
 * History keeps its speaker labels so the conversation stays readable.
 *
 * @module
 */
import type { Document, Section } from './document.js'
import type { Packet } from '../packet.js'
import type { Env, Selected } from '../phase.js'
import { bySlot, itemOf, prefixOf, slotOf, type Slot } from './items.js'
import { labelsFor } from './labels.js'
import { section, SLOT_LAYOUT } from './sectioned.js'
import { inputOrder, type Decoration, type Structurer } from './structurer.js'

const ORDER: ReadonlyArray<Slot> = ['instructions', 'task', 'state', 'evidence', 'context', 'custom']

/** Between two packets: a blank line. */
const SEPARATOR = '\n\n'

/**
 * @example
 * pipe(selected, minimal())
 * @category constructors
 * @since 0.1.0
 */
export const minimal = (): Structurer =>
  Object.assign(
    (s: Selected): Document => {
      const labels = labelsFor(s.env.config.locale)
      const slots = bySlot(s.selected, inputOrder(s))
      const blocks: Section[] = ORDER.map((slot) =>
        section(
          {
            name: slot,
            head: '',
            separator: SEPARATOR,
            items: (slots.get(slot) ?? []).map((x) => itemOf(x, prefixOf(x.packet, labels))),
            ...SLOT_LAYOUT[slot],
          },
          labels,
        ),
      )
      return { blocks, joiner: '\n\n' } satisfies Document
    },
    { decorate: (p: Packet, env: Env): Decoration => ({ section: slotOf(p), prefix: prefixOf(p, labelsFor(env.config.locale)), separator: SEPARATOR }) },
  )
