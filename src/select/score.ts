/**
 * Scorers: relevance (keyword overlap with the query), recency (exponential decay) and their
 * weighted composite, as in the seed. Each is a plain function of a packet.
 *
 * @module
 */
import type { Packet } from '../packet.js'
import { keywordSearch } from './keywordSearch.js'
import { isUnspaced, keywordExtractor, wordCounter, type KeywordExtractor } from './keywords.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Scores a packet; `undefined` means "cannot judge" (e.g. a query without keywords). */
export type Scorer = (packet: Packet) => number | undefined

/** A packet's scores, as the report shows them. */
export interface Scores {
  /** Keyword overlap in [0, 1], the source's own score, or undefined when not computed. */
  readonly relevance: number | undefined
  /** e^(−Δt/τ) in (0, 1]. */
  readonly recency: number
  /** relevanceWeight × relevance + recencyWeight × recency (relevance 0 when undefined). */
  readonly composite: number
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Relevance as the seed defines it: the share of the query's keywords found in the packet.
 * Keywords of unspaced scripts (Chinese, Japanese, Thai…) are matched as substrings of the
 * content, the others as whole words. A packet that carries its own `relevance` (a
 * retriever's score) keeps it: a semantic hit may share no keyword with the query.
 *
 * @example
 * relevance('Why does the build fail?')(packet({ type: 'evidence', content: 'The build fails on Mondays' }, 0)) // 0.5
 * @category constructors
 * @since 0.1.0
 */
export const relevance = (query: string, extract: KeywordExtractor = keywordExtractor()): Scorer => {
  const keys = [...extract(query)]
  if (keys.length === 0) return (p) => p.relevance
  const unspaced = keys.filter(isUnspaced)
  const spaced = new Set(keys.filter((k) => !isUnspaced(k)))
  // one counter per scorer: it memoizes stems across the packets of a build; keywords are
  // searched for, unless one is too short for its prefix to rule much out
  const countSpaced = keywordSearch(spaced) ?? wordCounter(spaced)
  return (p) => {
    if (p.relevance !== undefined) return p.relevance
    const lower = p.content.toLowerCase()
    let hits = 0
    for (const k of unspaced) if (lower.includes(k)) hits++
    if (spaced.size > 0) hits += countSpaced(lower)
    return hits / keys.length
  }
}

/**
 * Recency: e^(−Δt/τ), Δt in seconds between the build's clock and the packet's timestamp
 * (future timestamps count as now).
 *
 * @category constructors
 * @since 0.1.0
 */
export const recency =
  (now: number, tauSeconds: number): ((p: Packet) => number) =>
  (p) =>
    Math.exp(-Math.max(0, now - p.timestamp) / 1000 / tauSeconds)

/**
 * The seed's composite: `relevanceWeight × relevance + recencyWeight × recency`.
 *
 * @category constructors
 * @since 0.1.0
 */
export const compositeScore = (
  relevanceWeight: number,
  recencyWeight: number,
): ((relevance: number | undefined, recency: number) => number) =>
  (rel, rec) => relevanceWeight * (rel ?? 0) + recencyWeight * rec
