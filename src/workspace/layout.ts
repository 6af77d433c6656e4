/**
 * The nanobot layout for the pipeline: workspace packets are laid out as nanobot lays out
 * its system prompt — identity, bootstrap files, `# Memory`, `# Active Skills`, the skills
 * summary, `# Recent History`, the session note — each section in prompt order and the
 * sections joined by `\n\n---\n\n`. Other packets follow: evidence and notes as a
 * `# Context` section, conversation turns as turns, the query as the user turn.
 *
 * One difference from `buildSystemPrompt` (which reproduces nanobot exactly): the session
 * note is joined with the separator, not with a blank line.
 *
 * Sections shrink in priority order (the packets' priorities, so memory is cut before the
 * bootstrap files), as with any structurer.
 *
 * @module
 */
import type { Selection } from '../phase.js'
import type { Document, Section } from '../structure/document.js'
import { itemOf, prefixOf } from '../structure/items.js'
import { labelsFor } from '../structure/labels.js'
import { PART_SEPARATOR } from '../structure/parts.js'
import { section } from '../structure/sectioned.js'
import { inputOrder, type Structurer } from '../structure/structurer.js'
import type { WorkspaceLayout } from './packets.js'

/** How each workspace section is laid out (its head and the text between its parts). */
const SHAPES: Readonly<Record<string, { readonly head: string; readonly separator: string }>> = {
  identity: { head: '', separator: '\n\n' },
  bootstrap: { head: '', separator: '\n\n' },
  tools: { head: '', separator: '\n\n' },
  memory: { head: '# Memory\n\n', separator: '\n\n' },
  'active-skills': { head: '# Active Skills\n\n', separator: PART_SEPARATOR },
  skills: { head: '', separator: '\n' },
  history: { head: '# Recent History\n\n', separator: '\n' },
  session: { head: '', separator: '\n\n' },
}

const layoutOf = (s: Selection): WorkspaceLayout | undefined => s.packet.metadata['workspace'] as WorkspaceLayout | undefined

/**
 * @example
 * build({ query, packets: workspacePackets(ws, { tokenizer }) }, { structurer: nanobot(), renderer: openaiRenderer() })
 * @category constructors
 * @since 0.1.0
 */
export const nanobot =
  (): Structurer =>
  (s) => {
    const labels = labelsFor(s.env.config.locale)
    const order = inputOrder(s)
    const byInput = (a: Selection, b: Selection): number => (order.get(a.packet.id) ?? 0) - (order.get(b.packet.id) ?? 0)
    const workspace = s.selected.filter((x) => layoutOf(x) !== undefined).sort((a, b) => layoutOf(a)!.order - layoutOf(b)!.order)
    const others = s.selected.filter((x) => layoutOf(x) === undefined).sort(byInput)
    const sectionIds = [...new Set(workspace.map((x) => layoutOf(x)!.section))]
    const blocks: Section[] = sectionIds.map((id) => {
      const members = workspace.filter((x) => layoutOf(x)!.section === id)
      const shape = SHAPES[id] ?? { head: '', separator: '\n\n' }
      return section(
        { name: `workspace:${id}`, rank: Math.min(...members.map((x) => x.packet.priority)), channel: 'system', items: members.map((x) => itemOf(x, '')), ...shape },
        labels,
      )
    })
    const pick = (keep: (type: string) => boolean) => others.filter((x) => keep(x.packet.type))
    return {
      joiner: PART_SEPARATOR,
      blocks: [
        ...blocks,
        section({ name: 'context', rank: 4, head: '# Context\n\n', channel: 'system', volatile: true, items: pick((t) => t !== 'history' && t !== 'task').map((x) => itemOf(x, prefixOf(x.packet, labels))) }, labels),
        section(
          { name: 'conversation', rank: 5, head: '', channel: 'turns', dropFrom: 'start', keep: 'tail', items: pick((t) => t === 'history').map((x) => itemOf(x, prefixOf(x.packet, labels))) },
          labels,
        ),
        section({ name: 'task', rank: 1, head: '', channel: 'user', items: pick((t) => t === 'task').map((x) => itemOf(x, '')) }, labels),
      ],
    } satisfies Document
  }
