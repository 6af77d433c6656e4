/**
 * Working memory for tokenizing one pre-tokenized piece. An engine reuses one between pieces;
 * nothing in it outlives the call that fills it.
 *
 * @module
 */

/** Typed arrays sized for pieces of up to `capacity` bytes. */
export interface Scratch {
  readonly capacity: number
  /** The piece's UTF-8 bytes. */
  readonly bytes: Uint8Array
  /** Prefix hashes of `bytes` (see `prefixHashes`). */
  readonly hash: Int32Array
  /** UTF-16 offset of the code point starting at each byte, −1 inside one. */
  readonly units: Int32Array
  /** Output of a merge: token k covers bytes `[pos[k], pos[k + 1])`. */
  readonly pos: Int32Array
  /** Output of a merge, when asked for: token k's rank. */
  readonly ranks: Int32Array
  // Merge state: per part (by index or by start byte), and the heap of candidate pairs.
  readonly next: Int32Array
  readonly prev: Int32Array
  readonly pairRank: Int32Array
  readonly heap: Float64Array
}

/**
 * Allocates scratch space for pieces of up to `capacity` bytes.
 *
 * @category constructors
 */
export const scratch = (capacity: number): Scratch => ({
  capacity,
  bytes: new Uint8Array(capacity),
  hash: new Int32Array(capacity + 1),
  units: new Int32Array(capacity + 1),
  pos: new Int32Array(capacity + 1),
  ranks: new Int32Array(capacity),
  next: new Int32Array(capacity + 1),
  prev: new Int32Array(capacity + 1),
  pairRank: new Int32Array(capacity + 1),
  heap: new Float64Array(capacity * 2),
})
