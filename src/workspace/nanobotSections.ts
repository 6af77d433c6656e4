/**
 * The sections of a nanobot version's own prompt, so that with the same clock, time-zone
 * label, runtime line and files, gssc's prompt equals nanobot's byte for byte. Sections are
 * joined by `\n\n---\n\n`:
 *
 * - 0.1.3: identity; bootstrap files (`## <FILE>\n\n<text>`, joined by `\n\n`, empty ones
 *   too); `# Memory` (long-term, today's note: each when not empty); `# Active Skills`;
 *   `# Skills` (XML, every skill, workspace ones first).
 * - 0.1.4: the same without today's note (0.1.4 reads none), then the `## Current Session`
 *   block after a blank line when a channel and chat id are given.
 * - HEAD: identity; bootstrap files except empty ones and unchanged templates; the tool
 *   notes; `# Memory` unless MEMORY.md is the template; `# Active Skills`; `# Skills` in
 *   Markdown grouped by origin, without the active ones; `# Recent History`.
 *
 * What a version does not show is reported as left out (`ignored`), never dropped silently.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ConfigError } from '../error.js'
import { instantOf, intlZoneLabel, wallTime } from './clock.js'
import { HEAD_SOUL_TEMPLATE, isHeadTemplate } from './headTemplates.js'
import type { Skill, Workspace } from './model.js'
import { nanobotIdentity } from './nanobotIdentity.js'
import type { PartKind, Settings } from './options.js'
import { pyStrip } from './python.js'
import { describeMissing } from './requirements.js'
import { collector, lineSafe, missingFiles, shadowedSkills, shownPath, SKILLS_INTRO, summaryEntry, unavailableSkills } from './sectionKit.js'
import type { Omitted, Sections } from './sections.js'
import { PART_SEPARATOR } from '../structure/parts.js'
import type { NanobotVersion } from './version.js'

/** nanobot HEAD's skills intro, followed by the groups. */
const HEAD_SKILLS_INTRO =
  '# Skills\n\nThe following skills extend your capabilities. Each group lists one root and relative SKILL.md paths; join them when using `read_file`.\n\n'

/**
 * The sections of `version`'s prompt for a workspace.
 *
 * @category constructors
 */
export const nanobotSections = (ws: Workspace, s: Settings, version: NanobotVersion): E.Either<ConfigError, Sections> => {
  const wall = wallTime(ws.clock.now, ws.clock.timeZone)
  if (E.isLeft(wall)) return wall
  const head = version === 'HEAD'
  const { item, section, sections } = collector(s)
  const omitted: Omitted[] = [...missingFiles(ws)]
  const ignore = (kind: PartKind, file: string, detail: string): void => {
    omitted.push({ id: kind === 'bootstrap' ? `bootstrap:${file}` : kind, kind, name: file, file, reason: 'ignored', detail: `nanobot ${version} ${detail}` })
  }

  const identity = nanobotIdentity(version, {
    root: ws.root,
    wall: wall.right,
    zoneLabel: ws.clock.label ?? intlZoneLabel(ws.clock.now, ws.clock.timeZone),
    runtime: s.runtime,
    tools: s.tools,
    name: s.identity.name,
    emoji: s.identity.emoji,
    platform: s.platform,
    ...(s.session === undefined ? {} : { channel: s.session.channel }),
  })
  section('identity', [item('identity', 'identity', 'Identity', '', identity)])

  const bootstrap = ws.bootstrap.flatMap((f) => {
    if (!head) return [f]
    // a legacy SOUL.md is shown as the current template, as nanobot HEAD does
    const text = f.name === 'SOUL.md' && isHeadTemplate('legacy/SOUL.md', f.text) ? HEAD_SOUL_TEMPLATE : f.text
    if (pyStrip(text) === '') return (ignore('bootstrap', f.name, 'leaves out an empty file'), [])
    if ((f.name === 'AGENTS.md' || f.name === 'USER.md') && isHeadTemplate(f.name, text)) return (ignore('bootstrap', f.name, 'leaves out a file equal to its template'), [])
    return [{ ...f, text }]
  })
  section('bootstrap', bootstrap.map((f) => item('bootstrap', `bootstrap:${f.name}`, f.name, `## ${lineSafe(f.name)}\n\n`, f.text, { file: f.name, bytes: f.bytes })))
  if (head) section('tools', [item('tool-notes', 'tool-notes', 'Tool Usage Notes', '', s.toolNotes)])

  const { longTerm, today } = ws.memory
  const memory = longTerm !== undefined && longTerm.text !== '' && !(head && isHeadTemplate('memory/MEMORY.md', longTerm.text)) ? longTerm : undefined
  if (longTerm !== undefined && longTerm.text !== '' && memory === undefined) ignore('memory', longTerm.name, 'leaves out a MEMORY.md equal to its template')
  const note = version === '0.1.3' && today !== undefined && today.text !== '' ? today : undefined
  if (version !== '0.1.3' && today !== undefined) ignore('notes', today.name, 'does not read daily notes')
  section(
    'memory',
    [
      ...(memory === undefined ? [] : [item('memory', 'memory', 'Long-term Memory', '## Long-term Memory\n', memory.text, { file: memory.name, bytes: memory.bytes })]),
      ...(note === undefined ? [] : [item('notes', 'notes', "Today's Notes", "## Today's Notes\n", note.text, { file: note.name, bytes: note.bytes })]),
    ],
    { head: '# Memory\n\n' },
  )

  const active = ws.skills.filter((k) => k.always && k.available && k.file.text !== '')
  section(
    'active-skills',
    active.map((k) => item('active-skill', `skill:${k.dir}`, `Skill: ${k.name}`, `### Skill: ${lineSafe(k.dir)}\n\n`, k.body, { file: k.file.name, bytes: k.file.bytes })),
    { head: '# Active Skills\n\n', sep: PART_SEPARATOR },
  )
  const listed = head ? ws.skills.filter((k) => !active.includes(k)) : ws.skills
  const entry = (k: Skill, text: string) => item('skills-summary', `summary:${k.dir}`, `Skill summary: ${k.name}`, text, '', { file: k.file.name, cuttable: false })
  if (head) section('skills', headSummary(listed).map(([k, text]) => entry(k, text)), { head: HEAD_SKILLS_INTRO, sep: '\n' })
  else section('skills', listed.map((k) => entry(k, summaryEntry(k, location(ws, k)))), { head: `${SKILLS_INTRO}<skills>\n`, sep: '\n', tail: '\n</skills>' })

  const log = ws.memory.historyFile
  if (head && s.includeHistory && ws.memory.history.length > 0) {
    const entries = ws.memory.history.map((e) => {
      const timestamp = instantOf(e.timestamp, ws.clock.timeZone)
      return item('history', `history:${e.line}`, `History ${e.timestamp || `line ${e.line}`}`.trim(), '', `- [${e.timestamp}] ${e.content}`, {
        ...(log === undefined ? {} : { file: log }),
        ...(timestamp === undefined ? {} : { timestamp }),
      })
    })
    // when the budget runs short, the oldest entries go
    section('history', entries, { head: '# Recent History\n\n', sep: '\n', cap: s.maxHistoryTokens, dropFrom: 'start' })
  } else if (log !== undefined && (ws.memory.history.length > 0 || ws.memory.layout === 'history-md'))
    ignore('history', log, head && ws.memory.layout === 'history-md' ? 'migrates HISTORY.md into history.jsonl and marks every entry as processed' : head ? 'was asked not to show the history log' : 'does not show the history log in its prompt')
  if (version === '0.1.4' && s.session !== undefined)
    section('session', [item('session', 'session', 'Current Session', '', `## Current Session\nChannel: ${s.session.channel}\nChat ID: ${s.session.chatId}`)], { joiner: '\n\n' })
  return E.right({ sections, omitted: [...omitted, ...unavailableSkills(ws, new Set(active.map((k) => k.name))), ...shadowedSkills(ws)] })
}

/** Where nanobot 0.1.x says a skill lives: `<workspace>/skills/<dir>/SKILL.md`, or in the bundled folder. */
const location = (ws: Workspace, k: Skill): string => (k.origin === 'builtin' ? k.file.name : shownPath(ws, `${ws.root}/skills/${k.dir}/SKILL.md`))

/** nanobot HEAD's summary lines, each group's heading on its first line. */
const headSummary = (skills: ReadonlyArray<Skill>): ReadonlyArray<readonly [Skill, string]> =>
  (['workspace', 'builtin'] as const).flatMap((origin, g) =>
    skills
      .filter((k) => (k.origin ?? 'workspace') === origin)
      .map((k, i) => {
        const missing = describeMissing(k.missing)
        const suffix = k.available ? '' : missing === '' ? ' (unavailable)' : ` (unavailable: ${missing})`
        const line = `- **${lineSafe(k.dir)}** — ${k.description}${suffix}  \`${lineSafe(k.dir)}/SKILL.md\``
        if (i > 0) return [k, line] as const
        const heading = `### ${origin === 'workspace' ? 'Workspace skills' : 'Built-in skills'} (\`skills\`)`
        // groups are joined by a blank line; the first group opens the list
        return [k, `${g > 0 && skills.some((x) => (x.origin ?? 'workspace') === 'workspace') ? '\n' : ''}${heading}\n${line}`] as const
      }),
  )
