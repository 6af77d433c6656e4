/** Shared test values: the real tokenizer, a fixed clock, and Either unwrapping. */
import * as E from 'fp-ts/lib/Either.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { createTokenizer } from '../src/tokenize/tokenizer.js'

export const right = <A>(e: E.Either<unknown, A>): A => {
  if (E.isLeft(e)) throw new Error(`expected Right, got Left: ${JSON.stringify(e.left)}`)
  return e.right
}

export const left = <L>(e: E.Either<L, unknown>): L => {
  if (E.isRight(e)) throw new Error(`expected Left, got Right`)
  return e.left
}

export const run = async <A>(te: TE.TaskEither<unknown, A>): Promise<A> => right(await te())

/** The tokenizer of the GPT-4o family, as users get it. */
export const gpt4o = right(createTokenizer('gpt-4o'))

/** A fixed clock: 2026-01-01T12:00:00Z. */
export const NOW = Date.parse('2026-01-01T12:00:00Z')

export const MINUTE = 60_000

/** A new temporary folder (`prefix` names it), removed once the test that asked for it has finished. */
export const scratchDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
