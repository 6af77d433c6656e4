/**
 * Tools shared by the prompt layouts (gssc's own and each nanobot version's): a collector
 * of items and sections, the escapers for names and XML text, and the
 * parts every layout reports as left out.
 *
 * @module
 */
import { escapeText } from '../chunks/xml.js'
import { clean } from '../inspect/width.js'
import { PART_SEPARATOR } from '../structure/parts.js'
import type { Skill, Workspace } from './model.js'
import { partClass, type PartKind, type Settings } from './options.js'
import { describeMissing } from './requirements.js'
import type { Item, Omitted, Section, SectionId } from './sections.js'

/** Makes items and collects non-empty sections. */
export const collector = (s: Settings) => {
  const sections: Section[] = []
  const item = (kind: PartKind, id: string, name: string, head: string, body: string, extra: Partial<Item> = {}): Item => ({
    id,
    kind,
    name,
    head,
    body,
    cuttable: true,
    ...partClass(s, kind, extra.file),
    bytes: 0,
    ...extra,
  })
  const section = (id: SectionId, items: ReadonlyArray<Item>, shape: Partial<Section> = {}): void => {
    if (items.length > 0) sections.push({ id, joiner: PART_SEPARATOR, head: '', sep: '\n\n', tail: '', ...shape, items })
  }
  return { item, section, sections }
}

/**
 * A file or folder name made safe for one line of the prompt (a heading, an XML element):
 * line breaks and other control characters become visible symbols, so a skill folder named
 * `x\n## Current Session` cannot open a section of its own.
 *
 * @example
 * lineSafe('x\n## Current Session') // 'x ## Current Session'
 * @category utils
 */
export const lineSafe = (name: string): string => clean(name).replace(/[\u2028\u2029]/g, ' ')

/** nanobot 0.1.x's skills intro, followed by the XML list. */
export const SKILLS_INTRO =
  '# Skills\n\nThe following skills extend your capabilities. To use a skill, read its SKILL.md file using the read_file tool.\n' +
  'Skills with available="false" need dependencies installed first - you can try installing them with apt/brew.\n\n'

/**
 * Escapes text for an XML text node: gssc's one XML escaper (`escapeText`: `&`, `<`, control
 * characters, lone surrogates), plus `>` as nanobot does. Skill names and descriptions are
 * untrusted and must not open or close the tags around them.
 *
 * @example
 * escapeXml('<a> & "b"') // '&lt;a&gt; &amp; "b"'
 * @category utils
 */
export const escapeXml = (text: string): string => escapeText(text).replace(/>/g, '&gt;')

/**
 * A path under the workspace as nanobot prints it: under the folder as the user gave it
 * (`givenRoot`: relative stays relative, symlinks kept), not its real path; a path outside
 * the workspace (a bundled skill) as it is. Under `.`, the path relative to it, as
 * `Path('.') / 'skills'` prints `skills`.
 */
export const shownPath = (ws: Workspace, path: string): string =>
  ws.givenRoot === undefined || !path.startsWith(`${ws.root}/`)
    ? path
    : ws.givenRoot === '.'
      ? path.slice(ws.root.length + 1)
      : ws.givenRoot + path.slice(ws.root.length)

/** One `<skill>` element of the XML summary, all text escaped; `location` is the SKILL.md path shown. */
export const summaryEntry = (k: Skill, location: string): string =>
  [
    `  <skill available="${k.available}">`,
    `    <name>${escapeXml(lineSafe(k.name))}</name>`,
    `    <description>${escapeXml(k.description)}</description>`,
    `    <location>${escapeXml(lineSafe(location))}</location>`,
    ...(k.available ? [] : [`    <requires>${escapeXml(describeMissing(k.missing))}</requires>`]),
    '  </skill>',
  ].join('\n')

/** Bootstrap files asked for and not found. */
export const missingFiles = (ws: Workspace): ReadonlyArray<Omitted> =>
  ws.missing.map((name): Omitted => ({ id: `bootstrap:${name}`, kind: 'bootstrap', name, file: name, reason: 'missing', detail: 'not found in the workspace' }))

/** Bundled skills a workspace skill hides. */
export const shadowedSkills = (ws: Workspace): ReadonlyArray<Omitted> =>
  (ws.shadowed ?? []).map((file): Omitted => ({
    id: `bundled:${file}`,
    kind: 'skills-summary',
    name: file,
    file,
    reason: 'shadowed',
    detail: 'a bundled skill hidden by the workspace skill of the same folder name',
  }))

/** Always-on skills left out for unmet requirements. */
export const unavailableSkills = (ws: Workspace, active: ReadonlySet<string>): ReadonlyArray<Omitted> =>
  ws.skills
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
    )
