/**
 * Skills: every `skills/<dir>/SKILL.md` of the workspace, then every `<dir>/SKILL.md` of the
 * bundled-skills folder (read-only; a workspace skill of the same folder name hides the
 * bundled one, as in nanobot). A folder without a SKILL.md is not a skill and is passed over.
 *
 * Order: by folder name, or in directory order (the order the file system lists them, which
 * is what nanobot shows: it does not sort).
 *
 * A skill that cannot be used is skipped and reported with its file, and the rest of the
 * workspace builds: a folder whose symlink leaves its root, an unreadable SKILL.md, and a
 * frontmatter that is not valid YAML (syntax, duplicate keys, an alias bomb).
 *
 * @module
 */
import { opendir, realpath } from 'node:fs/promises'
import { resolve } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { inputError, type InputError } from '../error.js'
import { readWorkspaceFile, type ReadLimit } from './files.js'
import { isRecord, parseFrontmatter, readMetadata } from './frontmatter.js'
import type { Requirements, Skill, WorkspaceFile } from './model.js'
import { describeFsError, realInside, resolveLexical } from './paths.js'
import { missingOn, type Host } from './requirements.js'
import { readSkillAs } from './skillRules.js'
import type { NanobotVersion } from './version.js'

/** Skills, the bundled ones a workspace skill hides, and the problems met reading them. */
export interface LoadedSkills {
  readonly skills: ReadonlyArray<Skill>
  readonly shadowed: ReadonlyArray<string>
  readonly problems: ReadonlyArray<InputError>
}

/** How skills are read. */
export interface SkillSettings {
  readonly limit: ReadLimit
  readonly host: Host
  /** The nanobot version whose reading rules apply; none for gssc's own. */
  readonly version?: NanobotVersion
  readonly order: 'sorted' | 'directory'
  /** The bundled-skills folder, if any. */
  readonly builtin?: string
}

/**
 * Reads the skills of the workspace at `root` (symlink-free) and of the bundled folder.
 *
 * @category utils
 */
export const loadSkills = async (root: string, s: SkillSettings): Promise<LoadedSkills> => {
  const own = await skillsUnder(root, 'skills', 'skills/', 'workspace', s)
  if (s.builtin === undefined) return { ...own, shadowed: [] }
  let base: string
  try {
    base = await realpath(resolve(s.builtin))
  } catch (e) {
    return { ...own, shadowed: [], problems: [...own.problems, inputError(s.builtin, `bundled-skills folder ${describeFsError(e)}; no bundled skills`)] }
  }
  const bundled = await skillsUnder(base, '.', `${base}/`, 'builtin', s)
  const taken = new Set(own.folders)
  return {
    skills: [...own.skills, ...bundled.skills.filter((k) => !taken.has(k.dir))],
    shadowed: bundled.folders.filter((d) => taken.has(d)).map((d) => `${base}/${d}/SKILL.md`),
    problems: [...own.problems, ...bundled.problems],
  }
}

/** The skills in `root/folder`; `folders` lists every folder holding a SKILL.md, skipped ones too. */
const skillsUnder = async (
  root: string,
  folder: string,
  prefix: string,
  origin: 'workspace' | 'builtin',
  s: SkillSettings,
): Promise<{ readonly skills: ReadonlyArray<Skill>; readonly folders: ReadonlyArray<string>; readonly problems: ReadonlyArray<InputError> }> => {
  const none = { skills: [], folders: [] }
  const dir = resolveLexical(root, folder, folder)
  if (E.isLeft(dir)) return { ...none, problems: [dir.left] }
  const located = await realInside(root, dir.right, folder, origin === 'builtin' ? 'the bundled-skills folder' : undefined)
  if (E.isLeft(located)) return { ...none, problems: [skipped(located.left, 'no skills are read')] }
  if (located.right._tag === 'Missing') return { ...none, problems: [] }
  const names: string[] = []
  try {
    // opendir, not readdir: readdir sorts by name, opendir keeps the file system's order
    for await (const d of await opendir(located.right.path)) if (d.isDirectory() || d.isSymbolicLink()) names.push(d.name)
  } catch (e) {
    return { ...none, problems: [inputError(folder, `${describeFsError(e)}; no skills are read`)] }
  }
  if (s.order === 'sorted') names.sort()
  const skills: Skill[] = []
  const folders: string[] = []
  const problems: InputError[] = []
  const sub = folder === '.' ? '' : `${folder}/`
  for (const name of names) {
    const file = await readWorkspaceFile(root, `${sub}${name}/SKILL.md`, s.limit, origin === 'builtin' ? { prefix, rootName: 'the bundled-skills folder' } : {})
    if (E.isLeft(file)) {
      folders.push(name)
      problems.push(skipped(file.left, 'the skill is skipped'))
      continue
    }
    if (file.right === undefined) continue
    folders.push(name)
    const read = await readSkill(name, file.right, s.host, s.version)
    problems.push(...read.problems)
    if (read.skill !== undefined) skills.push(origin === 'builtin' ? { ...read.skill, origin } : read.skill)
  }
  return { skills, folders, problems }
}

/** The error, saying what became of the skill. */
const skipped = (e: InputError, what: string): InputError => ({ ...e, message: `${e.message}; ${what}` })

/**
 * One skill from its SKILL.md, read by `version`'s rules (none: gssc's own reading).
 * gssc reads requirements from `metadata.nanobot` (or `metadata.openclaw`)
 * `.requires.bins` / `.requires.env`, and `always` from the top level or
 * `metadata.nanobot.always`. A frontmatter that is not valid YAML skips the skill, in every
 * version: the problem names the file and line.
 *
 * @category utils
 */
export const readSkill = async (
  dir: string,
  file: WorkspaceFile,
  host: Host,
  version?: NanobotVersion,
): Promise<{ readonly skill?: Skill; readonly problems: ReadonlyArray<InputError> }> => {
  const fm = parseFrontmatter(file.text)
  if (fm.problem !== undefined) return { problems: [inputError(file.name, `${fm.problem.message}; the skill is skipped`, fm.problem.line)] }
  const problems: InputError[] = []
  const metadata = readMetadata(fm.data.metadata)
  if (metadata._tag === 'Invalid') problems.push(inputError(file.name, `field "metadata": ${metadata.message}`, fieldLine(file.text, 'metadata')))
  if (version !== undefined) {
    const { metadataIgnored, ...read } = readSkillAs(version, dir, file.text)
    // nanobot ignores what it cannot read; say so, since requirements and `always` go with it
    if (metadataIgnored && metadata._tag === 'Ok')
      problems.push(inputError(file.name, `field "metadata": nanobot ${version} cannot read it (${version === 'HEAD' ? 'a mapping or a JSON object string' : 'JSON on one line'}), so it ignores its requirements and "always", as gssc does here`, fieldLine(file.text, 'metadata')))
    const missing = await missingOn(host, read.requires)
    return { skill: { name: dir, dir, file, ...read, missing, available: isMet(missing), frontmatter: fm.data }, problems }
  }
  const meta = metadata._tag === 'Ok' ? agentMetadata(metadata.value) : {}
  const requiresRaw = isRecord(meta.requires) ? meta.requires : {}
  const list = (key: 'bins' | 'env'): ReadonlyArray<string> => {
    const value = requiresRaw[key]
    if (value === undefined || value === null) return []
    if (typeof value === 'string') return [value]
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value
    problems.push(inputError(file.name, `field "metadata.requires.${key}" must be a list of strings (got ${JSON.stringify(value)})`, fieldLine(file.text, 'metadata')))
    return []
  }
  const requires: Requirements = { bins: list('bins'), env: list('env') }
  const missing = await missingOn(host, requires)
  const text = (key: string): string | undefined => {
    const v = fm.data[key]
    return typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : undefined
  }
  return {
    skill: {
      name: text('name') ?? dir,
      dir,
      file,
      description: text('description') ?? dir,
      body: fm.body,
      always: truthy(fm.data.always) || truthy(meta.always),
      requires,
      missing,
      available: isMet(missing),
      frontmatter: fm.data,
    },
    problems,
  }
}

const isMet = (missing: Requirements): boolean => missing.bins.length === 0 && missing.env.length === 0

/** nanobot reads its own key first, then OpenClaw's (skills are shared between the two). */
const agentMetadata = (metadata: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> => {
  const own = metadata.nanobot ?? metadata.openclaw
  return isRecord(own) ? own : {}
}

/** YAML booleans, and the strings nanobot's hand-written parser left behind. */
const truthy = (v: unknown): boolean => v === true || v === 1 || (typeof v === 'string' && /^(true|yes|on|1)$/i.test(v.trim()))

/** The 1-based line where `key:` appears in the file, for error messages. */
const fieldLine = (text: string, key: string): number | undefined => {
  const index = text.split('\n').findIndex((l) => l.startsWith(`${key}:`))
  return index < 0 ? undefined : index + 1
}
