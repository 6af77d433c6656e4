/**
 * A bounded token-count cache shared across builds, so a rebuild after one new message only
 * tokenizes that message. It is a value the caller creates and passes in; gssc keeps no
 * module-level state.
 *
 * Two generations of Maps instead of an LRU list: on Node 20 a Map move-to-end costs more
 * as the Map grows (see the perf baselines), while this costs O(1) per operation and keeps
 * at most `maxEntries` counts.
 *
 * @module
 */
import { contentId } from '../packet.js'
import type { Tokenizer } from './tokenizer.js'

/** A bounded memo of token counts keyed by encoding and content hash. */
export interface TokenCache {
  readonly get: (key: string) => number | undefined
  readonly set: (key: string, tokens: number) => void
  readonly size: () => number
}

/**
 * @example
 * const cache = createTokenCache()
 * build(input, { cache }) // later builds reuse the counts
 * @category constructors
 * @since 0.1.0
 */
export const createTokenCache = (maxEntries = 200_000): TokenCache => {
  const half = Math.max(1, Math.floor(maxEntries / 2))
  let young = new Map<string, number>()
  let old = new Map<string, number>()
  const set = (key: string, tokens: number): void => {
    if (young.size >= half) {
      old = young
      young = new Map()
    }
    young.set(key, tokens)
  }
  return {
    get: (key) => {
      const hit = young.get(key)
      if (hit !== undefined) return hit
      const aged = old.get(key)
      if (aged !== undefined) set(key, aged)
      return aged
    },
    set,
    size: () => young.size + old.size,
  }
}

/**
 * The cache key of a text under a tokenizer: encoding, length and a 53-bit hash.
 *
 * @category utils
 */
export const cacheKey = (tokenizer: Tokenizer, text: string): string =>
  `${tokenizer.name}:${text.length}:${contentId(text)}`

/**
 * A count function that goes through a cache when one is given: a hit is returned as is, a
 * miss is counted with `count` and stored. `onHit` lets a caller keep statistics.
 *
 * @example
 * const count = cachedCount(tokenizer, cache)
 * count('hello') // tokenized once; later builds sharing `cache` find it
 * @category utils
 */
export const cachedCount = (
  tokenizer: Tokenizer,
  cache: TokenCache | undefined,
  count: (text: string) => number = tokenizer.count,
  onHit: () => void = () => undefined,
): ((text: string) => number) =>
  cache === undefined
    ? count
    : (text) => {
        if (text.length === 0) return 0
        const key = cacheKey(tokenizer, text)
        const hit = cache.get(key)
        if (hit !== undefined) {
          onHit()
          return hit
        }
        const tokens = count(text)
        cache.set(key, tokens)
        return tokens
      }
