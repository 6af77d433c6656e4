/** Shared helpers of the session tests. */
import * as E from 'fp-ts/lib/Either.js'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import type { Part } from '../../src/message.js'
import { branchContext, type ContextOptions } from '../../src/session/context.js'
import { loadSession, type SessionLoadOptions } from '../../src/session/load.js'
import type { BranchContext, LoadedSession } from '../../src/session/model.js'
import { createTokenizer, type Tokenizer } from '../../src/tokenize/tokenizer.js'

export const FIXTURES = 'test/fixtures/session'
/** A fixture by name, or any absolute path as is. */
export const fixture = (name: string): string => (name.startsWith('/') ? name : `${FIXTURES}/${name}`)

export const right = <A>(e: E.Either<{ readonly message: string }, A>): A => {
  if (E.isLeft(e)) throw new Error(e.left.message)
  return e.right
}

export const tokenizer: Tokenizer = right(createTokenizer('gpt-4o'))

export const load = async (name: string, options: SessionLoadOptions = {}): Promise<LoadedSession> => right(await loadSession(fixture(name), options)())

export const contextOf = async (name: string, options: ContextOptions & SessionLoadOptions = {}): Promise<BranchContext> =>
  right(branchContext(options)(await load(name, options)))

/** The text of a turn's parts, one string per part (tool calls as `name(args)`). */
export const texts = (parts: ReadonlyArray<Part>): ReadonlyArray<string> =>
  parts.map((p) => (p._tag === 'Text' || p._tag === 'Thinking' ? p.text : p._tag === 'ToolCall' ? `${p.name}(${JSON.stringify(p.args)})` : p._tag))

/** The folders {@link tempDir} made in this test file: removed once its tests have run. */
const made: string[] = []
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A new temporary folder, removed after the test file's tests. */
export const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'gssc-session-test-'))
  made.push(dir)
  return dir
}

/** Writes lines (newline-terminated) to a new temporary file and returns its path. */
export const writeSession = (name: string, lines: ReadonlyArray<string>): string => {
  const file = join(tempDir(), name)
  writeFileSync(file, lines.join('\n') + '\n')
  return file
}
