/** Shared test setup for the workspace tests: the real tokenizer, fixtures and a fixed clock. */
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { createTokenizer } from '../../src/tokenize/tokenizer.js'
import type { LoadOptions } from '../../src/workspace/load.js'
import type { Host } from '../../src/workspace/requirements.js'

/** Unwraps a Right, or fails the test with the Left. */
export const right = <A>(e: E.Either<unknown, A>): A => {
  if (E.isLeft(e)) throw new Error(`expected Right, got Left: ${JSON.stringify(e.left)}`)
  return e.right
}

/** Unwraps a Left, or fails the test. */
export const left = <L>(e: E.Either<L, unknown>): L => {
  if (E.isRight(e)) throw new Error('expected Left, got Right')
  return e.left
}

export const tokenizer = right(createTokenizer('gpt-4o'))

export const FIXTURES = resolve(import.meta.dirname, '../fixtures/workspace')
export const BASIC = join(FIXTURES, 'basic')

/** 2026-07-02 09:15 in Shanghai (a Thursday). */
export const NOW = new Date('2026-07-02T01:15:00Z')

/** Only `curl` is installed; no environment variables are set. */
export const HOST: Host = { env: {}, hasCommand: async (name) => name === 'curl' }

export const LOAD: LoadOptions = { now: () => NOW, timeZone: 'Asia/Shanghai', host: HOST }

export const RUNTIME = 'Linux x64, Node.js 20.0.0'

/** The nanobot fixtures' clock: 2026-11-22 09:15 in Shanghai (a Sunday). */
export const NANOBOT_NOW = new Date('2026-11-22T01:15:00Z')
/** The runtime line of the Python that built the nanobot fixtures. */
export const NANOBOT_RUNTIME = 'Linux x86_64, Python 3.11.7'
/** The machine the nanobot fixtures were made on: curl and tmux installed, gh and summarize not. */
export const NANOBOT_HOST: Host = { env: {}, hasCommand: async (name) => name === 'curl' || name === 'tmux' }

/** Runs `body` with a fresh temp dir, removed afterwards. */
export const withTempDir = async <A>(body: (dir: string) => Promise<A>): Promise<A> => {
  // realpath: on macOS the temp folder is behind a symlink, and workspaces are symlink-free
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'gssc-ws-')))
  try {
    return await body(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
