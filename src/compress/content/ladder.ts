/**
 * The search every content compressor shares: a ladder of renderings, from the gentlest
 * (keeps most) to the harshest, and a binary search for the gentlest one that fits.
 *
 * Each rung is rendered and counted at most once; a rung whose cheap lower bound already
 * exceeds the target is not counted at all. Rungs are meant to shrink as they go, but the
 * answer never relies on it: the rung returned is the one that was counted and fits.
 *
 * @module
 */
import type { Tokenizer } from '../../tokenize/tokenizer.js'
import { declined, fitted, type ContentResult, type Removal } from './model.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One rung's rendering: the text and what it left out. */
export interface Rendering {
  readonly text: string
  readonly removed: ReadonlyArray<Removal>
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * The gentlest of `rungs` renderings (0 = gentlest) that counts at most `target` tokens,
 * found by binary search; `Declined` when even the harshest does not fit.
 *
 * @example
 * fitLadder(3, (i) => ({ text: ['abc def', 'abc', 'a'][i]!, removed: [] }), 1, tokenizer)
 * @category utils
 * @since 0.1.0
 */
export const fitLadder = (
  rungs: number,
  render: (rung: number) => Rendering,
  target: number,
  counter: Tokenizer,
): ContentResult => {
  const seen = new Map<number, { readonly rendering: Rendering; readonly tokens: number | undefined }>()
  const measure = (rung: number): { readonly rendering: Rendering; readonly tokens: number | undefined } => {
    const known = seen.get(rung)
    if (known !== undefined) return known
    const rendering = render(rung)
    // undefined: cannot fit, proved without tokenizing
    const tokens = counter.lowerBound(rendering.text) > target ? undefined : counter.count(rendering.text)
    const entry = { rendering, tokens }
    seen.set(rung, entry)
    return entry
  }
  const fits = (rung: number): boolean => {
    const t = measure(rung).tokens
    return t !== undefined && t <= target
  }
  let lo = 0
  let hi = rungs - 1
  if (rungs <= 0 || !fits(hi)) return declined(`even the harshest of ${rungs} renderings exceeds ${target} tokens`)
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (fits(mid)) hi = mid
    else lo = mid + 1
  }
  const best = measure(hi)
  return fitted(best.rendering.text, best.tokens!, best.rendering.removed)
}
