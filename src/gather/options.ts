/**
 * Checks the options a build starts from (the ones `makeConfig` does not cover), so a wrong
 * clock, tokenizer or time limit is an error naming the option, not a `NaN` recency or a
 * `TypeError` halfway through the build.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { configError, describeThrown, show, type ConfigError } from '../error.js'
import { isRecord } from '../messageProblem.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'

/** The options checked here (of `GatherOptions`, and `BuildOptions` when a build passes them). */
export interface RunOptions {
  readonly tokenizer?: Tokenizer
  readonly now?: number | (() => number)
  readonly timeoutMs?: number
  readonly parallel?: boolean
  readonly onError?: 'continue' | 'fail'
}

/** The stages and sources a build may be given: each must be a function (or a renderer record). */
const STAGES = ['selector', 'structurer', 'compressor'] as const

/** What is wrong with the stage options of a build, if anything. */
const stageProblem = (o: Readonly<Record<string, unknown>>): ConfigError | undefined => {
  for (const name of STAGES)
    if (o[name] !== undefined && typeof o[name] !== 'function')
      return configError(name, o[name], `must be a function (a ${name} value such as ${name === 'structurer' ? 'sectioned(); unwrap an Either such as template(…) first' : `${name === 'selector' ? 'defaultSelector' : 'truncate'}()`})`)
  const r = o['renderer']
  if (r !== undefined && !(isRecord(r) && typeof r['render'] === 'function' && typeof r['count'] === 'function'))
    return configError('renderer', r, 'must be a renderer such as textRenderer, openaiRenderer() or anthropicRenderer()')
  const g = o['gatherers']
  if (g !== undefined && !Array.isArray(g)) return configError('gatherers', g, 'must be an array of gatherers')
  const memory = o['memory']
  if (memory !== undefined && !(isRecord(memory) && typeof memory['search'] === 'function'))
    return configError('memory', memory, 'must be { search: (query, limit, signal) => Promise<results>, limit? }')
  const rag = o['rag']
  if (rag !== undefined && !(isRecord(rag) && typeof rag['retrieve'] === 'function'))
    return configError('rag', rag, 'must be { retrieve: (query, topK, signal) => Promise<results>, topK? }')
  return undefined
}

/**
 * Whether a value has a tokenizer's shape (what the `tokenizer` option must be).
 *
 * @category utils
 */
export const isTokenizer = (t: unknown): t is Tokenizer =>
  isRecord(t) && typeof t['count'] === 'function' && typeof t['lowerBound'] === 'function' && typeof t['prefixEnd'] === 'function' && typeof t['name'] === 'string'

/**
 * The build's clock, after checking every option; a `ConfigError` naming the first bad one.
 *
 * @category utils
 * @since 0.1.0
 */
export const checkRunOptions = (options: RunOptions): E.Either<ConfigError, number> => {
  if (!isRecord(options)) return E.left({ _tag: 'ConfigError', field: '', value: options, message: `options: must be an object (got ${show(options)})` })
  const stage = stageProblem(options)
  if (stage !== undefined) return E.left(stage)
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
