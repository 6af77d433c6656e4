/**
 * Tokens left unused while an older turn would still have fit, over random builds
 * (`unusedTokensMean` in `npm run bench`).
 *
 * Each build takes a random slice of the generated history (20–400 turns), a random budget
 * (1,000–8,000 tokens) and the whole history eligible, with the default layout. The check is
 * independent of gssc's own estimates: the newest turn the build left out is put back in
 * front of the kept ones, in the build's own final layout, and that document is rendered and
 * counted exactly. If it fits the available budget, the tokens the build left unused were
 * wasted (they are counted); otherwise nothing was.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { build, type Tokenizer } from '../src/index.js'
import { renderText, type Document, type Section } from '../src/structure/document.js'
import { labelsFor } from '../src/structure/labels.js'
import { history, NOW, prng } from './data.js'

/** What the random builds left unused. */
export interface UnusedRow {
  readonly builds: number
  /** Builds where the newest left-out turn would still have fit. */
  readonly leftOutFitting: number
  /** Mean over all builds of the unused tokens of those builds (0 for the others). */
  readonly meanUnused: number
  /** Median unused tokens over the builds that left a fitting turn out (0 when none did). */
  readonly medianUnusedWhenLeftOut: number
  /** Every build's reported count equalled a plain count of its output, within budget. */
  readonly countsExact: boolean
}

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? 0 : s[Math.floor(s.length / 2)]!
}

/**
 * Runs `builds` random builds and checks each one (see the module comment).
 *
 * @category bench
 */
export const unusedTokens = async (tokenizer: Tokenizer, builds: number, seed = 11): Promise<UnusedRow> => {
  const r = prng(seed)
  const all = history(2000, NOW, seed)
  const speaker = labelsFor('en').speaker
  const unused: number[] = []
  const wasted: number[] = []
  let exact = true
  for (let b = 0; b < builds; b++) {
    const length = 20 + Math.floor(r() * 380)
    const from = Math.floor(r() * (all.length - length))
    const turns = all.slice(from, from + length)
    const maxTokens = 1000 + Math.floor(r() * 7000)
    const result = await build({ query: 'What should I try next?', instructions: 'You are the build assistant.', history: turns }, { tokenizer, now: NOW, config: { maxTokens, maxHistoryMessages: Number.POSITIVE_INFINITY } })()
    if (E.isLeft(result)) throw new Error(result.left.message)
    const res = result.right
    const available = res.budget.available
    if (res.tokenCount !== tokenizer.count(res.output) || res.tokenCount > available) exact = false
    const kept = res.included.filter((id) => id.startsWith('history:')).map((id) => Number(id.slice('history:'.length)))
    const oldest = kept.length === 0 ? turns.length : Math.min(...kept)
    if (oldest === 0) {
      unused.push(0)
      continue
    }
    // the newest turn left out, put back in front of the kept ones
    const turn = turns[oldest - 1]!
    const doc = res.doc as Document
    const withTurn: Document = {
      ...doc,
      blocks: doc.blocks.map((blk) =>
        blk._tag === 'Section' && blk.name === 'context'
          ? ({ ...blk, items: [{ packetId: `history:${oldest - 1}`, prefix: speaker(turn.role), text: turn.content as string, tokens: tokenizer.count(turn.content as string) }, ...blk.items] } satisfies Section)
          : blk,
      ),
    }
    const fits = tokenizer.count(renderText(withTurn)) <= available
    const left = fits ? available - res.tokenCount : 0
    unused.push(left)
    if (fits) wasted.push(left)
  }
  return {
    builds,
    leftOutFitting: wasted.length,
    meanUnused: unused.reduce((a, x) => a + x, 0) / Math.max(1, unused.length),
    medianUnusedWhenLeftOut: median(wasted),
    countsExact: exact,
  }
}
