/**
 * How Claude Code (2.1.330) turns its messages into the API's `messages`
 * (`normalizeMessagesForAPI`), as far as a transcript can show it:
 *
 * - consecutive user turns (tool results, prompts, `local_command` lines) become one: where
 *   a text block meets a text block, `\n` is added to the first (so two prompts do not run
 *   together), and tool results move to the front;
 * - an assistant turn joins the earlier turn of the same response (`message.id`), looking
 *   back over tool results and other responses' turns: one response is one turn, every
 *   block in order;
 * - legacy tool names are sent under their current names ({@link CURRENT_TOOL_NAMES});
 * - API errors recorded as assistant lines are not sent;
 * - thinking-only and blank assistant turns left by merging are dropped;
 * - an error result keeps only its text (the API refuses images in an error result).
 *
 * @module
 */
import type { ToolResultPart } from '../../message.js'
import type { Omission } from '../model.js'
import { dropBlank, dropOrphanThinking, pipeFilters, type Filtered } from './resume.js'
import type { Sourced, Turn } from './turn.js'

/**
 * Tool names Claude Code renamed, and the names 2.1.330 sends them under (each tool's
 * `aliases`): `Task` is now `Agent`, `KillShell` is `TaskStop`, the output readers are
 * `TaskOutput`.
 *
 * @category model
 */
export const CURRENT_TOOL_NAMES: Readonly<Record<string, string>> = {
  Task: 'Agent',
  KillShell: 'TaskStop',
  AgentOutputTool: 'TaskOutput',
  BashOutputTool: 'TaskOutput',
}

const renamed = (s: Sourced): Sourced => {
  const p = s.part
  if (p._tag !== 'ToolCall') return s
  const name = Object.hasOwn(CURRENT_TOOL_NAMES, p.name) ? CURRENT_TOOL_NAMES[p.name]! : p.name
  return name === p.name ? s : { ...s, part: { ...p, name } }
}

const isResult = (s: Sourced): boolean => s.part._tag === 'ToolResult'

/**
 * Two user turns as one: `\n` where text meets text, then tool results first.
 *
 * @category utils
 */
export const mergeUser = (a: Turn, b: Turn): Turn => {
  const last = a.parts[a.parts.length - 1]
  const first = b.parts[0]
  const head =
    last !== undefined && last.part._tag === 'Text' && first?.part._tag === 'Text'
      ? [...a.parts.slice(0, -1), { ...last, part: { ...last.part, text: `${last.part.text}\n` } }]
      : a.parts
  const parts = [...head, ...b.parts]
  return { ...a, type: 'user', meta: a.meta && b.meta, parts: [...parts.filter(isResult), ...parts.filter((s) => !isResult(s))] }
}

/** The results of an error tool result reduced to text, as Claude Code sanitizes them. */
const textOnlyError = (s: Sourced): Sourced => {
  const p = s.part
  if (p._tag !== 'ToolResult' || !p.isError || p.content.every((c) => c._tag === 'Text')) return s
  const texts = p.content.flatMap((c) => (c._tag === 'Text' ? [c.text] : []))
  const part: ToolResultPart = { ...p, content: texts.length === 0 ? [] : [{ _tag: 'Text', text: texts.join('\n\n') }] }
  return { ...s, part }
}

const mergeAdjacentUsers = (turns: ReadonlyArray<Turn>): ReadonlyArray<Turn> =>
  turns.reduce<Turn[]>((out, t) => {
    const prev = out[out.length - 1]
    if (t.type !== 'assistant' && prev !== undefined && prev.type !== 'assistant') out[out.length - 1] = mergeUser(prev, t)
    else out.push(t.type === 'system' ? { ...t, type: 'user' } : t)
    return out
  }, [])

/**
 * The API view of resumed turns (see the module comment). API-error turns are reported as
 * omitted.
 *
 * @category utils
 */
export const normalizeForApi = (turns: ReadonlyArray<Turn>): Filtered => {
  const omitted: Omission[] = []
  const out: Turn[] = []
  for (const t of turns) {
    if (t.type !== 'assistant') {
      const prev = out[out.length - 1]
      if (prev !== undefined && prev.type === 'user') out[out.length - 1] = mergeUser(prev, t)
      else out.push({ ...t, type: 'user' })
      continue
    }
    if (t.apiError) {
      omitted.push({ entryId: t.entryId, line: t.line, reason: 'apiError' })
      continue
    }
    const turn: Turn = { ...t, parts: t.parts.map(renamed) }
    let merged = false
    for (let i = out.length - 1; i >= 0 && !merged; i--) {
      const m = out[i]!
      if (m.type !== 'assistant' && !m.parts.some(isResult)) break
      if (m.type === 'assistant' && m.messageId !== undefined && m.messageId === turn.messageId) {
        out[i] = { ...m, parts: [...m.parts, ...turn.parts], ...(turn.stopReason === undefined ? {} : { stopReason: turn.stopReason }) }
        merged = true
      }
    }
    if (!merged) out.push(turn)
  }
  const cleaned = pipeFilters(out, dropOrphanThinking, dropBlank)
  const final = mergeAdjacentUsers(cleaned.turns).map((t) => (t.type === 'assistant' ? t : { ...t, parts: t.parts.map(textOnlyError) }))
  return { turns: final, omitted: [...omitted, ...cleaned.omitted] }
}
