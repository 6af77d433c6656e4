/**
 * An agent workspace as data: what `loadWorkspace` read from a nanobot-style folder. Every
 * later step (the system prompt, packets, messages) is a pure function of this value, so a
 * workspace can also be built in memory for tests or for workspaces that live elsewhere.
 *
 * @module
 */
import type { InputError } from '../error.js'
import type { NanobotVersion } from './version.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A text file read from the workspace. Line endings are normalised to `\n` and a UTF-8 BOM
 * is dropped; nothing else is changed.
 */
export interface WorkspaceFile {
  /** The path relative to the workspace root, with `/` separators: `memory/MEMORY.md`. */
  readonly name: string
  /** The absolute, symlink-free path. */
  readonly path: string
  readonly text: string
  /** The file's size on disk. */
  readonly bytes: number
  /**
   * True when the file was larger than the read limit and only its head (or, for history
   * logs, its tail) was read. `text` is then a part of the file.
   */
  readonly partial: boolean
}

/** What a skill needs before it can run. */
export interface Requirements {
  /** Commands that must be on `PATH`. */
  readonly bins: ReadonlyArray<string>
  /** Environment variables that must be set and non-empty. */
  readonly env: ReadonlyArray<string>
}

/**
 * A skill: `skills/<dir>/SKILL.md` (or `<dir>/SKILL.md` of the bundled-skills folder), read
 * as the workspace's nanobot version reads it (gssc's own reading: a YAML parser).
 */
export interface Skill {
  /** `name` from the frontmatter, else the directory name (nanobot versions: the directory name). */
  readonly name: string
  /** The directory under `skills/` (or under the bundled-skills folder). */
  readonly dir: string
  /** Where it comes from: the workspace (default) or the bundled-skills folder. */
  readonly origin?: 'workspace' | 'builtin'
  /** The SKILL.md file (absolute path in `file.path`). */
  readonly file: WorkspaceFile
  /** `description` from the frontmatter, else the directory name. */
  readonly description: string
  /** The text after the frontmatter. */
  readonly body: string
  /** Asked to be always on (`always: true` or `metadata.nanobot.always`), met or not. */
  readonly always: boolean
  readonly requires: Requirements
  /** The requirements that are not met on this machine. */
  readonly missing: Requirements
  /** True when nothing is missing. */
  readonly available: boolean
  /** The parsed frontmatter, for callers that read other keys (`homepage`, `emoji`). */
  readonly frontmatter: Readonly<Record<string, unknown>>
}

/** One entry of the history log (`memory/HISTORY.md` or `memory/history.jsonl`). */
export interface HistoryEntry {
  /** `YYYY-MM-DD HH:MM` in the workspace's local time, or `''` when the entry has none. */
  readonly timestamp: string
  readonly content: string
  /** The writer's cursor (history.jsonl only). */
  readonly cursor?: number
  /** The session the entry belongs to (history.jsonl only); none means every session. */
  readonly sessionKey?: string
  /** 1-based line in the log where the entry starts. */
  readonly line: number
}

/**
 * Which memory layout the workspace uses, by nanobot era:
 * - `daily`: `memory/MEMORY.md` plus daily notes `memory/YYYY-MM-DD.md` (v0.1.3);
 * - `history-md`: `memory/MEMORY.md` plus the append-only `memory/HISTORY.md` (v0.1.4–v0.2.0);
 * - `history-jsonl`: `memory/MEMORY.md` plus `memory/history.jsonl` (v0.2.2 and later).
 */
export type MemoryLayout = 'daily' | 'history-md' | 'history-jsonl'

/** The memory folder. */
export interface Memory {
  readonly layout: MemoryLayout
  /** `memory/MEMORY.md`, when it exists. */
  readonly longTerm?: WorkspaceFile
  /** Today's note `memory/<today>.md`, when it exists. */
  readonly today?: WorkspaceFile
  /** The newest history entries (oldest first), after the Dream cursor and session filter. */
  readonly history: ReadonlyArray<HistoryEntry>
  /** The log the entries came from, when there is one. */
  readonly historyFile?: string
}

/** The clock reading the workspace was loaded with; the prompt's time and "today" use it. */
export interface Clock {
  readonly now: Date
  /** An IANA time zone name, e.g. `Asia/Shanghai`. */
  readonly timeZone: string
  /** The zone's label as Python's `%Z` prints it (`CST`), for nanobot 0.1.4's prompt. */
  readonly label?: string
}

/** A loaded workspace. Plain data: build one by hand in tests if you like. */
export interface Workspace {
  /** The absolute, symlink-free workspace path. */
  readonly root: string
  /**
   * The workspace path as the user gave it (`~` expanded, symlinks kept, a relative path
   * kept relative, in `pathlib`'s form: `./ws/` is `ws`): nanobot prints a workspace skill's
   * `<location>` under it, not under the real path. Default `root`.
   */
  readonly givenRoot?: string
  readonly clock: Clock
  /** The bootstrap files that exist, in the configured order. */
  readonly bootstrap: ReadonlyArray<WorkspaceFile>
  /** The bootstrap files that were asked for but do not exist. */
  readonly missing: ReadonlyArray<string>
  readonly memory: Memory
  /**
   * Workspace skills, then bundled ones, each group sorted by directory name or in
   * directory order (`skillOrder`).
   */
  readonly skills: ReadonlyArray<Skill>
  /** Bundled skills hidden by a workspace skill of the same folder name (their files). */
  readonly shadowed?: ReadonlyArray<string>
  /** The nanobot release whose prompt this workspace reproduces; none for gssc's own layout. */
  readonly nanobotVersion?: NanobotVersion
  /**
   * Problems that did not stop the load, each naming its file (and line): a skill whose
   * frontmatter is not valid YAML, a malformed history.jsonl line. Nothing is skipped
   * without an entry here.
   */
  readonly problems: ReadonlyArray<InputError>
}

/** The bootstrap files nanobot v0.1.4 loads, in its order. */
export const DEFAULT_BOOTSTRAP_FILES: ReadonlyArray<string> = ['AGENTS.md', 'SOUL.md', 'USER.md', 'TOOLS.md', 'IDENTITY.md']
