/**
 * `initWorkspace`: writes a small starter workspace. Existing files are never overwritten
 * (each file is created with an exclusive open, so not even a race can clobber one).
 *
 * @module
 */
import { mkdir, realpath, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { inputError, type InputError } from '../error.js'
import { describeFsError, fsCode, isInside } from './paths.js'

/** What `initWorkspace` did, by workspace path. */
export interface InitReport {
  /** The absolute, symlink-free workspace path. */
  readonly root: string
  readonly created: ReadonlyArray<string>
  /** Files that already existed and were left as they were. */
  readonly skipped: ReadonlyArray<string>
}

/** The starter files, by workspace path. */
export const STARTER_FILES: Readonly<Record<string, string>> = {
  'AGENTS.md': [
    '# Agent Instructions',
    '',
    'You are a helpful assistant. Be concise, accurate and friendly.',
    '',
    '- Before you call a tool, say in one sentence what you are about to do.',
    '- Ask when a request is ambiguous.',
    '- Write lasting facts about the user to memory/MEMORY.md.',
    '',
  ].join('\n'),
  'SOUL.md': ['# Soul', '', 'I am a personal AI assistant.', '', '- Warm, direct and honest.', '- I say so when I am not sure.', ''].join('\n'),
  'USER.md': ['# User', '', 'Tell the agent about yourself: name, time zone, language, preferences.', ''].join('\n'),
  'TOOLS.md': ['# Tools', '', 'Notes on the tools this agent has and when to use them.', ''].join('\n'),
  'memory/MEMORY.md': ['# Long-term Memory', '', 'Facts worth remembering across sessions.', ''].join('\n'),
}

/** Folders the starter creates (skills are added by the user). */
const STARTER_DIRS: ReadonlyArray<string> = ['memory', 'skills']

/**
 * Creates `dir` (if needed), `memory/`, `skills/` and the {@link STARTER_FILES} that do
 * not exist yet.
 *
 * @example
 * await initWorkspace('./my-agent')()
 * // Right({ root: '/home/me/my-agent', created: ['AGENTS.md', 'SOUL.md', …], skipped: [] })
 * @category constructors
 * @since 0.1.0
 */
export const initWorkspace =
  (dir: string): TE.TaskEither<InputError, InitReport> =>
  async () => {
    let root: string
    try {
      await mkdir(resolve(dir), { recursive: true })
      root = await realpath(resolve(dir))
      for (const sub of STARTER_DIRS) {
        await mkdir(join(root, sub), { recursive: true })
        const real = await realpath(join(root, sub))
        if (!isInside(root, real)) return E.left(inputError(join(dir, sub), `resolves to ${real}, outside the workspace ${root}; nothing was written there`))
      }
    } catch (e) {
      return E.left(inputError(dir, `cannot create the workspace: ${describeFsError(e)}`))
    }
    const created: string[] = []
    const skipped: string[] = []
    for (const [name, text] of Object.entries(STARTER_FILES)) {
      try {
        // 'wx' fails on anything already there, a symlink included, instead of following it
        await writeFile(join(root, name), text, { flag: 'wx' })
        created.push(name)
      } catch (e) {
        if (fsCode(e) !== 'EEXIST') return E.left(inputError(join(dir, name), `cannot be written: ${describeFsError(e)}`))
        skipped.push(name)
      }
    }
    return E.right({ root, created, skipped })
  }
