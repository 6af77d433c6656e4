/**
 * What `compressHistory` and `smartHistory` share once they have chosen what to keep: summarize the rest,
 * place the summary, and handle a failing summarizer as the caller asked.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { gatherError, type GsscError } from '../../error.js'
import type { Tokenizer } from '../../tokenize/tokenizer.js'
import type { HistoryItem } from '../items.js'
import { extractiveSummarizer } from './extractive.js'
import { droppedItems, type DroppedUnit } from './layout.js'
import { tokensOf, type FitOptions, type FittedHistory, type Summarizer } from './model.js'
import { summarize, summaryItem, type Wrapper } from './summary.js'
import { itemsOf, type Unit } from './units.js'

/** Options of the summarizing strategies. */
export interface SummaryOptions extends FitOptions {
  /** Counts the summary (the only text these strategies count). */
  readonly tokenizer: Tokenizer
  /** Default: {@link extractiveSummarizer} over `tokenizer`. */
  readonly summarizer?: Summarizer
  /** Tokens reserved for the summary turn, wrapper included. Default min(1000, budget / 4). */
  readonly summaryTokens?: number
  /**
   * When the summarizer fails (or returns nothing usable): `drop` the turns it should have
   * covered and report why in `report.fallback` (default), or `fail` the build with a
   * `GatherError`.
   */
  readonly onSummarizerError?: 'drop' | 'fail'
}

/** The summary's allowance for a budget. */
export const allowanceOf = (options: SummaryOptions): number =>
  Math.max(0, Math.min(options.budget, options.summaryTokens ?? Math.min(1000, Math.floor(options.budget / 4))))

/** What a summarizing strategy decided. */
export interface SummaryPlan {
  readonly kept: ReadonlyArray<Unit>
  readonly summarized: ReadonlyArray<Unit>
  readonly dropped: ReadonlyArray<DroppedUnit>
}

/**
 * Runs the summarizer over the `summarized` units and returns the kept items with the
 * summary placed where the first summarized unit was (so order stays chronological).
 * `fallback` gives the result without a summary when the summarizer fails.
 *
 * @category utils
 */
export const fitWithSummary =
  (
    items: ReadonlyArray<HistoryItem>,
    plan: SummaryPlan,
    options: SummaryOptions,
    strategy: string,
    wrapper: Wrapper,
    fallback: (reason: string) => FittedHistory,
  ): TE.TaskEither<GsscError, FittedHistory> =>
  async () => {
    const covered = itemsOf(items, plan.summarized)
    const allowance = allowanceOf(options)
    const target = allowance - options.tokenizer.count(wrapper.prefix + wrapper.suffix)
    const summarizer = options.summarizer ?? extractiveSummarizer(options.tokenizer)
    const text = target > 0 ? await summarize(summarizer, covered.map((i) => i.message), target) : E.left(`no room for a summary (allowance ${allowance} tokens)`)
    const made = E.isRight(text) && text.right.trim() !== '' ? summaryItem(text.right.trim(), covered, allowance, wrapper, options.tokenizer) : undefined
    if (made === undefined) {
      const reason = E.isLeft(text) ? `summarizer failed: ${text.left}` : text.right.trim() === '' ? 'summarizer returned an empty summary' : 'the summary does not fit its allowance'
      return options.onSummarizerError === 'fail' ? E.left(gatherError('history summarizer', reason)) : E.right(fallback(reason))
    }
    const kept = [...plan.kept].sort((a, b) => a.start - b.start)
    const firstCovered = Math.min(...plan.summarized.map((u) => u.start))
    const before = kept.filter((u) => u.start < firstCovered)
    const after = kept.filter((u) => u.start > firstCovered)
    const out = [...itemsOf(items, before), made.item, ...itemsOf(items, after)]
    const index = itemsOf(items, before).length
    return E.right({
      items: out,
      report: {
        strategy,
        budget: options.budget,
        tokensBefore: tokensOf(items),
        tokensAfter: tokensOf(out),
        kept: out.filter((i) => i !== made.item).map((i) => i.id),
        summarized: covered.map((i) => i.id),
        dropped: droppedItems(items, plan.dropped),
        summary: { id: made.item.id, tokens: made.item.tokens, index, truncated: made.truncated },
      },
    })
  }
