/**
 * The seed's third strategy: keep what matters, summarize the rest, **in order**.
 *
 * Units are kept in this order of preference while they fit (the summary's allowance is
 * set aside first):
 * 1. pinned system turns;
 * 2. the current task: the unit of the last user turn;
 * 3. important units, newest first: tool calls and results, errors (an error result, or
 *    text mentioning error/exception/failed/traceback), long turns (≥ `longMessageTokens`,
 *    the seed's "long messages"), and earlier summaries;
 * 4. with `fillWithRecent` (default), any other unit, newest first.
 *
 * Everything not kept is summarized into one user turn placed where the first summarized
 * unit was. Unlike the seed's version, which put the summary first and the important
 * messages after it, kept turns never change order: a reply never precedes its question.
 *
 * @module
 */
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { HistoryItem } from '../items.js'
import type { FitStrategy, FittedHistory } from './model.js'
import { allowanceOf, fitWithSummary, type SummaryOptions } from './summarized.js'
import { OMITTED_WRAPPER } from './summary.js'
import { preferencePolicy } from '../../compress/policy.js'
import { planHistory } from './layout.js'
import { keptResult, planWindow, truncatedResult } from './truncate.js'
import type { Unit } from './units.js'

/** Options of {@link smartHistory}. */
export interface SmartOptions extends SummaryOptions {
  /** Turns with at least this many tokens are important. Default 250 (about the seed's 1000 characters). */
  readonly longMessageTokens?: number
  /** Replaces the default importance rule (step 3). */
  readonly isImportant?: (item: HistoryItem) => boolean
  /** Fill what is left with the newest other units (step 4). Default true. */
  readonly fillWithRecent?: boolean
}

const ERROR = /\berror\b|exception|\bfailed\b|traceback/i

/**
 * The default importance rule (step 3 of the module comment).
 *
 * @category utils
 */
export const importantItem =
  (longMessageTokens = 250) =>
  (item: HistoryItem): boolean =>
    item.kind === 'compactionSummary' ||
    item.kind === 'branchSummary' ||
    item.tokens >= longMessageTokens ||
    item.message.parts.some(
      (p) => p._tag === 'ToolCall' || p._tag === 'ToolResult' || (p._tag === 'Text' && ERROR.test(p.text)),
    )

const lastUserUnit = (items: ReadonlyArray<HistoryItem>, units: ReadonlyArray<Unit>): Unit | undefined => {
  for (let k = units.length - 1; k >= 0; k--) {
    const u = units[k]!
    if (items.slice(u.start, u.end).some((i) => i.message.role === 'user' && (i.kind === 'message' || i.kind === 'meta'))) return u
  }
  return undefined
}

/**
 * The smart strategy (see the module comment).
 *
 * @example
 * const fitted = await smartHistory({ budget: 6800, tokenizer, summarizer: myLlmSummarizer })(history.items)()
 * @category constructors
 * @since 0.1.0
 */
export const smartHistory =
  (options: SmartOptions): FitStrategy =>
  (items) => {
    const { budget, pinSystem = true } = options
    const whole = planWindow(items, budget, Infinity, pinSystem, options.firstTurn)
    if (whole.older.length === 0) return TE.right(truncatedResult(items, whole, budget, 'smart'))
    const important = options.isImportant ?? importantItem(options.longMessageTokens)
    const task = lastUserUnit(items, whole.units)
    const isImportant = (u: Unit): boolean => items.slice(u.start, u.end).some(important)
    const fillWithRecent = options.fillWithRecent ?? true
    // the engine keeps units by this preference, skipping what does not fit
    const plan = planHistory(items, {
      budget: budget - allowanceOf(options),
      policy: preferencePolicy,
      pinSystem,
      ...(options.firstTurn === undefined ? {} : { firstTurn: options.firstTurn }),
      preference: (u) => (u.start === task?.start ? 0 : isImportant(u) ? 1 : 2),
      exclude: (u) => !fillWithRecent && u.start !== task?.start && !isImportant(u) && !(pinSystem && u.system),
    })
    const summarized = plan.units.filter((u) => !u.orphan && !plan.kept.includes(u) && !plan.dropped.some((d) => d.unit === u))
    const dropped = plan.dropped
    const withoutSummary = (reason: string): FittedHistory =>
      keptResult(items, plan.kept, [...dropped, ...summarized.map((unit) => ({ unit, reason: 'summary_failed' as const }))], budget, 'smart', reason)
    if (summarized.length === 0) return TE.right(truncatedResult(items, whole, budget, 'smart'))
    return fitWithSummary(items, { kept: plan.kept, summarized, dropped }, options, 'smart', OMITTED_WRAPPER, withoutSummary)
  }
