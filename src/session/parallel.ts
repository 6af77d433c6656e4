/**
 * Building several sessions at once, with a bound on how many files are open together.
 *
 * @module
 */
import type * as E from 'fp-ts/lib/Either.js'
import type * as T from 'fp-ts/lib/Task.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { InputError } from '../error.js'
import { buildSession, type SessionBuild, type SessionBuildOptions } from './build.js'

/** One session to build. */
export interface SessionRequest {
  readonly file: string
  readonly leaf?: string | null
}

/**
 * Runs tasks with at most `limit` in flight; results keep the input order.
 *
 * @category utils
 */
export const mapLimit =
  <A, B>(limit: number, f: (a: A) => T.Task<B>) =>
  (as: ReadonlyArray<A>): T.Task<ReadonlyArray<B>> =>
  async () => {
    const out: B[] = new Array<B>(as.length)
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < as.length) {
        const i = next++
        out[i] = await f(as[i]!)()
      }
    }
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, as.length)) }, worker))
    return out
  }

/**
 * Builds several sessions in parallel, `concurrency` at a time (default 4). Each result is
 * its own Either: one unreadable file does not fail the others. Pass `build` to go through
 * a cache (`createSessionCache(...).build`).
 *
 * @example
 * const results = await buildSessions([{ file: 'a.jsonl' }, { file: 'b.jsonl', leaf: 'a0000009' }], { tokenizer })()
 * @category constructors
 * @since 0.1.0
 */
export const buildSessions = (
  requests: ReadonlyArray<SessionRequest>,
  options: Omit<SessionBuildOptions, 'leaf'>,
  concurrency = 4,
  build: (file: string, options: SessionBuildOptions) => TE.TaskEither<InputError, SessionBuild> = buildSession,
): T.Task<ReadonlyArray<E.Either<InputError, SessionBuild>>> =>
  mapLimit(concurrency, (r: SessionRequest) => build(r.file, { ...options, ...(r.leaf === undefined ? {} : { leaf: r.leaf }) }))(requests)
