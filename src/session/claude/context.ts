/**
 * A Claude Code branch rebuilt as Claude Code 2.1.330 sends it when it resumes the
 * session: the walked branch with its side-fork lines recovered (`./chain.ts`), Claude
 * Code's resume filters (`./resume.ts`), then its API normalization (`./normalize.ts`).
 *
 * When a new prompt will follow (`withNextPrompt`), the rebuild also does what Claude Code
 * does at that point: the turns it adds after an interrupted branch, and the `\n` it adds
 * to the last text of a trailing user turn that the new prompt will be merged into.
 *
 * @module
 */
import type { ContextMessage, Entry, LoadedSession, Omission } from '../model.js'
import { recoverChain } from './chain.js'
import { normalizeForApi } from './normalize.js'
import { resumeFilters } from './resume.js'
import { toContext, turnOf, type Turn } from './turn.js'

/** A rebuilt Claude Code branch and the lines Claude Code itself would leave out. */
export interface ClaudeRebuild {
  readonly messages: ReadonlyArray<ContextMessage>
  readonly omitted: ReadonlyArray<Omission>
}

const isAttachment = (e: Entry): boolean => e.body._tag === 'Other' && e.body.type === 'attachment'

/** The `\n` Claude Code adds where the new prompt's text meets the last turn's text. */
const seamForPrompt = (turns: ReadonlyArray<Turn>): ReadonlyArray<Turn> => {
  const last = turns[turns.length - 1]
  const tail = last?.parts[last.parts.length - 1]
  if (last === undefined || last.type === 'assistant' || tail === undefined || tail.part._tag !== 'Text') return turns
  const part = { ...tail, part: { ...tail.part, text: `${tail.part.text}\n` } }
  return [...turns.slice(0, -1), { ...last, parts: [...last.parts.slice(0, -1), part] }]
}

/**
 * The messages of the branch `path` (root first, ending at `leaf`) as Claude Code sends
 * them.
 *
 * @category utils
 */
export const claudeMessages = (session: LoadedSession, path: ReadonlyArray<Entry>, leaf: Entry, withNextPrompt: boolean): ClaudeRebuild => {
  const chain = recoverChain(session, path, leaf.thread)
  const omitted: Omission[] = chain.filter(isAttachment).map((e) => ({ entryId: e.id, line: e.line, reason: 'attachment' }))
  const turns = chain.flatMap((e) => turnOf(e) ?? [])
  const resumed = resumeFilters(turns, withNextPrompt)
  const api = normalizeForApi(resumed.turns)
  const final = withNextPrompt ? seamForPrompt(api.turns) : api.turns
  return { messages: final.flatMap(toContext), omitted: [...omitted, ...resumed.omitted, ...api.omitted].sort((a, b) => a.line - b.line) }
}
