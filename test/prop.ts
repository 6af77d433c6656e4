/**
 * How every fast-check property runs.
 *
 * `npm test`: a fixed seed, so every run gives the same answer; fast-check prints the seed
 * and the counterexample's path with any failure. `npm run test:deep` (`scripts/test-deep.mjs`)
 * sets `GSSC_DEEP=1` and a fresh `GSSC_SEED`, prints the seed, and every property runs at
 * least `deep` cases (10,000 unless a property asks for more). Replay a deep failure with
 * `GSSC_SEED=<seed> npm run test:deep`.
 */

import fc from 'fast-check'

/** The seed `npm test` always uses. */
export const FIXED_SEED = 20_261_124

/** True in `npm run test:deep`. */
export const DEEP = process.env['GSSC_DEEP'] === '1'

const given = process.env['GSSC_SEED']

/** The seed of this run. */
export const SEED = given === undefined || given === '' ? FIXED_SEED : Number(given)

if (!Number.isSafeInteger(SEED)) throw new Error(`GSSC_SEED must be an integer (got ${JSON.stringify(given)})`)

/**
 * fast-check options: `runs` cases in `npm test`, at least `deep` in the deep run, always the
 * run's seed.
 *
 * @example
 * fc.assert(fc.property(arb, check), seeded(300))
 */
export const seeded = (runs: number, deep = 10_000): { readonly seed: number; readonly numRuns: number } => ({
  seed: SEED,
  numRuns: DEEP ? Math.max(runs, deep) : runs,
})

/**
 * Text made of pieces that stress BPE joins: words, CJK, emoji, markup, runs of newlines and
 * spaces (`size: 'large'` for long texts).
 *
 * @example
 * fc.property(joinStress(400), (body) => …)
 */
export const joinStress = (maxPieces: number, size?: 'large'): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom('word', 'Word', ' the', ' ', '  ', '\n', '\n\n', '。', '你好', '世界', '😀', '<', '&', '>', '.', '- ', '## ', '\t', '---', '123', "'s"),
        fc.string({ maxLength: 6 }),
      ),
      { maxLength: maxPieces, ...(size === undefined ? {} : { size }) },
    )
    .map((pieces) => pieces.join(''))
