/**
 * The default layout, from the seed: `[Role & Policies]`, `[Task]`, `[State]`, `[Evidence]`,
 * `[Context]`, then `[Output]`, each left out when empty. Custom (P4) packets, which the seed
 * does not place, go in a `[Notes]` section after the context and are cut first.
 *
 * Truncation ranks follow the seed's order: Notes, Context, Evidence, State, Output, Task,
 * and Role & Policies last.
 *
 * @module
 */
import type { Locale } from '../config.js'
import type { Document, Item, Section } from './document.js'
import { bySlot, itemOf, prefixOf, slotOf, type Slot } from './items.js'
import { labelsFor, type Labels } from './labels.js'
import type { Env, Selected } from '../phase.js'
import type { Packet } from '../packet.js'
import { inputOrder, type Decoration, type Structurer } from './structurer.js'

/** Options of the default layout. */
export interface SectionedOptions {
  /** Labels; default the build's `config.locale`. */
  readonly locale?: Locale
  /** The `[Output]` answer-format section: on (default), off, or your own text. */
  readonly output?: boolean | string
}

/** @category constructors */
export const section = (
  fields: Pick<Section, 'name' | 'rank' | 'head' | 'items' | 'channel'> & Partial<Section>,
  labels: Labels,
): Section => ({
  _tag: 'Section',
  separator: '\n',
  dropFrom: 'end',
  keep: 'head',
  omitWhenEmpty: true,
  marker: labels.marker,
  ...fields,
})

/** Where each slot goes, how it shrinks, and whether it changes from one request to the next. */
export const SLOT_LAYOUT: Readonly<
  Record<
    Slot,
    { readonly rank: number; readonly channel: Section['channel']; readonly dropFrom: Section['dropFrom']; readonly keep: Section['keep']; readonly volatile: boolean }
  >
> = {
  instructions: { rank: 0, channel: 'system', dropFrom: 'end', keep: 'head', volatile: false },
  task: { rank: 1, channel: 'user', dropFrom: 'end', keep: 'head', volatile: true },
  state: { rank: 3, channel: 'system', dropFrom: 'end', keep: 'head', volatile: true },
  evidence: { rank: 4, channel: 'system', dropFrom: 'end', keep: 'head', volatile: true },
  context: { rank: 5, channel: 'turns', dropFrom: 'start', keep: 'tail', volatile: false },
  custom: { rank: 6, channel: 'system', dropFrom: 'end', keep: 'head', volatile: true },
}

/** Rank of the `[Output]` section: after State, before Task (the seed's order). */
export const OUTPUT_RANK = 2

/** The seed's sections of a selection, by name, each in the seed's form; `output` absent when turned off. */
export const seedSections = (s: Selected, options: SectionedOptions = {}): Readonly<Record<Slot, Section>> & { readonly output?: Section } => {
  const labels = labelsFor(options.locale ?? s.env.config.locale)
  const slots = bySlot(s.selected, inputOrder(s))
  const items = (slot: Slot): ReadonlyArray<Item> => (slots.get(slot) ?? []).map((x) => itemOf(x, prefixOf(x.packet, labels)))
  const slotSection = (slot: Slot, head: string): Section => section({ name: slot, head, items: items(slot), ...SLOT_LAYOUT[slot] }, labels)
  const output = options.output ?? true
  const format = typeof output === 'string' ? output : labels.outputFormat
  return {
    instructions: slotSection('instructions', `${labels.instructions}\n`),
    task: slotSection('task', `${labels.task}\n${labels.taskIntro}`),
    state: slotSection('state', `${labels.state}\n${labels.stateIntro}\n`),
    evidence: slotSection('evidence', `${labels.evidence}\n${labels.evidenceIntro}\n`),
    context: slotSection('context', `${labels.context}\n${labels.contextIntro}\n`),
    custom: slotSection('custom', `${labels.custom}\n${labels.customIntro}\n`),
    ...(output === false
      ? {}
      : {
          output: section(
            { name: 'output', rank: OUTPUT_RANK, head: `${labels.output}\n`, channel: 'system', items: [{ prefix: '', text: format, tokens: s.env.meter.text(format) }] },
            labels,
          ),
        }),
  }
}

/**
 * The seed's sectioned layout.
 *
 * @example
 * pipe(selected, sectioned({ locale: 'zh' }))
 * @category constructors
 * @since 0.1.0
 */
export const sectioned = (options: SectionedOptions = {}): Structurer =>
  Object.assign(
    (s: Selected): Document => {
      const x = seedSections(s, options)
      const blocks: Section[] = [x.instructions, x.task, x.state, x.evidence, x.context, x.custom, ...(x.output === undefined ? [] : [x.output])]
      return { blocks, joiner: '\n\n' } satisfies Document
    },
    {
      decorate: (p: Packet, env: Env): Decoration => ({ section: slotOf(p), prefix: prefixOf(p, labelsFor(options.locale ?? env.config.locale)), separator: '\n' }),
    },
  )
