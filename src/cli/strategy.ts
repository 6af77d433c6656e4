/**
 * `gssc build --strategy` / `--keep-recent`: the history strategies' part of a build, in a
 * module of its own so that `gssc build` loads it only when one of those flags is given.
 *
 * @module
 */
import type { BuildOptions } from '../pipeline.js'
import { layoutAware } from '../select/layoutAware.js'
import { historyCompressor } from '../session/compressor.js'
import { historyStrategy } from '../session/fit/strategy.js'
import type { Structurer } from '../structure/structurer.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'

export { strategyName } from '../session/fit/strategy.js'

/**
 * Selection lets every turn through; the chosen strategy fits the history as the compressor.
 *
 * @category constructors
 */
export const strategyOptions = (
  structurer: Structurer,
  tokenizer: Tokenizer,
  name: 'truncate' | 'compress' | 'smart',
  keepRecentCount: number | undefined,
): Pick<BuildOptions<unknown>, 'selector' | 'compressor'> => ({
  selector: layoutAware(structurer, { history: 'all' }),
  compressor: historyCompressor((budget) => historyStrategy(name, { budget, tokenizer, ...(keepRecentCount === undefined ? {} : { keepRecentCount }) }), undefined, { summarizes: name !== 'truncate' }),
})
