/**
 * The lines Claude Code resumes from: the branch walked from the leaf, plus the lines of
 * its parallel tool calls that sit on side forks.
 *
 * Claude Code writes each content block of a response as its own line (sharing
 * `message.id`), and each tool result hangs off the line of its own call. With several
 * calls in one response the tree forks: walking parents from the leaf passes through one
 * call and its result, and the others sit on siblings. Claude Code (2.1.330) recovers them
 * after the walk: for every response on the branch, the lines of that response that are
 * off the branch, then the off-branch results of its calls, each sorted by time, go right
 * after the response's last line on the branch. Results are found by the line they hang
 * from (a progress line in between is looked through, as Claude Code bridges progress
 * lines) and, as a safety net, by `tool_use_id`.
 *
 * A subagent's thread (`Entry.thread`) is rebuilt from its own lines only.
 *
 * @module
 */
import type { Entry, LoadedSession } from '../model.js'

/** Lookups over a whole session, built once per rebuild. */
interface Index {
  readonly byMessageId: ReadonlyMap<string, ReadonlyArray<Entry>>
  readonly resultsByParent: ReadonlyMap<string, ReadonlyArray<Entry>>
  readonly resultsByCall: ReadonlyMap<string, ReadonlyArray<Entry>>
}

const push = <K, V>(m: Map<K, V[]>, k: K, v: V): void => {
  const list = m.get(k)
  if (list === undefined) m.set(k, [v])
  else list.push(v)
}

const isProgress = (e: Entry): boolean => e.body._tag === 'Other' && e.body.type === 'progress'

/** The parent of an entry with progress lines looked through (Claude Code's progress bridge). */
const bridgedParent = (session: LoadedSession, e: Entry): string | null => {
  let id = e.parentId
  for (let hops = 0; id !== null && hops < session.entries.length; hops++) {
    const p = session.byId.get(id)
    if (p === undefined || !isProgress(p)) return id
    id = p.parentId
  }
  return id
}

const isAssistantLine = (e: Entry): boolean => e.body._tag === 'Message' && e.body.messages.some((m) => m.role === 'assistant')

const resultIds = (e: Entry): ReadonlyArray<string> =>
  e.body._tag === 'Message' ? e.body.messages.flatMap((m) => m.parts.flatMap((p) => (p._tag === 'ToolResult' ? [p.callId] : []))) : []

const indexOf = (session: LoadedSession, thread: string | undefined): Index => {
  const byMessageId = new Map<string, Entry[]>()
  const resultsByParent = new Map<string, Entry[]>()
  const resultsByCall = new Map<string, Entry[]>()
  for (const e of session.entries) {
    if (e.thread !== thread || e.body._tag !== 'Message') continue
    if (isAssistantLine(e) && e.body.mergeKey !== undefined) push(byMessageId, e.body.mergeKey, e)
    const results = resultIds(e)
    if (results.length === 0) continue
    const parent = bridgedParent(session, e)
    if (parent !== null) push(resultsByParent, parent, e)
    for (const id of results) push(resultsByCall, id, e)
  }
  return { byMessageId, resultsByParent, resultsByCall }
}

const byTime = (a: Entry, b: Entry): number => (a.timestamp ?? 0) - (b.timestamp ?? 0) || a.line - b.line

/**
 * The branch's lines as Claude Code resumes them: `path` (root first, already walked)
 * restricted to the leaf's thread, with each response's side-fork lines and results
 * inserted after its last line on the branch.
 *
 * @category utils
 */
export const recoverChain = (session: LoadedSession, path: ReadonlyArray<Entry>, thread: string | undefined): ReadonlyArray<Entry> => {
  const chain = path.filter((e) => e.thread === thread)
  const seen = new Set(chain.map((e) => e.id))
  const anchors = new Map<string, Entry>()
  for (const e of chain) if (e.body._tag === 'Message' && e.body.mergeKey !== undefined && isAssistantLine(e)) anchors.set(e.body.mergeKey, e)
  if (anchors.size === 0) return chain
  const index = indexOf(session, thread)
  const inserts = new Map<string, ReadonlyArray<Entry>>()
  for (const [messageId, anchor] of anchors) {
    const group = index.byMessageId.get(messageId) ?? []
    const siblings = group.filter((e) => !seen.has(e.id))
    const calls = group.flatMap((e) => (e.body._tag === 'Message' ? e.body.messages.flatMap((m) => m.parts.flatMap((p) => (p._tag === 'ToolCall' ? [p.id] : []))) : []))
    const results = new Map<string, Entry>()
    for (const candidate of [...group.flatMap((e) => index.resultsByParent.get(e.id) ?? []), ...calls.flatMap((c) => index.resultsByCall.get(c) ?? [])])
      if (!seen.has(candidate.id)) results.set(candidate.id, candidate)
    if (siblings.length === 0 && results.size === 0) continue
    const recovered = [...[...siblings].sort(byTime), ...[...results.values()].sort(byTime)]
    for (const e of recovered) seen.add(e.id)
    inserts.set(anchor.id, recovered)
  }
  if (inserts.size === 0) return chain
  return chain.flatMap((e) => [e, ...(inserts.get(e.id) ?? [])])
}
