/**
 * The truncating compressor (the seed's TruncateCompressor, on structure instead of text):
 * the engine's `rank` order with halving and cuts ({@link truncatePolicy}).
 *
 * Sections are visited from the highest rank down: in the default layout Notes, Context,
 * Evidence, State, Output, Task, and Role & Policies last. While the document is over budget,
 * the visited section loses what is needed — whole items from its cheap end, then a cut at a
 * line or sentence boundary with a visible marker — as long as at least half of it stays
 * (the seed's "halve it"); when more than half would have to go, the whole section is dropped
 * (the seed's "then drop it") and the next one is visited. The last section (P0) is never
 * dropped while any of it can fit: it is cut to fit instead.
 *
 * The seed halves a section even when a few tokens would do; this cuts only what is needed.
 *
 * @module
 */
import type { Compressor } from './compressor.js'
import { trim } from './engine.js'
import { truncatePolicy } from './policy.js'

/**
 * @example
 * pipe(structured, compress(truncate()))
 * @category constructors
 * @since 0.1.0
 */
export const truncate = (): Compressor =>
  Object.assign((doc: Parameters<Compressor>[0], fit: Parameters<Compressor>[1]) => trim(doc, truncatePolicy, fit), { policy: truncatePolicy })
