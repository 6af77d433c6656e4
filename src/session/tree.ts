/**
 * Walking the session tree: leaf → root in O(path length), never looping.
 *
 * @module
 */
import type { Diagnostic, Entry, SessionFormat } from './model.js'

/** A branch, root first, and what went wrong on the way up. */
export interface Walk {
  readonly path: ReadonlyArray<Entry>
  readonly diagnostics: ReadonlyArray<Diagnostic>
}

/** Entries by id: a Map, or a view over several (an incremental rebuild's new and known ids). */
export interface EntryIndex {
  readonly get: (id: string) => Entry | undefined
  readonly has: (id: string) => boolean
}

/** Why the walk up from an entry stops there, if it does (besides a null parent). */
const stopReason = (
  e: Entry,
  byId: EntryIndex,
  onPath: (id: string) => boolean,
): string | undefined => {
  const pid = e.parentId
  if (pid === null || e.body._tag === 'Boundary') return undefined
  if (pid === e.id) return `entry "${e.id}" is its own parent; treated as a root`
  if (!byId.has(pid)) return `parent "${pid}" of entry "${e.id}" is not in the file; "${e.id}" is treated as a root`
  if (onPath(pid)) return `parent cycle: entry "${e.id}" points back to "${pid}"; "${e.id}" is treated as a root`
  return undefined
}

/**
 * The branch ending at `leaf`, root first. Stops at a root, at a Claude Code compaction
 * boundary, at a parent that is missing, or where the parents loop back (with a diagnostic).
 *
 * @category utils
 */
export const walk = (byId: ReadonlyMap<string, Entry>, leaf: Entry, file: string): Walk => {
  // a loaded session has its cycles cut, so the plain climb ends; only a climb longer than
  // the index (a cycle after all) is walked again with a set, to say where it loops
  const reversed: Entry[] = [leaf]
  for (let e = leaf; ; ) {
    const pid = e.parentId
    if (pid === null || e.body._tag === 'Boundary' || pid === e.id) break
    const parent = byId.get(pid)
    if (parent === undefined || reversed.length > byId.size) break
    reversed.push(parent)
    e = parent
  }
  const last = reversed[reversed.length - 1]!
  if (reversed.length <= byId.size && stopReason(last, byId, () => false) === undefined) return { path: reversed.reverse(), diagnostics: [] }
  return guardedWalk(byId, leaf, file)
}

const guardedWalk = (byId: ReadonlyMap<string, Entry>, leaf: Entry, file: string): Walk => {
  const reversed: Entry[] = [leaf]
  const seen = new Set<string>([leaf.id])
  const diagnostics: Diagnostic[] = []
  for (let e = leaf; ; ) {
    const reason = stopReason(e, byId, (id) => seen.has(id))
    if (reason !== undefined) diagnostics.push({ file, line: e.line, reason })
    if (reason !== undefined || e.parentId === null || e.body._tag === 'Boundary') break
    const parent = byId.get(e.parentId)!
    seen.add(parent.id)
    reversed.push(parent)
    e = parent
  }
  return { path: reversed.reverse(), diagnostics }
}

/** What checking the tree found: problems to report, and the entries whose parent link is cut. */
export interface TreeProblems {
  readonly diagnostics: ReadonlyArray<Diagnostic>
  /**
   * Entries treated as roots because their parent link closes a cycle (or names the entry
   * itself): the loader cuts exactly these links, so every walk agrees with the diagnostic.
   */
  readonly cut: ReadonlySet<string>
}

/**
 * Missing parents and parent cycles among some entries (in file order), each reported once.
 * Linear: every entry is climbed from at most once, thanks to the `done` set, and a climb
 * ends at an entry on an earlier line (checked before). A climb also ends at an id the index
 * `has` but cannot `get`, or at an entry of an earlier pass (checked by that pass).
 *
 * @category utils
 */
export const treeProblems = (entries: ReadonlyArray<Entry>, byId: EntryIndex, file: string): TreeProblems => {
  const done = new Set<string>()
  const out: Diagnostic[] = []
  const cut = new Set<string>()
  for (const start of entries) {
    // the common case, a root or a parent on an earlier line (entries come in file order, so
    // it was checked already): nothing to climb, and no set to grow by every id of a long file
    const pid = start.parentId
    if (pid === null || start.body._tag === 'Boundary') continue
    const parent = byId.get(pid)
    if (parent !== undefined && parent !== start && parent.line < start.line) continue
    const trail = new Set<string>()
    // an entry on an earlier line was checked (as a start, or on a climb) and so was all above it
    for (let e: Entry | undefined = start; e !== undefined && !(e.line < start.line) && !done.has(e.id); ) {
      trail.add(e.id)
      const reason = stopReason(e, byId, (id) => trail.has(id))
      if (reason !== undefined) {
        out.push({ file, line: e.line, reason })
        if (e.parentId !== null && byId.has(e.parentId)) cut.add(e.id)
      }
      e = reason !== undefined || e.parentId === null || e.body._tag === 'Boundary' ? undefined : byId.get(e.parentId)
    }
    for (const id of trail) done.add(id)
  }
  return { diagnostics: out, cut }
}

/**
 * Leaves of the tree: leaf candidates with no candidate below them. Entries that are not
 * candidates (Claude Code progress, system and sidechain lines) are looked through, so a
 * user line hanging off a progress line still counts as below the assistant above it. In
 * pi and seed files every entry is a candidate, so these are the entries without children.
 * Linear: the nearest candidate above each entry is memoized.
 *
 * @category utils
 */
export const leavesOf = (entries: ReadonlyArray<Entry>, byId: ReadonlyMap<string, Entry>): ReadonlyArray<Entry> => {
  const nearest = new Map<string, string | null>()
  const nearestCandidate = (start: string | null): string | null => {
    const trail = new Set<string>()
    let found: string | null = null
    for (let id = start; id !== null; ) {
      const memo = nearest.get(id)
      if (memo !== undefined) {
        found = memo
        break
      }
      const e = byId.get(id)
      if (e === undefined) break
      if (e.leafCandidate) {
        found = id
        break
      }
      if (e.body._tag === 'Boundary' || trail.has(id)) break
      trail.add(id)
      id = e.parentId
    }
    for (const id of trail) nearest.set(id, found)
    return found
  }
  const hasChild = new Set<string>()
  for (const e of entries) {
    if (!e.leafCandidate || e.parentId === null || e.parentId === e.id || e.body._tag === 'Boundary') continue
    const above = nearestCandidate(e.parentId)
    if (above !== null && above !== e.id) hasChild.add(above)
  }
  return entries.filter((e) => e.leafCandidate && !hasChild.has(e.id))
}

/**
 * Claude Code's leaf rule, as 2.1.330 resumes a session: the newest main-thread line it
 * keeps as a message (by timestamp; among equal timestamps the later line), whether or not
 * lines hang below it. A file with no main-thread line (a subagent's transcript) takes the
 * newest of its lines that no other line hangs from.
 */
const claudeLeaf = (entries: ReadonlyArray<Entry>): string | null => {
  const newest = (pool: ReadonlyArray<Entry>): Entry | undefined =>
    pool.reduce<Entry | undefined>((best, e) => (best === undefined || (e.timestamp ?? -Infinity) >= (best.timestamp ?? -Infinity) ? e : best), undefined)
  const main = entries.filter((e) => e.leafCandidate && e.thread === undefined)
  if (main.length > 0) return newest(main)?.id ?? null
  const parents = new Set(entries.flatMap((e) => (e.parentId === null ? [] : [e.parentId])))
  return newest(entries.filter((e) => e.leafCandidate && !parents.has(e.id)))?.id ?? null
}

/**
 * The leaf a build uses when none is given: the last entry in file order for pi (as pi's
 * own loader does) and the seed format; Claude Code's rule for transcripts.
 *
 * @category utils
 */
export const defaultLeaf = (format: SessionFormat, entries: ReadonlyArray<Entry>): string | null =>
  format === 'claude-code' ? claudeLeaf(entries) : entries[entries.length - 1]?.id ?? null
