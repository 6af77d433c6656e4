/**
 * The seed's first strategy: keep the most recent turns that fit, drop the rest.
 *
 * The kept turns are one contiguous window ending at the newest turn (a conversation with
 * holes reads wrongly), built from whole units, so a tool call is never split from its
 * result and the window never starts on a tool result. System turns are pinned first.
 *
 * @module
 */
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { HistoryItem } from '../items.js'
import { tokensOf, type DropReason, type FitOptions, type FitStrategy, type FittedHistory } from './model.js'
import { idsOf, itemsOf, unitsOf, type Unit } from './units.js'

/** Options of {@link truncateHistory}. */
export interface TruncateOptions extends FitOptions {
  /** At most this many turns in the window (system turns not counted), as the seed's `keepRecentCount`. */
  readonly keepRecentCount?: number
}

/** How a history splits into pinned turns, the recent window, and the rest. */
export interface WindowPlan {
  readonly units: ReadonlyArray<Unit>
  readonly pinned: ReadonlyArray<Unit>
  /** The recent window, oldest first. */
  readonly window: ReadonlyArray<Unit>
  /** Units before the window (not pinned, not orphans), oldest first, and why they are out. */
  readonly older: ReadonlyArray<Unit>
  readonly olderReason: DropReason
  /** Units that can never be sent, and pinned units that did not fit. */
  readonly dropped: ReadonlyArray<{ readonly unit: Unit; readonly reason: DropReason }>
}

/**
 * Splits a history for a budget: pinned system turns (while they fit), then the newest
 * units that fit in what is left, within `keepRecentCount` turns. Linear in the history.
 *
 * @category utils
 */
export const planWindow = (items: ReadonlyArray<HistoryItem>, budget: number, keepRecentCount = Infinity, pinSystem = true): WindowPlan => {
  const units = unitsOf(items)
  const pinned: Unit[] = []
  const dropped: Array<{ unit: Unit; reason: DropReason }> = []
  let used = 0
  for (const u of units)
    if (pinSystem && u.system) {
      if (used + u.tokens <= budget) {
        pinned.push(u)
        used += u.tokens
      } else dropped.push({ unit: u, reason: 'over_budget' })
    } else if (u.orphan) dropped.push({ unit: u, reason: 'orphan_result' })
  const window: Unit[] = []
  let count = 0
  let olderReason: DropReason = 'over_budget'
  let k = units.length - 1
  for (; k >= 0; k--) {
    const u = units[k]!
    if (u.orphan || (pinSystem && u.system)) continue
    const size = u.end - u.start
    if (count + size > keepRecentCount) {
      olderReason = 'keep_recent_count'
      break
    }
    if (used + u.tokens > budget) break
    window.push(u)
    used += u.tokens
    count += size
  }
  const older = units.slice(0, Math.max(0, k + 1)).filter((u) => !u.orphan && !(pinSystem && u.system))
  return { units, pinned, window: window.reverse(), older, olderReason, dropped }
}

/**
 * A fitted history of some kept units, with nothing summarized.
 *
 * @category utils
 */
export const keptResult = (
  items: ReadonlyArray<HistoryItem>,
  kept: ReadonlyArray<Unit>,
  dropped: ReadonlyArray<{ readonly unit: Unit; readonly reason: DropReason }>,
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
      dropped: dropped.flatMap(({ unit, reason }) => idsOf(items, [unit]).map((id) => ({ id, reason }))),
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
export const truncatedResult = (items: ReadonlyArray<HistoryItem>, plan: WindowPlan, budget: number, strategy: string, fallback?: string): FittedHistory =>
  keptResult(
    items,
    [...plan.pinned, ...plan.window],
    [...plan.dropped, ...plan.older.map((unit) => ({ unit, reason: fallback === undefined ? plan.olderReason : ('summary_failed' as const) }))],
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
    truncatedResult(items, planWindow(items, options.budget, options.keepRecentCount, options.pinSystem), options.budget, 'truncate')

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
