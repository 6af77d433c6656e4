/**
 * Placeholder: the fast engine is being written; until then it is the reference engine.
 *
 * @module
 */
import { loadRanks, referenceBpe, type Bpe, type EncodingName } from './bpe.js'

/** @category constructors */
export const fastBpe = (encoding: EncodingName): Bpe => referenceBpe(encoding, loadRanks(encoding))
