/**
 * The system prompt as data, before any budget: sections in nanobot's order, each a list of
 * items (one per file, skill or history entry) with its priority. The budget step decides
 * which items stay and how much of each; only `renderPrompt` makes a string.
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
import { instantOf } from './clock.js'
import { identityText } from './identity.js'
import type { Skill, Workspace } from './model.js'
import { partClass, type PartKind, type Settings } from './options.js'
import { describeMissing } from './requirements.js'
import { PART_SEPARATOR } from '../structure/parts.js'

/** Where a section sits. */
export type SectionId = 'identity' | 'bootstrap' | 'memory' | 'active-skills' | 'skills' | 'history' | 'session'

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
  /** Tie-break among equal priorities: lower is kept first. */
  readonly rank: number
  /** Size of the source file on disk (for the truncation marker). */
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
  readonly items: ReadonlyArray<Item>
}

/** A part that is not in the prompt for a reason other than the budget. */
export interface Omitted {
  readonly id: string
  readonly kind: PartKind
  readonly name: string
  readonly file?: string
  readonly reason: 'missing' | 'unavailable'
  readonly detail: string
}


/** The era-A skills intro (nanobot v0.1.4), followed by the XML list. */
export const SKILLS_INTRO =
  '# Skills\n\nThe following skills extend your capabilities. To use a skill, read its SKILL.md file using the read_file tool.\n' +
  'Skills with available="false" need dependencies installed first - you can try installing them with apt/brew.\n\n'

/**
 * Escapes text for an XML text node: `&`, `<` and `>`, as nanobot does. Skill names and
 * descriptions are untrusted and must not open or close the tags around them.
 *
 * @example
 * escapeXml('<a> & "b"') // '&lt;a&gt; &amp; "b"'
 * @category utils
 */
export const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/**
 * The sections of a workspace's prompt, and the parts left out before any budget.
 *
 * @category constructors
 */
export const promptSections = (
  ws: Workspace,
  s: Settings,
): E.Either<ConfigError, { readonly sections: ReadonlyArray<Section>; readonly omitted: ReadonlyArray<Omitted> }> => {
  const identity = identityText(ws, s)
  if (E.isLeft(identity)) return identity
  const active = activeSkills(ws, s)
  if (E.isLeft(active)) return active
  let rank = 0
  const item = (kind: PartKind, id: string, name: string, head: string, body: string, extra: Partial<Item> = {}): Item => ({
    id,
    kind,
    name,
    head,
    body,
    cuttable: true,
    ...partClass(s, kind, extra.file),
    rank: rank++,
    bytes: 0,
    ...extra,
  })
  const sections: Section[] = []
  const section = (id: SectionId, items: ReadonlyArray<Item>, shape: Partial<Section> = {}): void => {
    if (items.length > 0) sections.push({ id, joiner: PART_SEPARATOR, head: '', sep: '\n\n', tail: '', ...shape, items })
  }

  section('identity', [item('identity', 'identity', 'Identity', '', identity.right)])
  section(
    'bootstrap',
    ws.bootstrap.map((f) => item('bootstrap', `bootstrap:${f.name}`, f.name, `## ${f.name}\n\n`, f.text, { file: f.name, bytes: f.bytes })),
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
      item('active-skill', `skill:${k.dir}`, `Skill: ${k.name}`, `### Skill: ${k.name}\n\n`, k.body.trim(), { file: k.file.name, bytes: k.file.bytes }),
    ),
    { head: '# Active Skills\n\n', sep: PART_SEPARATOR },
  )
  section(
    'skills',
    ws.skills.map((k) => item('skills-summary', `summary:${k.dir}`, `Skill summary: ${k.name}`, summaryEntry(k), '', { file: k.file.name, cuttable: false })),
    { head: `${SKILLS_INTRO}<skills>\n`, sep: '\n', tail: '\n</skills>' },
  )
  if (s.includeHistory && ws.memory.history.length > 0) {
    const file = ws.memory.historyFile
    // newest first: when the budget runs short, the oldest entries go
    const entries = [...ws.memory.history].reverse().map((e) => {
      const timestamp = instantOf(e.timestamp, ws.clock.timeZone)
      return item('history', `history:${e.line}`, `History ${e.timestamp || `line ${e.line}`}`.trim(), '', e.timestamp === '' ? `- ${e.content}` : `- [${e.timestamp}] ${e.content}`, {
        ...(file === undefined ? {} : { file }),
        ...(timestamp === undefined ? {} : { timestamp }),
      })
    })
    section('history', entries.reverse(), { head: '# Recent History\n\n', sep: '\n', cap: s.maxHistoryTokens })
  }
  if (s.session !== undefined)
    section('session', [item('session', 'session', 'Current Session', '', `## Current Session\nChannel: ${s.session.channel}\nChat ID: ${s.session.chatId}`)], {
      joiner: '\n\n',
    })
  return E.right({ sections, omitted: omittedParts(ws, new Set(active.right.map((k) => k.name))) })
}

/** One `<skill>` element of the summary, all text escaped. */
const summaryEntry = (k: Skill): string =>
  [
    `  <skill available="${k.available}">`,
    `    <name>${escapeXml(k.name)}</name>`,
    `    <description>${escapeXml(k.description)}</description>`,
    `    <location>${escapeXml(k.file.path)}</location>`,
    ...(k.available ? [] : [`    <requires>${escapeXml(describeMissing(k.missing))}</requires>`]),
    '  </skill>',
  ].join('\n')

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

const omittedParts = (ws: Workspace, active: ReadonlySet<string>): ReadonlyArray<Omitted> => [
  ...ws.missing.map((name): Omitted => ({ id: `bootstrap:${name}`, kind: 'bootstrap', name, file: name, reason: 'missing', detail: 'not found in the workspace' })),
  ...ws.skills
    .filter((k) => k.always && !active.has(k.name))
    .map(
      (k): Omitted => ({
        id: `skill:${k.dir}`,
        kind: 'active-skill',
        name: `Skill: ${k.name}`,
        file: k.file.name,
        reason: 'unavailable',
        detail: `always-on, but its requirements are not met (${describeMissing(k.missing)}); listed in the skills summary instead`,
      }),
    ),
]
