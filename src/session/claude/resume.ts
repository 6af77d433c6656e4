/**
 * What Claude Code (2.1.330) does to a branch's messages when it resumes a session, before
 * anything is merged:
 *
 * 1. an assistant line whose tool calls all have no result on the branch is left out;
 * 2. an assistant line holding only thinking is left out, unless another line of the same
 *    response has other content (they are merged later);
 * 3. an assistant line holding only blank text is left out;
 * 4. when a new prompt follows (`withNextPrompt`): if the branch ended in the middle of a
 *    tool loop (its last message, system lines and API errors aside, is a tool result), a
 *    hidden user turn "Continue from where you left off." is added; then, if the last
 *    message (system lines aside) is a user turn, the assistant turn "No response
 *    requested." is inserted after it, so the new prompt does not merge into it.
 *
 * Every line left out is reported as an {@link Omission}.
 *
 * @module
 */
import type { Omission } from '../model.js'
import { callIds, hasResults, syntheticTurn, type Turn } from './turn.js'

/** Claude Code's own texts for the turns it adds. */
export const CONTINUE_TEXT = 'Continue from where you left off.'
export const NO_RESPONSE_TEXT = 'No response requested.'

/** Tools whose result ends a turn normally (Claude Code's brief mode). */
const TERMINAL_TOOLS: ReadonlySet<string> = new Set(['SendUserMessage', 'Brief'])

/** Turns after a filter, with the lines it left out. */
export interface Filtered {
  readonly turns: ReadonlyArray<Turn>
  readonly omitted: ReadonlyArray<Omission>
}

const omit = (t: Turn, reason: Omission['reason']): Omission => ({ entryId: t.entryId, line: t.line, reason })

const isBlank = (t: Turn): boolean => t.parts.length > 0 && t.parts.every((s) => s.part._tag === 'Text' && s.part.text.trim() === '')

const isThinkingOnly = (t: Turn): boolean => t.parts.length > 0 && t.parts.every((s) => s.part._tag === 'Thinking')

/** Drops assistant turns matching `drop`, reporting each. */
const dropWhere = (turns: ReadonlyArray<Turn>, reason: Omission['reason'], drop: (t: Turn) => boolean): Filtered => {
  const omitted: Omission[] = []
  const kept = turns.filter((t) => {
    if (t.type !== 'assistant' || !drop(t)) return true
    omitted.push(omit(t, reason))
    return false
  })
  return { turns: kept, omitted }
}

/**
 * Rule 2, also applied after merging: thinking-only assistant turns with no other content
 * in their response.
 *
 * @category utils
 */
export const dropOrphanThinking = (turns: ReadonlyArray<Turn>): Filtered => {
  const withContent = new Set(turns.flatMap((t) => (t.type === 'assistant' && t.messageId !== undefined && t.parts.some((s) => s.part._tag !== 'Thinking') ? [t.messageId] : [])))
  return dropWhere(turns, 'thinkingOnly', (t) => isThinkingOnly(t) && (t.messageId === undefined || !withContent.has(t.messageId)))
}

/** Rule 3, also applied after merging. @category utils */
export const dropBlank = (turns: ReadonlyArray<Turn>): Filtered => dropWhere(turns, 'whitespaceOnly', isBlank)

const dropUnresolved = (turns: ReadonlyArray<Turn>): Filtered => {
  const answered = new Set(turns.flatMap((t) => t.parts.flatMap((s) => (s.part._tag === 'ToolResult' ? [s.part.callId] : []))))
  return dropWhere(turns, 'unresolvedToolUse', (t) => {
    const calls = callIds(t)
    return calls.length > 0 && calls.every((id) => !answered.has(id))
  })
}

/** Runs filters in order, collecting what each left out. */
export const pipeFilters = (turns: ReadonlyArray<Turn>, ...filters: ReadonlyArray<(t: ReadonlyArray<Turn>) => Filtered>): Filtered =>
  filters.reduce<Filtered>((acc, f) => {
    const next = f(acc.turns)
    return { turns: next.turns, omitted: [...acc.omitted, ...next.omitted] }
  }, { turns, omitted: [] })

/** Whether the branch stopped in the middle of a tool loop (Claude Code's `interrupted_turn`). */
const interruptedTurn = (turns: ReadonlyArray<Turn>): boolean => {
  const last = turns.findLast((t) => t.type !== 'system' && !(t.type === 'assistant' && t.apiError))
  if (last === undefined || last.type !== 'user' || last.meta || last.compactSummary || !hasResults(last)) return false
  const answered = new Set(last.parts.flatMap((s) => (s.part._tag === 'ToolResult' ? [s.part.callId] : [])))
  const terminal = turns.some((t) => t.parts.some((s) => s.part._tag === 'ToolCall' && answered.has(s.part.id) && TERMINAL_TOOLS.has(s.part.name)))
  return !terminal
}

/**
 * Rules 1–4 (see the module comment).
 *
 * @category utils
 */
export const resumeFilters = (turns: ReadonlyArray<Turn>, withNextPrompt: boolean): Filtered => {
  const filtered = pipeFilters(turns, dropUnresolved, dropOrphanThinking, dropBlank)
  if (!withNextPrompt) return filtered
  const out = [...filtered.turns]
  const tail = out[out.length - 1]
  if (tail !== undefined && interruptedTurn(out)) out.push(syntheticTurn('user', CONTINUE_TEXT, tail))
  const lastIndex = out.findLastIndex((t) => t.type !== 'system')
  const last = out[lastIndex]
  if (last !== undefined && last.type === 'user') out.splice(lastIndex + 1, 0, syntheticTurn('assistant', NO_RESPONSE_TEXT, last))
  return { turns: out, omitted: filtered.omitted }
}
