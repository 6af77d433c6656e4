/**
 * Tokens (`gssc/tokenize`): exact o200k / cl100k counters (the fastest exact BPE in
 * JavaScript, ids identical to js-tiktoken's), the chars/4 estimator, safe lower bounds, a
 * shared count cache, and the per-build meter. Rank tables load as modules, lazily
 * (`loadEncoding`), so this entry runs in browsers and edge runtimes.
 *
 * @module
 */
export * from './tokenizer.js'
export { loadEncoding, isLoaded, type Ranks } from './ranks.js'
export { createTokenCache, cacheKey, cachedCount, type TokenCache } from './cache.js'
export { meter, type Meter, type MeterStats } from './meter.js'
export type { Edges, Join } from './wordEdges.js'
export { prefixEndWindowed, windowFor } from './prefix.js'
export type { Bpe, CountedEnds, EncodingName } from './bpe.js'
export * from './calibrate.js'
export * from './openWeights.js'
