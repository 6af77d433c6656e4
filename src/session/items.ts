/**
 * History items: chat turns with their token counts, the unit the fitting strategies work
 * on. Items come from a session or from any list of turns (see `history.ts`).
 *
 * @module
 */
import type { ChatMessage } from '../message.js'
import { cachedCount, type TokenCache } from '../tokenize/cache.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import type { MessageKind, Omission } from './model.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Where an item came from: a session message kind, a repair, or a fitting summary. */
export type HistoryKind = MessageKind | 'syntheticResult' | 'summary'

/** One turn of a history, counted once. */
export interface HistoryItem {
  /** Unique within the history: the entry id, `<entry>#<n>` for an entry's later turns. */
  readonly id: string
  /** The session entry it came from, if any. */
  readonly entryId?: string
  readonly kind: HistoryKind
  readonly message: ChatMessage
  /**
   * Tokens the turn adds to a request: `messageCost` (`src/render/cost.ts`), the one
   * definition of a message's cost, in the OpenAI format when no build says otherwise (a
   * build's history compressor charges each turn in its own format).
   */
  readonly tokens: number
  /** Shared by an assistant turn with tool calls and its results: kept or dropped together. */
  readonly group?: string
}

/** Something the conversion changed so that providers accept the history. */
export type Repair =
  /** An `error` or `aborted` assistant turn (pi never replays them). */
  | { readonly _tag: 'DroppedFailedTurn'; readonly itemId: string; readonly stopReason: string; readonly toolCalls: number }
  /** A turn with nothing left to send (empty text only). */
  | { readonly _tag: 'DroppedEmptyTurn'; readonly itemId: string; readonly role: string }
  /** A tool call had no result: an error result "No result provided" was added, as pi does. */
  | { readonly _tag: 'SyntheticResult'; readonly itemId: string; readonly callId: string; readonly name: string }
  /** A tool result with no call before it (or after its turn ended). */
  | { readonly _tag: 'DroppedOrphanResult'; readonly itemId: string; readonly callId: string }
  /** A second result for the same call. */
  | { readonly _tag: 'DroppedDuplicateResult'; readonly itemId: string; readonly callId: string }
  /** Thinking from another model, turned into text (or dropped) because it cannot be replayed. */
  | { readonly _tag: 'ThinkingConverted'; readonly itemId: string; readonly toText: number; readonly dropped: number }
  /** A line the agent itself does not send when it resumes (Claude Code's resume filters); `itemId` is its entry id. */
  | { readonly _tag: 'LeftOutByAgent'; readonly itemId: string; readonly line: number; readonly reason: Omission['reason'] }

/** A counting function: tokens of one text. */
export type Count = (text: string) => number

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A counter over a tokenizer, through a shared {@link TokenCache} when one is given, so a
 * rebuild only tokenizes texts it has not seen.
 *
 * @category constructors
 */
export const counter = (tokenizer: Tokenizer, cache?: TokenCache): Count => cachedCount(tokenizer, cache)
