/**
 * The compressor contract: a stage body that makes a document fit. The built-in compressors
 * are fitting policies run by the engine (`./engine.ts`); a compressor of your own may do
 * anything to the document, and the engine's exact guard makes the result fit either way.
 *
 * @module
 */
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { GsscError } from '../error.js'
import type { Document } from '../structure/document.js'
import type { FitContext } from './engine.js'
import type { FitPolicy } from './policy.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What a compressor may use: the engine's context (budget, meter, exact measure, item cost). */
export type Fit = FitContext

/**
 * Makes a document fit its budget by working on sections and items, never on rendered text.
 * A compressor may return a document that is still too large: the compress stage verifies
 * with an exact count and finishes the job by dropping whole items, lowest rank first.
 */
export interface Compressor {
  /**
   * A synchronous compressor returns the document; one that needs I/O (a summarizer call)
   * returns a `TaskEither`, so its failures stay values.
   */
  (doc: Document, fit: Fit): Document | TE.TaskEither<GsscError, Document>
  /** False for compressors that never cut inside an item; the budget guard then drops whole items. */
  readonly cutsText?: boolean
  /** The policy the engine's exact guard gives way by after this compressor; default the seed's truncation. */
  readonly policy?: FitPolicy
  /**
   * True for compressors that summarize the history turns the budget leaves out (a
   * `historyCompressor` with `compress` or `smart`): `build` then reads every turn, where it
   * otherwise reads back only as far as turns can fit.
   */
  readonly summarizes?: boolean
}

/**
 * Runs any compressor as a `TaskEither`.
 *
 * @category utils
 */
export const runCompressor = (c: Compressor, doc: Document, fit: Fit): TE.TaskEither<GsscError, Document> => {
  const r = c(doc, fit)
  return typeof r === 'function' ? r : TE.right(r)
}
