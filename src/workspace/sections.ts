/**
 * The system prompt as data, before any budget: sections in nanobot's order, each a list of
 * items (one per file, skill or history entry) with its priority. The fitting engine decides
 * which items stay and how much of each (`policy.ts` states how); only the renderer makes a
 * string.
 *
 * Order (sections joined by `\n\n---\n\n`): identity; bootstrap files (`## <FILE>` blocks
 * joined by `\n\n`); `# Memory` (long-term, then today's note); `# Active Skills`; `# Skills`
 * (the XML summary); `# Recent History`; then the `## Current Session` block, joined by
 * `\n\n` as nanobot appends it.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { configError, type ConfigError } from '../error.js'
import type { PacketType, Priority } from '../packet.js'
import type { ExclusionReason } from '../phase.js'
import { instantOf } from './clock.js'
import { identityText } from './identity.js'
import type { Skill, Workspace } from './model.js'
import type { PartKind, Settings } from './options.js'
import { nanobotSections } from './nanobotSections.js'
import { PART_SEPARATOR } from '../structure/parts.js'
import { collector, lineSafe, missingFiles, shadowedSkills, shownPath, SKILLS_INTRO, summaryEntry, unavailableSkills } from './sectionKit.js'

/** Where a section sits. */
export type SectionId = 'identity' | 'bootstrap' | 'tools' | 'memory' | 'active-skills' | 'skills' | 'history' | 'session'

/** One budgetable piece of the prompt. `head` is never cut; `body` may be. */
export interface Item {
  readonly id: string
  readonly kind: PartKind
  readonly name: string
  /** Workspace path of the file the text came from. */
  readonly file?: string
  readonly head: string
  readonly body: string
  /** False for items that are all or nothing (a skill's summary entry). */
  readonly cuttable: boolean
  readonly type: PacketType
  readonly priority: Priority
  /** Size of the source file on disk (for the truncation marker's estimate). */
  readonly bytes: number
  /** When the entry was written (history entries), epoch ms. */
  readonly timestamp?: number
}

/** A run of items rendered as `head + items.join(sep) + tail`, preceded by `joiner`. */
export interface Section {
  readonly id: SectionId
  readonly joiner: string
  readonly head: string
  readonly sep: string
  readonly tail: string
  /** Caps the section's total tokens (the history block). */
  readonly cap?: number
  /** Which end gives way first among items of equal priority: the oldest history entries (`start`); default `end`. */
  readonly dropFrom?: 'start' | 'end'
  readonly items: ReadonlyArray<Item>
}

/** A part that is not in the prompt for a reason other than the budget. */
export interface Omitted {
  readonly id: string
  readonly kind: PartKind
  readonly name: string
  readonly file?: string
  /**
   * `missing`: not found; `unavailable`: an always-on skill whose requirements are not met;
   * `ignored`: the nanobot version does not show it (a daily note in 0.1.4, a template file
   * in HEAD); `shadowed`: a bundled skill hidden by the workspace's own.
   */
  readonly reason: Extract<ExclusionReason, 'missing' | 'unavailable' | 'ignored' | 'shadowed'>
  readonly detail: string
}

/** Sections and the parts left out before any budget. */
export interface Sections {
  readonly sections: ReadonlyArray<Section>
  readonly omitted: ReadonlyArray<Omitted>
}

/**
 * The sections of a workspace's prompt, and the parts left out before any budget: gssc's
 * own layout, or with `ws.nanobotVersion` that version's (see `nanobotSections`).
 *
 * @category constructors
 */
export const promptSections = (ws: Workspace, s: Settings): E.Either<ConfigError, Sections> => {
  if (ws.nanobotVersion !== undefined) return nanobotSections(ws, s, ws.nanobotVersion)
  const identity = identityText(ws, s)
  if (E.isLeft(identity)) return identity
  const active = activeSkills(ws, s)
  if (E.isLeft(active)) return active
  const { item, section, sections } = collector(s)

  section('identity', [item('identity', 'identity', 'Identity', '', identity.right)])
  section(
    'bootstrap',
    ws.bootstrap.map((f) => item('bootstrap', `bootstrap:${f.name}`, f.name, `## ${lineSafe(f.name)}\n\n`, f.text, { file: f.name, bytes: f.bytes })),
  )
  const { longTerm, today } = ws.memory
  section(
    'memory',
    [
      ...(longTerm === undefined || longTerm.text.trim() === ''
        ? []
        : [item('memory', 'memory', 'Long-term Memory', '## Long-term Memory\n', longTerm.text, { file: longTerm.name, bytes: longTerm.bytes })]),
      ...(today === undefined || today.text.trim() === ''
        ? []
        : [item('notes', 'notes', "Today's Notes", "## Today's Notes\n", today.text, { file: today.name, bytes: today.bytes })]),
    ],
    { head: '# Memory\n\n' },
  )
  section(
    'active-skills',
    active.right.map((k) =>
      item('active-skill', `skill:${k.dir}`, `Skill: ${k.name}`, `### Skill: ${lineSafe(k.name)}\n\n`, k.body.trim(), { file: k.file.name, bytes: k.file.bytes }),
    ),
    { head: '# Active Skills\n\n', sep: PART_SEPARATOR },
  )
  section(
    'skills',
    ws.skills.map((k) => item('skills-summary', `summary:${k.dir}`, `Skill summary: ${k.name}`, summaryEntry(k, shownPath(ws, k.file.path)), '', { file: k.file.name, cuttable: false })),
    { head: `${SKILLS_INTRO}<skills>\n`, sep: '\n', tail: '\n</skills>' },
  )
  if (s.includeHistory && ws.memory.history.length > 0) {
    const file = ws.memory.historyFile
    const entries = ws.memory.history.map((e) => {
      const timestamp = instantOf(e.timestamp, ws.clock.timeZone)
      return item('history', `history:${e.line}`, `History ${e.timestamp || `line ${e.line}`}`.trim(), '', e.timestamp === '' ? `- ${e.content}` : `- [${e.timestamp}] ${e.content}`, {
        ...(file === undefined ? {} : { file }),
        ...(timestamp === undefined ? {} : { timestamp }),
      })
    })
    // when the budget runs short, the oldest entries go
    section('history', entries, { head: '# Recent History\n\n', sep: '\n', cap: s.maxHistoryTokens, dropFrom: 'start' })
  }
  if (s.session !== undefined)
    section('session', [item('session', 'session', 'Current Session', '', `## Current Session\nChannel: ${s.session.channel}\nChat ID: ${s.session.chatId}`)], {
      joiner: '\n\n',
    })
  return E.right({ sections, omitted: [...missingFiles(ws), ...unavailableSkills(ws, new Set(active.right.map((k) => k.name))), ...shadowedSkills(ws)] })
}

/** Always-on skills whose requirements are met, then the ones asked for by name. */
const activeSkills = (ws: Workspace, s: Settings): E.Either<ConfigError, ReadonlyArray<Skill>> => {
  const chosen = ws.skills.filter((k) => k.always && k.available)
  for (const name of s.skillNames) {
    const found = ws.skills.find((k) => k.name === name || k.dir === name)
    if (found === undefined) {
      const why = /[/\\]|^\.\.?$/.test(name)
        ? 'is not a skill name: skills are folders directly under skills/, and a path outside it is refused'
        : `no such skill; known: ${ws.skills.map((k) => k.name).join(', ') || '(none)'}`
      return E.left(configError('skillNames', name, why))
    }
    if (!chosen.includes(found)) chosen.push(found)
  }
  return E.right(chosen)
}
