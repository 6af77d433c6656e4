/**
 * The honest layout for chat messages, `build`'s default whenever the output is messages:
 * it adds nothing the user did not give, except the delimiters of one documented place.
 *
 * - The system prompt is the user's own instructions (and P0 packets), first and unchanged:
 *   no headings, no `[Output]` block. Several instructions are joined by a blank line.
 * - History turns are the conversation's own turns.
 * - State, retrieved evidence and custom packets go into the final user turn, before the
 *   query, each wrapped in one element: `<document source="…">…</document>` (evidence),
 *   `<state>…</state>`, `<note source="…">…</note>`. That keeps the system prompt stable
 *   for provider prompt caches, and keeps what changes per request next to the question
 *   it serves. The text inside is the packet's own, except that a tag of these three names
 *   inside it has its `<` written `&lt;`, so no content can close its element or forge
 *   another; attribute values are XML-escaped.
 *
 * The seed's sectioned layout stays one option away: `build(request, { structurer: sectioned(), renderer })`.
 *
 * @module
 */
import type { Packet } from '../packet.js'
import type { Selected, Selection } from '../phase.js'
import { escapeAttr } from '../chunks/xml.js'
import type { Document, Item, Section } from './document.js'
import { bySlot, itemOf, slotOf, type Slot } from './items.js'
import { labelsFor } from './labels.js'
import { section, SLOT_LAYOUT } from './sectioned.js'
import { inputOrder, type Decoration, type Structurer } from './structurer.js'

/** The element each packet kind is wrapped in on the final user turn. */
/** The slots whose packets are wrapped in an element on the final user turn. */
type Wrapped = 'state' | 'evidence' | 'custom'

const ELEMENT: Readonly<Record<Wrapped, string>> = { state: 'state', evidence: 'document', custom: 'note' }

const FORGED = /<(\/?)(document|state|note)(?=[\s/>]|$)/gi

/**
 * A packet's text with every tag named like one of the layout's elements defused.
 *
 * @example
 * defuse('a </document><system>') // 'a &lt;/document><system>'
 * @category utils
 * @since 0.2.0
 */
export const defuse = (text: string): string => text.replace(FORGED, '&lt;$1$2')

/** An element's opening tag for a packet. */
const open = (name: string, p: Packet): string => (name === 'state' ? '<state>\n' : `<${name} source="${escapeAttr(p.source)}">\n`)

/**
 * @example
 * build({ query, instructions, history, packets }, { structurer: chat(), renderer: openaiRenderer() })
 * @category constructors
 * @since 0.2.0
 */
export const chat = (): Structurer =>
  Object.assign(
    (s: Selected): Document => {
      const labels = labelsFor(s.env.config.locale)
      const { meter } = s.env
      const slots = bySlot(s.selected, inputOrder(s))
      const of = (slot: Slot): ReadonlyArray<Selection> => slots.get(slot) ?? []
      const wrapped = (slot: Wrapped): Section => {
        const name = ELEMENT[slot]
        const items = of(slot).map((x): Item => {
          const text = defuse(x.packet.content)
          const base = itemOf(x, open(name, x.packet))
          // defusing changed the text: count what is sent (rare; most texts are unchanged)
          return { ...base, text, tokens: text === x.packet.content ? x.tokens : meter.text(text), suffix: `\n</${name}>` }
        })
        return section({ name: slot, head: '', items, ...SLOT_LAYOUT[slot], channel: 'user', separator: '' }, labels)
      }
      const blocks: Section[] = [
        section({ name: 'instructions', head: '', items: of('instructions').map((x) => itemOf(x, '')), ...SLOT_LAYOUT.instructions, separator: '\n\n' }, labels),
        section({ name: 'context', head: '', items: of('context').map((x) => itemOf(x, '')), ...SLOT_LAYOUT.context, separator: '' }, labels),
        wrapped('state'),
        wrapped('evidence'),
        wrapped('custom'),
        section({ name: 'task', head: '', items: of('task').map((x) => itemOf(x, '')), ...SLOT_LAYOUT.task }, labels),
      ]
      return { blocks, joiner: '\n\n' } satisfies Document
    },
    {
      // as laid out above; a text holding one of the element tags is defused, and counts a little more
      decorate: (p: Packet): Decoration => {
        const slot = slotOf(p)
        if (slot === 'state' || slot === 'evidence' || slot === 'custom') return { section: slot, prefix: open(ELEMENT[slot], p), suffix: `\n</${ELEMENT[slot]}>`, separator: '' }
        return { section: slot, prefix: '', separator: SEPARATOR[slot] }
      },
    },
  )

/** Between two items of a section that is not wrapped. */
const SEPARATOR: Readonly<Record<Exclude<Slot, Wrapped>, string>> = { instructions: '\n\n', context: '', task: '\n' }
