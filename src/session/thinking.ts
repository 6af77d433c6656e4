/**
 * Thinking blocks when replaying a history, as pi's `transformMessages` decides: a model
 * may only see its own reasoning (signed for it). For the same model (`sameModel` of the
 * renderers: the target names a model, the turn's model equals it, and provider and API
 * match where both are known) the blocks stay as they are; for any other target, redacted
 * and empty blocks are dropped and the rest become plain text (or are dropped, if asked).
 * Without a target, no thinking is replayed as thinking.
 *
 * @module
 */
import type { ChatMessage, Origin, Part } from '../message.js'
import { text } from '../message.js'
// the renderers' own test, so a history and its rendering agree on what is replayable
import { sameModel } from '../render/clean.js'

/** What happens to another model's thinking: `text` (pi's choice) or `drop`. */
export type CrossModelThinking = 'text' | 'drop'

/** A turn after the thinking rule, with what changed. */
export interface ThinkingResult {
  readonly message: ChatMessage
  readonly toText: number
  readonly dropped: number
}

/**
 * Applies the thinking rule to one assistant turn; other turns pass through unchanged.
 *
 * @example
 * replayThinking({ model: 'gpt-5' }, 'text')(assistantTurnFromClaude) // thinking → text parts
 * @category utils
 * @since 0.1.0
 */
export const replayThinking =
  (target: Origin | undefined, crossModel: CrossModelThinking = 'text') =>
  (m: ChatMessage): ThinkingResult => {
    if (m.role !== 'assistant' || !m.parts.some((p) => p._tag === 'Thinking') || sameModel(m.origin, target))
      return { message: m, toText: 0, dropped: 0 }
    let toText = 0
    let dropped = 0
    const parts: Part[] = []
    for (const p of m.parts) {
      if (p._tag !== 'Thinking') parts.push(p)
      else if (p.redacted === true || p.text.trim() === '' || crossModel === 'drop') dropped++
      else {
        toText++
        parts.push(text(p.text))
      }
    }
    return { message: { ...m, parts }, toText, dropped }
  }
