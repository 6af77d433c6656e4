/**
 * `loadWorkspace`: a workspace folder into a {@link Workspace} value, with async fs and
 * errors as values. Reads are bounded (`readLimitBytes` per file) and confined to the
 * workspace.
 *
 * @module
 */
import { realpath, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { resolve } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { configError, inputError, type GsscError } from '../error.js'
import { isoDate, systemTimeZone, wallTime } from './clock.js'
import { readWorkspaceFile } from './files.js'
import { loadMemory } from './memory.js'
import { DEFAULT_BOOTSTRAP_FILES, type Workspace, type WorkspaceFile } from './model.js'
import { describeFsError, resolveLexical } from './paths.js'
import { pathHost, type Host } from './requirements.js'
import { loadSkills } from './skills.js'
import { bootstrapFilesOf, type NanobotVersion } from './version.js'
import { zoneLabel } from './zoneName.js'

/** How to read a workspace. Every field has a default. */
export interface LoadOptions {
  /**
   * Bootstrap files, in prompt order. Default `AGENTS.md, SOUL.md, USER.md, TOOLS.md,
   * IDENTITY.md` (nanobot HEAD: `AGENTS.md, SOUL.md, USER.md`).
   */
  readonly bootstrapFiles?: ReadonlyArray<string>
  /** The clock. Default `() => new Date()`. */
  readonly now?: () => Date
  /** IANA time zone for "today" and the prompt's time. Default: the system's. */
  readonly timeZone?: string
  /** Where `requires.bins` / `requires.env` are checked. Default: `process.env` and its `PATH`. */
  readonly host?: Host
  /** At most this many bytes are read from one file. Default 8 MiB. */
  readonly readLimitBytes?: number
  /** The newest history-log entries kept. Default 50 (nanobot's). */
  readonly maxHistoryEntries?: number
  /** Keep only history entries of this session (e.g. `cli:direct`) and those with none. */
  readonly sessionKey?: string
  /**
   * Reproduce this nanobot release's prompt: its files, its SKILL.md reading and its skill
   * order. Default: gssc's own layout. See {@link NanobotVersion}.
   */
  readonly nanobotVersion?: NanobotVersion
  /** The zone's `%Z` label (`CST`). Default: from the system's zone database (nanobot 0.1.4 only). */
  readonly timeZoneLabel?: string
  /** A read-only folder of bundled skills (`<dir>/SKILL.md`), listed after the workspace's own. */
  readonly builtinSkills?: string
  /** `directory`: as the file system lists them (nanobot's order); `sorted`: by folder name. Default: `directory` with a nanobot version, else `sorted`. */
  readonly skillOrder?: 'directory' | 'sorted'
}

/** Default {@link LoadOptions.readLimitBytes}: 8 MiB. */
export const DEFAULT_READ_LIMIT_BYTES = 8 * 1024 * 1024

/**
 * Reads the workspace at `dir`.
 *
 * Fails (Left) when the folder does not exist, an option is invalid, a file cannot be read,
 * or a bootstrap or memory file's path or symlink leads outside the workspace. Softer
 * problems are listed in `problems`, each naming its file: a skill that is skipped (its
 * frontmatter is not valid YAML, its folder links out of the workspace, it cannot be read),
 * a malformed history line.
 *
 * @example
 * const ws = await loadWorkspace('~/.nanobot/workspace', { timeZone: 'Asia/Shanghai' })()
 * if (E.isRight(ws)) console.log(ws.right.skills.map((s) => s.name))
 * @category constructors
 * @since 0.1.0
 */
export const loadWorkspace =
  (dir: string, options: LoadOptions = {}): TE.TaskEither<GsscError, Workspace> =>
  async () => {
    const limitBytes = options.readLimitBytes ?? DEFAULT_READ_LIMIT_BYTES
    if (!Number.isInteger(limitBytes) || limitBytes < 1) return E.left(configError('readLimitBytes', limitBytes, 'must be a positive integer'))
    const maxEntries = options.maxHistoryEntries ?? 50
    if (!Number.isInteger(maxEntries) || maxEntries < 0) return E.left(configError('maxHistoryEntries', maxEntries, 'must be a non-negative integer'))
    const timeZone = options.timeZone ?? systemTimeZone()
    const now = (options.now ?? (() => new Date()))()
    const wall = wallTime(now, timeZone)
    if (E.isLeft(wall)) return wall
    const root = await workspaceRoot(dir)
    if (E.isLeft(root)) return root

    const version = options.nanobotVersion
    const names = options.bootstrapFiles ?? (version === undefined ? DEFAULT_BOOTSTRAP_FILES : bootstrapFilesOf(version))
    if (new Set(names).size !== names.length)
      return E.left(configError('bootstrapFiles', names, 'lists a file twice'))
    for (const name of names) {
      const inside = resolveLexical(root.right.real, name, `bootstrap file ${JSON.stringify(name)}`)
      if (E.isLeft(inside)) return inside
    }
    const head = { limitBytes, end: 'head' } as const
    const [bootstrapRead, skills, memory, label] = await Promise.all([
      Promise.all(names.map((name) => readWorkspaceFile(root.right.real, name, head))),
      loadSkills(root.right.real, {
        limit: head,
        host: options.host ?? pathHost(process.env),
        order: options.skillOrder ?? (version === undefined ? 'sorted' : 'directory'),
        ...(version === undefined ? {} : { version }),
        ...(options.builtinSkills === undefined ? {} : { builtin: options.builtinSkills }),
      }),
      loadMemory(root.right.real, {
        limitBytes,
        today: isoDate(wall.right),
        maxEntries,
        ...(options.sessionKey === undefined ? {} : { sessionKey: options.sessionKey }),
        head: version === 'HEAD',
      }),
      options.timeZoneLabel ?? (version === '0.1.4' ? zoneLabel(now, timeZone) : undefined),
    ])
    const bootstrap: WorkspaceFile[] = []
    const missing: string[] = []
    for (const [i, read] of bootstrapRead.entries()) {
      if (E.isLeft(read)) return read
      if (read.right === undefined) missing.push(names[i]!)
      else bootstrap.push(read.right)
    }
    if (E.isLeft(memory)) return memory
    return E.right({
      root: root.right.real,
      ...(root.right.given === root.right.real ? {} : { givenRoot: root.right.given }),
      clock: { now, timeZone, ...(label === undefined ? {} : { label }) },
      bootstrap,
      missing,
      memory: memory.right.memory,
      skills: skills.skills,
      ...(skills.shadowed.length === 0 ? {} : { shadowed: skills.shadowed }),
      ...(version === undefined ? {} : { nanobotVersion: version }),
      problems: [...skills.problems, ...memory.right.problems],
    })
  }

/** The workspace folder as given (`~` expanded, relative kept) and as it really is (absolute, symlinks resolved). */
const workspaceRoot = async (dir: string): Promise<E.Either<GsscError, { readonly given: string; readonly real: string }>> => {
  try {
    // `~` as nanobot's expanduser does; the shell has not expanded it when it comes from config
    const given = shownRoot(dir === '~' || dir.startsWith('~/') ? homedir() + dir.slice(1) : dir)
    const root = await realpath(resolve(given))
    return (await stat(root)).isDirectory() ? E.right({ given, real: root }) : E.left(inputError(dir, 'is not a directory (expected a workspace folder)'))
  } catch (e) {
    return E.left(inputError(dir, `workspace folder ${describeFsError(e)}`))
  }
}

/**
 * A folder path as Python's `pathlib` prints it (nanobot keeps the workspace as a `Path`
 * and prints paths under it): empty and `.` segments and a trailing slash go, `..` stays,
 * relative stays relative.
 */
const shownRoot = (dir: string): string => {
  const segments = dir.split('/').filter((x) => x !== '' && x !== '.')
  return dir.startsWith('/') ? `/${segments.join('/')}` : segments.join('/') || '.'
}
