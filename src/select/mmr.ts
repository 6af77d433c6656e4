/**
 * Maximal marginal relevance: re-ranks candidates so each pick balances its own score
 * against its similarity to what was already taken: λ·score − (1 − λ)·max-similarity.
 * Similarity is the Jaccard overlap of keyword sets, or the caller's (the cosine of the
 * build's embeddings, when it has them).
 *
 * The order is produced lazily, one pick at a time, and only packets actually taken count as
 * "already selected". The selector stops asking once the budget is full, so the cost is
 * O(taken × candidates), not O(candidates²).
 *
 * @module
 */
import type { KeywordExtractor } from './keywords.js'

/** A lazily ranked candidate list. */
export interface Ranking<A> {
  /** The best remaining candidate, or undefined when none is left. */
  readonly next: () => A | undefined
  /** Records that the last candidate returned by `next` was taken. */
  readonly taken: (a: A) => void
}

/**
 * A plain ranking over an already sorted list.
 *
 * @category constructors
 */
export const sorted = <A>(items: ReadonlyArray<A>): Ranking<A> => {
  let i = 0
  return { next: () => items[i++], taken: () => undefined }
}

/**
 * Jaccard similarity of two keyword sets.
 *
 * @category utils
 */
export const jaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  if (a.size === 0 && b.size === 0) return 0
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  let both = 0
  for (const k of small) if (large.has(k)) both++
  return both / (a.size + b.size - both)
}

/**
 * An MMR ranking. `score` is the candidate's relevance-based score; `text` its content.
 *
 * @example
 * const r = mmr(candidates, { lambda: 0.7, score: (c) => c.score, text: (c) => c.content, extract })
 * @category constructors
 * @since 0.1.0
 */
export const mmr = <A>(
  items: ReadonlyArray<A>,
  options: {
    readonly lambda: number
    readonly score: (a: A) => number
    readonly text: (a: A) => string
    readonly extract: KeywordExtractor
    /** Similarity of two candidates (embeddings' cosine); where it says undefined, keyword Jaccard decides. */
    readonly similarity?: (a: A, b: A) => number | undefined
  },
): Ranking<A> => {
  const pool = items.map((item) => ({ item, keys: undefined as ReadonlySet<string> | undefined, maxSim: 0, used: false }))
  const keysOf = (e: (typeof pool)[number]): ReadonlySet<string> => (e.keys ??= options.extract(options.text(e.item)))
  return {
    next: () => {
      let best: (typeof pool)[number] | undefined
      let bestValue = Number.NEGATIVE_INFINITY
      for (const e of pool) {
        if (e.used) continue
        const value = options.lambda * options.score(e.item) - (1 - options.lambda) * e.maxSim
        if (value > bestValue) {
          best = e
          bestValue = value
        }
      }
      if (best === undefined) return undefined
      best.used = true
      return best.item
    },
    taken: (a) => {
      const chosen = pool.find((e) => e.item === a)
      if (chosen === undefined) return
      for (const e of pool) if (!e.used) e.maxSim = Math.max(e.maxSim, options.similarity?.(a, e.item) ?? jaccard(keysOf(chosen), keysOf(e)))
    },
  }
}
