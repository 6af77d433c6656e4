/**
 * Choosing a fitting strategy by name, as `gssc build --strategy truncate|compress|smart` does.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { match } from 'ts-pattern'
import { inputError, type InputError } from '../../error.js'
import { compressHistory, type CompressOptions } from './compress.js'
import type { FitStrategy } from './model.js'
import { smartHistory, type SmartOptions } from './smart.js'
import { truncateHistory } from './truncate.js'

/** The seed's three strategies. */
export type StrategyName = 'truncate' | 'compress' | 'smart'

/** All strategy names. */
export const STRATEGY_NAMES: ReadonlyArray<StrategyName> = ['truncate', 'compress', 'smart']

/** Options any of the three accepts (each ignores what it does not use). */
export type StrategyOptions = CompressOptions & SmartOptions

/**
 * The strategy of a name.
 *
 * @example
 * const fit = historyStrategy('smart', { budget: 6800, tokenizer })
 * const fitted = await fit(history.items)()
 * @category constructors
 * @since 0.1.0
 */
export const historyStrategy = (name: StrategyName, options: StrategyOptions): FitStrategy =>
  match(name)
    .with('truncate', () => truncateHistory(options))
    .with('compress', () => compressHistory(options))
    .with('smart', () => smartHistory(options))
    .exhaustive()

/**
 * Reads a strategy name given by a user, naming the input when it is not one.
 *
 * @example
 * strategyName('smart', '--strategy')   // Right('smart')
 * strategyName('smrt', '--strategy')    // Left(--strategy: unknown strategy "smrt"; use truncate, compress or smart)
 * @category constructors
 * @since 0.1.0
 */
export const strategyName = (value: string, input = 'strategy'): E.Either<InputError, StrategyName> =>
  (STRATEGY_NAMES as ReadonlyArray<string>).includes(value)
    ? E.right(value as StrategyName)
    : E.left(inputError(input, `unknown strategy ${JSON.stringify(value)}; use truncate, compress or smart`))
