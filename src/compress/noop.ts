/**
 * The no-op compressor: never cuts text. If the selected content does not fit, the engine's
 * exact guard still drops whole units (lowest rank first) so the budget holds.
 *
 * @module
 */
import type { Document } from '../structure/document.js'
import type { Compressor } from './compressor.js'
import { wholeItemsPolicy } from './policy.js'

/**
 * @example
 * pipe(structured, compress(noop()))
 * @category constructors
 * @since 0.1.0
 */
export const noop = (): Compressor => Object.assign((doc: Document) => doc, { cutsText: false, policy: wholeItemsPolicy })
