/**
 * The cache-stable layout: the seed's sections, with what repeats from one request to the
 * next first and what changes last, so a provider's prompt cache can reuse the start of the
 * previous request.
 *
 * `[Role & Policies]`, `[Output]`, `[Context]` (the conversation, which only grows at its
 * end), then `[State]`, `[Evidence]`, `[Notes]` and `[Task]` last. The seed's `sectioned()`
 * puts the question second and the evidence in the system part, so everything after the
 * instructions changes on every request; here the changing part is a tail.
 *
 * The sections are the seed's own (same headings, labels and truncation ranks: Notes go
 * first, Role & Policies last); only their order differs. For chat messages the volatile
 * sections go on the final user turn (the `user` channel, before the question), so the system
 * prompt stays the instructions and the output format — as `chat()` does, which remains
 * `build`'s default for messages; on that turn a section's heading is not shown (a chat
 * renderer shows the final user turn without headings), its items keep their source labels.
 *
 * @module
 */
import type { Document, Section } from './document.js'
import { seedSections, type SectionedOptions } from './sectioned.js'
import type { Structurer } from './structurer.js'

/** Options of the cache-stable layout: the seed layout's (labels, the `[Output]` section). */
export type StableOptions = SectionedOptions

/** A volatile section of the seed, moved to the final user turn. */
const toUser = (s: Section): Section => ({ ...s, channel: 'user' })

/**
 * The seed's sections with the stable ones first (see the module comment).
 *
 * @example
 * build(request, { structurer: stable() }) // text: instructions, output format, history, then state, evidence, question
 * @category constructors
 * @since 0.2.0
 */
export const stable =
  (options: StableOptions = {}): Structurer =>
  (s) => {
    const x = seedSections(s, options)
    const blocks: Section[] = [
      x.instructions,
      ...(x.output === undefined ? [] : [x.output]),
      x.context,
      toUser(x.state),
      toUser(x.evidence),
      toUser(x.custom),
      x.task,
    ]
    return { blocks, joiner: '\n\n' } satisfies Document
  }
