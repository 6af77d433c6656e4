/**
 * What fitting strategies share: their type, their report, and the summarizer contract.
 *
 * @module
 */
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { GsscError } from '../../error.js'
import type { ChatMessage } from '../../message.js'
import type { Exclusion, ExclusionReason } from '../../phase.js'
import type { HistoryItem } from '../items.js'

/**
 * Writes a summary of some turns in about `targetTokens` tokens. In production this is an
 * LLM call; {@link extractiveSummarizer} is the offline default. A rejected promise (or a
 * thrown error) is a failure the strategy reports.
 *
 * @example
 * const summarizer: Summarizer = async (messages, targetTokens) => {
 *   const r = await openai.chat.completions.create({ model: 'gpt-4o-mini', max_tokens: targetTokens, messages: [...] })
 *   return r.choices[0]?.message.content ?? ''
 * }
 */
export type Summarizer = (messages: ReadonlyArray<ChatMessage>, targetTokens: number) => Promise<string>

/** Why an item is not in the fitted history: the strategies' words of the one vocabulary (`ExclusionReason`). */
export type DropReason = Extract<ExclusionReason, 'over_budget' | 'keep_recent_count' | 'orphan_result' | 'summary_failed' | 'opens_with_assistant'>

/** What a strategy did. */
export interface FitReport {
  readonly strategy: string
  readonly budget: number
  readonly tokensBefore: number
  /** Tokens of the fitted history; never more than `budget`. */
  readonly tokensAfter: number
  /** Ids of items kept verbatim, in order. */
  readonly kept: ReadonlyArray<string>
  /** Ids of items folded into the summary. */
  readonly summarized: ReadonlyArray<string>
  readonly dropped: ReadonlyArray<Exclusion<DropReason>>
  /** The summary turn, when one was written: its id, tokens, and index in the fitted history. */
  readonly summary?: { readonly id: string; readonly tokens: number; readonly index: number; readonly truncated: boolean }
  /** Set when the summarizer failed and the strategy fell back to dropping. */
  readonly fallback?: string
}

/** A fitted history and its report. */
export interface FittedHistory {
  readonly items: ReadonlyArray<HistoryItem>
  readonly report: FitReport
}

/**
 * A history-fitting strategy: items in, items within the budget out. Swappable: `truncateHistory`,
 * `compressHistory` and `smartHistory` all have this type, and so can your own.
 */
export type FitStrategy = (items: ReadonlyArray<HistoryItem>) => TE.TaskEither<GsscError, FittedHistory>

/** Options every strategy takes. */
export interface FitOptions {
  /** Token budget for the whole history (summary included). */
  readonly budget: number
  /** Keep system turns first, whatever their age. Default true. */
  readonly pinSystem?: boolean
  /**
   * `user`: the kept turns must open with a user turn (Anthropic's rule): kept turns before
   * the first user turn go, reported as `opens_with_assistant`; when no kept turn can open
   * (a tool loop's later user turns are all tool results), the newest user turn that can is
   * kept first and the budget filled after it. Default: any turn may open.
   */
  readonly firstTurn?: 'user' | 'any'
}

/** Total tokens of some items. */
export const tokensOf = (items: ReadonlyArray<HistoryItem>): number => items.reduce((n, i) => n + i.tokens, 0)
