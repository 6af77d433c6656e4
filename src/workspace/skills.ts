/**
 * Skills: every `skills/<dir>/SKILL.md`, in directory-name order. A folder without a
 * SKILL.md is not a skill and is passed over; a SKILL.md whose frontmatter cannot be read is
 * still listed (under its directory name) and the problem is reported.
 *
 * @module
 */
import { readdir } from 'node:fs/promises'
import * as E from 'fp-ts/lib/Either.js'
import { inputError, type InputError } from '../error.js'
import { readWorkspaceFile, type ReadLimit } from './files.js'
import { isRecord, parseFrontmatter, readMetadata } from './frontmatter.js'
import type { Requirements, Skill, WorkspaceFile } from './model.js'
import { describeFsError, realInside, resolveLexical } from './paths.js'
import { missingOn, type Host } from './requirements.js'

/** Skills and the problems met reading them. */
export interface LoadedSkills {
  readonly skills: ReadonlyArray<Skill>
  readonly problems: ReadonlyArray<InputError>
}

/**
 * Reads the skills of the workspace at `root` (symlink-free). A skill folder or file that
 * resolves outside the workspace fails the whole load: a workspace must not pull in files
 * from elsewhere behind its owner's back.
 *
 * @category utils
 */
export const loadSkills = async (root: string, limit: ReadLimit, host: Host): Promise<E.Either<InputError, LoadedSkills>> => {
  const dir = resolveLexical(root, 'skills', 'skills')
  if (E.isLeft(dir)) return dir
  const located = await realInside(root, dir.right, 'skills')
  if (E.isLeft(located)) return located
  if (located.right._tag === 'Missing') return E.right({ skills: [], problems: [] })
  let names: string[]
  try {
    const entries = await readdir(located.right.path, { withFileTypes: true })
    names = entries.filter((d) => d.isDirectory() || d.isSymbolicLink()).map((d) => d.name)
  } catch (e) {
    return E.left(inputError('skills', describeFsError(e)))
  }
  names.sort()
  const skills: Skill[] = []
  const problems: InputError[] = []
  for (const name of names) {
    const file = await readWorkspaceFile(root, `skills/${name}/SKILL.md`, limit)
    if (E.isLeft(file)) return file
    if (file.right === undefined) continue
    const read = await readSkill(name, file.right, host)
    skills.push(read.skill)
    problems.push(...read.problems)
  }
  return E.right({ skills, problems })
}

/**
 * One skill from its SKILL.md. Requirements come from `metadata.nanobot` (or
 * `metadata.openclaw`) `.requires.bins` / `.requires.env`; `always` from the top level or
 * `metadata.nanobot.always`.
 *
 * @category utils
 */
export const readSkill = async (dir: string, file: WorkspaceFile, host: Host): Promise<{ readonly skill: Skill; readonly problems: ReadonlyArray<InputError> }> => {
  const problems: InputError[] = []
  const fm = parseFrontmatter(file.text)
  if (fm.problem !== undefined) problems.push(inputError(file.name, fm.problem.message, fm.problem.line))
  const metadata = readMetadata(fm.data.metadata)
  if (metadata._tag === 'Invalid') problems.push(inputError(file.name, `field "metadata": ${metadata.message}`, fieldLine(file.text, 'metadata')))
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
      available: missing.bins.length === 0 && missing.env.length === 0,
      frontmatter: fm.data,
    },
    problems,
  }
}

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
