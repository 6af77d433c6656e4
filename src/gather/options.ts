/**
 * Checks the options a build starts from (the ones `makeConfig` does not cover), so a wrong
 * clock, tokenizer or time limit is an error naming the option, not a `NaN` recency or a
 * `TypeError` halfway through the build.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { configError, describeThrown, type ConfigError } from '../error.js'
import { isRecord } from '../messageProblem.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'

/** The options checked here (a subset of `GatherOptions`). */
export interface RunOptions {
  readonly tokenizer?: Tokenizer
  readonly now?: number | (() => number)
  readonly timeoutMs?: number
  readonly parallel?: boolean
  readonly onError?: 'continue' | 'fail'
}

const isTokenizer = (t: unknown): t is Tokenizer =>
  isRecord(t) && typeof t['count'] === 'function' && typeof t['lowerBound'] === 'function' && typeof t['prefixEnd'] === 'function' && typeof t['name'] === 'string'

/**
 * The build's clock, after checking every option; a `ConfigError` naming the first bad one.
 *
 * @category utils
 * @since 0.1.0
 */
export const checkRunOptions = (options: RunOptions): E.Either<ConfigError, number> => {
  if (options.tokenizer !== undefined && !isTokenizer(options.tokenizer))
    return E.left(configError('tokenizer', options.tokenizer, 'must be a tokenizer (make one with createTokenizer)'))
  const t = options.timeoutMs
  if (t !== undefined && !(typeof t === 'number' && t > 0 && t <= 2 ** 31 - 1))
    return E.left(configError('timeoutMs', t, 'must be a number of milliseconds in (0, 2147483647]'))
  if (options.parallel !== undefined && typeof options.parallel !== 'boolean') return E.left(configError('parallel', options.parallel, 'must be true or false'))
  if (options.onError !== undefined && options.onError !== 'continue' && options.onError !== 'fail')
    return E.left(configError('onError', options.onError, 'must be "continue" or "fail"'))
  let now: unknown
  try {
    now = typeof options.now === 'function' ? options.now() : (options.now ?? Date.now())
  } catch (e) {
    return E.left(configError('now', options.now, `the clock failed: ${describeThrown(e)}`))
  }
  return typeof now === 'number' && Number.isFinite(now) ? E.right(now) : E.left(configError('now', now, 'must be epoch milliseconds (a finite number)'))
}
