/**
 * The seed's second strategy: summarize the older part, keep the recent part verbatim.
 *
 * The recent window is chosen as {@link truncateHistory} would, with the summary's allowance taken
 * off the budget first; everything before it goes to the summarizer, and the summary turn
 * (a user turn) sits between the pinned system turns and the window, where the turns it
 * covers were. If the summarizer fails, the result is plain truncation with the full budget
 * and `report.fallback` says why (or the build fails, with `onSummarizerError: 'fail'`).
 *
 * @module
 */
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { FitStrategy } from './model.js'
import { allowanceOf, fitWithSummary, type SummaryOptions } from './summarized.js'
import { EARLIER_WRAPPER } from './summary.js'
import { planWindow, truncatedResult } from './truncate.js'

/** Options of {@link compressHistory}. */
export interface CompressOptions extends SummaryOptions {
  /** At most this many recent turns kept verbatim (system turns not counted). */
  readonly keepRecentCount?: number
}

/**
 * The compressing strategy (see the module comment).
 *
 * @example
 * const fitted = await compressHistory({ budget: 6800, tokenizer, keepRecentCount: 20 })(history.items)()
 * // Right({ items: [summary, ...recent], report: { summarized: [...], summary: { tokens: 812, ... } } })
 * @category constructors
 * @since 0.1.0
 */
export const compressHistory =
  (options: CompressOptions): FitStrategy =>
  (items) => {
    const { budget, keepRecentCount, pinSystem, firstTurn } = options
    // the summary is a user turn, so only the plan without it must open on a user turn
    const whole = planWindow(items, budget, keepRecentCount, pinSystem, firstTurn)
    if (whole.older.length === 0) return TE.right(truncatedResult(items, whole, budget, 'compress'))
    const plan = planWindow(items, budget - allowanceOf(options), keepRecentCount, pinSystem)
    return fitWithSummary(
      items,
      { kept: plan.kept, summarized: plan.older.map((o) => o.unit), dropped: plan.dropped },
      options,
      'compress',
      EARLIER_WRAPPER,
      (reason) => truncatedResult(items, whole, budget, 'compress', reason),
    )
  }
