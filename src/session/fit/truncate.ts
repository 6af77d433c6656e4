/**
 * The seed's first strategy: keep the most recent turns that fit, drop the rest.
 *
 * The kept turns are one contiguous window ending at the newest turn (a conversation with
 * holes reads wrongly), built from whole units, so a tool call is never split from its
 * result and the window never starts on a tool result. System turns are pinned first. The
 * fitting itself is the engine's (`windowPolicy`, see `./layout.ts`).
 *
 * @module
 */
import * as TE from 'fp-ts/lib/TaskEither.js'
import { windowPolicy } from '../../compress/policy.js'
import type { HistoryItem } from '../items.js'
import { droppedItems, planHistory, type DroppedUnit, type HistoryPlan } from './layout.js'
import { tokensOf, type FitOptions, type FitStrategy, type FittedHistory } from './model.js'
import { itemsOf, type Unit } from './units.js'

/** Options of {@link truncateHistory}. */
export interface TruncateOptions extends FitOptions {
  /** At most this many turns in the window (system turns not counted), as the seed's `keepRecentCount`. */
  readonly keepRecentCount?: number
}

/**
 * Splits a history for a budget through the fitting engine ({@link windowPolicy}): pinned
 * system turns (while they fit), then the newest units that fit in what is left, within
 * `keepRecentCount` turns. Linear in the history.
 *
 * @category utils
 */
export const planWindow = (items: ReadonlyArray<HistoryItem>, budget: number, keepRecentCount = Infinity, pinSystem = true, firstTurn: 'user' | 'any' = 'any'): HistoryPlan =>
  planHistory(items, { budget, policy: windowPolicy, keepRecentCount, pinSystem, firstTurn })

/**
 * A fitted history of some kept units, with nothing summarized.
 *
 * @category utils
 */
export const keptResult = (
  items: ReadonlyArray<HistoryItem>,
  kept: ReadonlyArray<Unit>,
  dropped: ReadonlyArray<DroppedUnit>,
  budget: number,
  strategy: string,
  fallback?: string,
): FittedHistory => {
  const out = itemsOf(items, kept)
  return {
    items: out,
    report: {
      strategy,
      budget,
      tokensBefore: tokensOf(items),
      tokensAfter: tokensOf(out),
      kept: out.map((i) => i.id),
      summarized: [],
      dropped: droppedItems(items, dropped),
      ...(fallback === undefined ? {} : { fallback }),
    },
  }
}

/**
 * The fitted result of a window plan: pinned and recent turns kept, older ones dropped
 * (as `summary_failed` when a summarizer was meant to cover them).
 *
 * @category utils
 */
export const truncatedResult = (items: ReadonlyArray<HistoryItem>, plan: HistoryPlan, budget: number, strategy: string, fallback?: string): FittedHistory =>
  keptResult(
    items,
    plan.kept,
    [...plan.dropped, ...plan.older.map(({ unit, reason }) => ({ unit, reason: fallback === undefined ? reason : ('summary_failed' as const) }))],
    budget,
    strategy,
    fallback,
  )

/**
 * Truncation, synchronously.
 *
 * @example
 * truncateHistorySync({ budget: 2000, keepRecentCount: 50 })(history.items).report.dropped
 * @category constructors
 * @since 0.1.0
 */
export const truncateHistorySync =
  (options: TruncateOptions) =>
  (items: ReadonlyArray<HistoryItem>): FittedHistory =>
    truncatedResult(items, planWindow(items, options.budget, options.keepRecentCount, options.pinSystem, options.firstTurn), options.budget, 'truncate')

/**
 * The truncating strategy (see the module comment). Never fails.
 *
 * @example
 * const fitted = await truncateHistory({ budget: 6800 })(history.items)()
 * @category constructors
 * @since 0.1.0
 */
export const truncateHistory =
  (options: TruncateOptions): FitStrategy =>
  (items) =>
    TE.right(truncateHistorySync(options)(items))
