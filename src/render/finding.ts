/**
 * Findings: every change the renderers make to a conversation so that a provider accepts it.
 * They are returned next to the output, never applied silently. `index` is always the
 * position of the affected message in the caller's input array (for the chunk builder, of the
 * chunk in `chunkIds`; for the core build's renderers, of the turn in the laid-out document);
 * `id` names the item, for builders that know it (the chunk's id; the turn's first packet).
 * Findings are part of the one vocabulary of non-fatal findings (`Warning`, `src/phase.ts`).
 *
 * @module
 */
import { match } from 'ts-pattern'

/** Why an image part was left out. */
export type ImageDropReason = 'system' | 'assistant' | 'media_type'

/** Why a thinking part was left out. */
export type ThinkingDropReason = 'redacted' | 'empty' | 'policy' | 'not_replayable'

/** One repair, where it was made. */
export type Finding = FindingKind & { readonly id?: string }

/** What a repair did. */
export type FindingKind =
  /** An assistant turn with `stopReason` `error` or `aborted` (never replayed). */
  | { readonly _tag: 'DroppedFailedTurn'; readonly index: number; readonly stopReason: string }
  /** `count` empty or whitespace-only text parts were removed from a message. */
  | { readonly _tag: 'DroppedEmptyText'; readonly index: number; readonly count: number }
  /** A message had nothing left to send. */
  | { readonly _tag: 'DroppedEmpty'; readonly index: number }
  /** An assistant turn held only reasoning. */
  | { readonly _tag: 'DroppedReasoningOnly'; readonly index: number }
  /** A part that cannot appear in its role (a tool call in a user turn, text in a tool turn, …). */
  | { readonly _tag: 'DroppedStrayPart'; readonly index: number; readonly part: string }
  /** A document: the renderers do not send documents (the adapters in `src/adapters` carry them). */
  | { readonly _tag: 'DroppedDocument'; readonly index: number }
  /** An image the target cannot take in that place. */
  | { readonly _tag: 'DroppedImage'; readonly index: number; readonly reason: ImageDropReason }
  /** Reasoning sent as plain text because the target cannot replay it. */
  | { readonly _tag: 'ThinkingAsText'; readonly index: number }
  /** Reasoning left out. */
  | { readonly _tag: 'DroppedThinking'; readonly index: number; readonly reason: ThinkingDropReason }
  /** A tool call had no result: an error result "No result provided" was inserted after it. */
  | { readonly _tag: 'SyntheticResult'; readonly index: number; readonly callId: string }
  /** A tool result had no call before it (or its call was already answered): left out. */
  | { readonly _tag: 'DroppedOrphanResult'; readonly index: number; readonly callId: string }
  /** A tool result found later in the conversation was moved up to follow its call. */
  | { readonly _tag: 'MovedResult'; readonly index: number; readonly callId: string; readonly to: number }
  /** A tool-call id the target rejects (bad characters, too long, or reused) was replaced, in the call and its result. */
  | { readonly _tag: 'RewroteCallId'; readonly index: number; readonly from: string; readonly to: string }
  /** A display name the target rejects was rewritten. */
  | { readonly _tag: 'RewroteName'; readonly index: number; readonly from: string; readonly to: string }
  /** A system message after the conversation started was moved into Anthropic's top-level `system`. */
  | { readonly _tag: 'MovedSystem'; readonly index: number }
  /** The conversation started with an assistant turn: a user turn was inserted before it. */
  | { readonly _tag: 'SyntheticUserTurn'; readonly index: number; readonly text: string }
  /** The conversation started with an assistant turn: it (and its results) were left out, option `leadingAssistant: 'drop'`. */
  | { readonly _tag: 'DroppedLeadingTurn'; readonly index: number }
  /** Trailing whitespace was cut from the final assistant turn (Anthropic rejects it). */
  | { readonly _tag: 'TrimmedTrailingWhitespace'; readonly index: number }
  /** The caller's cache breakpoints were more than the API's 4: this earlier one was left out. */
  | { readonly _tag: 'DroppedCacheBreakpoint'; readonly index: number }

/**
 * A one-line description of a finding, for logs and reports.
 *
 * @example
 * describeFinding({ _tag: 'SyntheticResult', index: 4, callId: 'call_1' })
 * // 'messages[4]: tool call "call_1" had no result; inserted an error result "No result provided"'
 * @category utils
 * @since 0.1.0
 */
export const describeFinding = (f: Finding): string =>
  `${f.id === undefined ? `messages[${f.index}]` : f.id}: ` +
  match(f)
    .with({ _tag: 'DroppedFailedTurn' }, (x) => `assistant turn with stopReason "${x.stopReason}" dropped`)
    .with({ _tag: 'DroppedEmptyText' }, (x) => `${x.count} empty text part(s) dropped`)
    .with({ _tag: 'DroppedEmpty' }, () => 'message with no content dropped')
    .with({ _tag: 'DroppedReasoningOnly' }, () => 'assistant turn with only reasoning dropped')
    .with({ _tag: 'DroppedStrayPart' }, (x) => `${x.part} part cannot appear in this role; dropped`)
    .with({ _tag: 'DroppedDocument' }, () => 'document dropped (documents are not rendered; use the adapters in src/adapters to send them)')
    .with({ _tag: 'DroppedImage' }, (x) => `image dropped (${x.reason === 'media_type' ? 'unsupported media type' : `images are not allowed in ${x.reason} turns`})`)
    .with({ _tag: 'ThinkingAsText' }, () => 'reasoning from another model sent as plain text')
    .with({ _tag: 'DroppedThinking' }, (x) => `reasoning dropped (${x.reason.replace('_', ' ')})`)
    .with({ _tag: 'SyntheticResult' }, (x) => `tool call "${x.callId}" had no result; inserted an error result "No result provided"`)
    .with({ _tag: 'DroppedOrphanResult' }, (x) => `tool result for "${x.callId}" has no call before it; dropped`)
    .with({ _tag: 'MovedResult' }, (x) => `tool result for "${x.callId}" moved up to follow its call in messages[${x.to}]`)
    .with({ _tag: 'RewroteCallId' }, (x) => `tool call id "${x.from}" rewritten to "${x.to}"`)
    .with({ _tag: 'RewroteName' }, (x) => `name "${x.from}" rewritten to "${x.to}"`)
    .with({ _tag: 'MovedSystem' }, () => 'system message moved into the top-level system prompt')
    .with({ _tag: 'SyntheticUserTurn' }, (x) => `conversation started with an assistant turn; inserted user turn "${x.text}" before it`)
    .with({ _tag: 'DroppedLeadingTurn' }, () => 'conversation started with an assistant turn; left it out, up to the first user turn')
    .with({ _tag: 'TrimmedTrailingWhitespace' }, () => 'trailing whitespace trimmed from the final assistant turn')
    .with({ _tag: 'DroppedCacheBreakpoint' }, () => 'cache breakpoint left out (more than the 4 the API takes; the latest 4 are kept)')
    .exhaustive()
