/**
 * The session benchmark `npm run bench` can call: a cold build of a generated session
 * against a rebuild after one appended message.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { appendFile, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { buildSession, type SessionBuild } from './build.js'
import { rebuildSession } from './incremental.js'
import { syntheticPiSession, syntheticUserLine } from './synthetic.js'

/** Figures of one run. Times are wall-clock milliseconds. */
export interface SessionBenchResult {
  readonly messages: number
  readonly bytes: number
  /** Load + rebuild + convert + count, from nothing. */
  readonly coldMs: number
  /** Rebuild after appending one message to the file. */
  readonly appendMs: number
  /** Rebuild when nothing changed (one stat). */
  readonly unchangedMs: number
  readonly cold: SessionBuild['stats']
  readonly append: SessionBuild['stats']
  readonly historyItems: number
  readonly historyTokens: number
}

const ms = async <A>(f: () => Promise<A>): Promise<readonly [A, number]> => {
  const t0 = performance.now()
  const a = await f()
  return [a, performance.now() - t0] as const
}

const right = <A>(e: E.Either<{ readonly message: string }, A>): A => {
  if (E.isLeft(e)) throw new Error(e.left.message)
  return e.right
}

/**
 * Writes a generated pi v3 session of `messages` messages to a temporary file, builds it
 * cold, appends one user message and rebuilds it incrementally, then rebuilds it unchanged.
 * The tokenizer is warmed first, so its rank tables do not count as build time.
 *
 * @example
 * const r = await sessionBenchmark({ messages: 10_000, tokenizer })
 * console.log(`cold ${r.coldMs.toFixed(1)} ms, +1 message ${r.appendMs.toFixed(2)} ms`)
 * @category utils
 * @since 0.1.0
 */
export const sessionBenchmark = async (options: { readonly messages?: number; readonly tokenizer: Tokenizer }): Promise<SessionBenchResult> => {
  const messages = options.messages ?? 10_000
  const { tokenizer } = options
  tokenizer.count('warm up the rank tables')
  const dir = await mkdtemp(join(tmpdir(), 'gssc-session-bench-'))
  const file = join(dir, 'session.jsonl')
  try {
    await writeFile(file, syntheticPiSession({ messages }).join('\n') + '\n')
    const [cold, coldMs] = await ms(async () => right(await buildSession(file, { tokenizer })()))
    await appendFile(file, syntheticUserLine(messages, 'And now run the whole test suite again, please.') + '\n')
    const [append, appendMs] = await ms(async () => right(await rebuildSession(file, { tokenizer }, cold)()))
    const [, unchangedMs] = await ms(async () => right(await rebuildSession(file, { tokenizer }, append)()))
    return {
      messages,
      bytes: (await stat(file)).size,
      coldMs,
      appendMs,
      unchangedMs,
      cold: cold.stats,
      append: append.stats,
      historyItems: append.history.items.length,
      historyTokens: append.history.items.reduce((n, i) => n + i.tokens, 0),
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
