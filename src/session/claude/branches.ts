/**
 * Which leaves of a Claude Code transcript are branches a user chose.
 *
 * The tree of a transcript forks for two reasons. Parallel tool calls fork it inside one
 * turn (each result hangs off its own call's line, and old progress lines fork too): such
 * forks are not branches, Claude Code sends them back as one turn. A user who rewinds and
 * sends another prompt forks it at that prompt: that is a branch. So a branch starts at a
 * user prompt: the branches are the prompts with no later prompt below them, and each
 * branch's leaf is its newest line, as Claude Code picks a leaf. A compaction boundary
 * continues the line it came from (`logicalParentUuid`; when that line was never written,
 * the line written just before the boundary), so the compacted past is not a branch.
 * Lines with no prompt above them (hook reminders whose parents are in another file) are
 * a branch only in a thread without any prompt.
 *
 * @module
 */
import type { Entry, LoadedSession } from '../model.js'

/** A user line that starts a turn: a prompt, a command line, a compaction summary; not a tool result or an injected line. */
const isPrompt = (e: Entry): boolean =>
  e.body._tag === 'Message' &&
  (e.body.kind === 'message' || e.body.kind === 'localCommand' || e.body.kind === 'compactionSummary') &&
  e.body.messages.some((m) => m.role === 'user' && m.parts.some((p) => p._tag !== 'ToolResult'))

/** Where each compaction boundary of a thread continues from. */
const boundaryLinks = (session: LoadedSession, entries: ReadonlyArray<Entry>): ReadonlyMap<string, Entry> => {
  const links = new Map<string, Entry>()
  let previous: Entry | undefined
  for (const e of entries) {
    if (e.body._tag === 'Boundary') {
      const logical = e.body.logicalParentId === undefined ? undefined : session.byId.get(e.body.logicalParentId)
      const from = logical ?? previous
      if (from !== undefined) links.set(e.id, from)
    }
    previous = e
  }
  return links
}

/**
 * The leaves of one thread's branches (`thread` undefined: the main thread), in file order.
 * Linear: each line is climbed from at most once per question.
 *
 * @category utils
 */
export const claudeBranchLeaves = (session: LoadedSession, thread: string | undefined): ReadonlyArray<Entry> => {
  const entries = session.entries.filter((e) => e.thread === thread)
  const links = boundaryLinks(session, entries)
  // the entry a line continues: its parent, or for a compaction boundary the line before the compaction
  const upOf = (e: Entry): Entry | undefined => (e.body._tag === 'Boundary' ? links.get(e.id) : e.parentId === null ? undefined : session.byId.get(e.parentId))
  // lines with a prompt somewhere below them
  const promptBelow = new Set<string>()
  for (const p of entries) {
    if (!isPrompt(p)) continue
    const trail = new Set<string>()
    for (let e = upOf(p); e !== undefined && !promptBelow.has(e.id) && !trail.has(e.id); e = upOf(e)) {
      trail.add(e.id)
      promptBelow.add(e.id)
    }
  }
  // the nearest prompt at or above each line (memoized along each climb)
  const owner = new Map<string, string | null>()
  const ownerOf = (start: Entry): string | null => {
    const trail = new Set<string>()
    let found: string | null = null
    for (let e: Entry | undefined = start; e !== undefined; e = upOf(e)) {
      const known = owner.get(e.id)
      if (known !== undefined) {
        found = known
        break
      }
      if (isPrompt(e)) {
        found = e.id
        break
      }
      if (trail.has(e.id)) break
      trail.add(e.id)
    }
    for (const id of trail) owner.set(id, found)
    return found
  }
  const newest = new Map<string | null, Entry>()
  for (const e of entries) {
    if (!e.leafCandidate) continue
    const tip = ownerOf(e)
    if (tip !== null ? promptBelow.has(tip) : promptBelow.has(e.id)) continue
    const best = newest.get(tip)
    if (best === undefined || (e.timestamp ?? -Infinity) >= (best.timestamp ?? -Infinity)) newest.set(tip, e)
  }
  // lines with no prompt above them are a branch only when the thread has no prompt at all
  if (newest.size > 1) newest.delete(null)
  return [...newest.values()].sort((a, b) => a.line - b.line)
}
