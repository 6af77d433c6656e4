/**
 * The branches of a session, as data for `gssc sessions <file>`: one row per leaf, so a
 * user can pick the one to build.
 *
 * @module
 */
import type { Role } from '../message.js'
import { messageText } from '../message.js'
import { preview } from '../internal/preview.js'
import { claudeBranchLeaves } from './claude/branches.js'
import type { Entry, LoadedSession } from './model.js'
import { leavesOf } from './tree.js'

/** One branch, described by its leaf. */
export interface BranchInfo {
  readonly leafId: string
  /** 1-based line of the leaf in the file. */
  readonly line: number
  /** Entries from the root (or a Claude Code compaction boundary) to the leaf. */
  readonly length: number
  /** Entries on the branch that carry messages (before any compaction is applied). */
  readonly messageEntries: number
  /** The last message on the branch, shortened to one line. */
  readonly lastMessage?: { readonly entryId: string; readonly role: Role; readonly preview: string }
  /** Timestamps of the branch's first and last entries, when known (epoch ms). */
  readonly firstTimestamp?: number
  readonly lastTimestamp?: number
  /** A pi label on the leaf (or on its last message), or a Claude Code summary title for it. */
  readonly label?: string
  /** True for the branch a build uses when no leaf is given. */
  readonly isDefault: boolean
  /** The subagent thread of the branch (Claude Code `sidechain:<agentId>`); absent for the main conversation. */
  readonly thread?: string
}

interface Acc {
  readonly length: number
  readonly messageEntries: number
  readonly last?: Entry
  readonly first?: number
}

const carries = (e: Entry): boolean =>
  (e.body._tag === 'Message' && e.body.messages.length > 0) || (e.body._tag === 'BranchSummary' && e.body.summary.length > 0)

/** Per-entry branch facts, each entry computed once (memoized, iterative: deep trees do not overflow the stack). */
const facts = (session: LoadedSession): ((e: Entry) => Acc) => {
  const memo = new Map<string, Acc>()
  return (start) => {
    const trail: Entry[] = []
    const onTrail = new Set<string>()
    let base: Acc = { length: 0, messageEntries: 0 }
    for (let e: Entry | undefined = start; e !== undefined; ) {
      const known = memo.get(e.id)
      if (known !== undefined) {
        base = known
        break
      }
      trail.push(e)
      onTrail.add(e.id)
      const stop: boolean = e.parentId === null || e.body._tag === 'Boundary'
      const parent: Entry | undefined = stop ? undefined : session.byId.get(e.parentId!)
      e = parent === undefined || onTrail.has(parent.id) ? undefined : parent
    }
    for (let i = trail.length - 1; i >= 0; i--) {
      const e = trail[i]!
      base = {
        length: base.length + 1,
        messageEntries: base.messageEntries + (carries(e) ? 1 : 0),
        ...(carries(e) ? { last: e } : base.last === undefined ? {} : { last: base.last }),
        ...(base.first === undefined ? (e.timestamp === undefined ? {} : { first: e.timestamp }) : { first: base.first }),
      }
      memo.set(e.id, base)
    }
    return base
  }
}

const lastMessage = (e: Entry, chars: number): BranchInfo['lastMessage'] => {
  const m = e.body._tag === 'Message' ? e.body.messages[e.body.messages.length - 1] : undefined
  const text = m === undefined ? (e.body._tag === 'BranchSummary' ? e.body.summary : '') : messageText(m)
  return { entryId: e.id, role: m?.role ?? 'user', preview: preview(text, chars) }
}

/**
 * The leaves that end branches: every leaf in pi and seed files (each fork there is a
 * user's choice); in Claude Code transcripts only forks a user prompt starts (parallel tool
 * calls fork the tree inside one turn), of the main thread, or of the subagent threads in a
 * subagent's own transcript.
 */
const branchLeaves = (session: LoadedSession, subagents: boolean): ReadonlyArray<Entry> => {
  if (session.format !== 'claude-code') return leavesOf(session.entries, session.byId)
  const hasMain = session.entries.some((e) => e.thread === undefined)
  const threads = [...new Set(session.entries.map((e) => e.thread))].filter((t) => !hasMain || t === undefined || subagents)
  return threads.flatMap((t) => claudeBranchLeaves(session, t)).sort((a, b) => a.line - b.line)
}

/** Options of {@link listBranches}. */
export interface ListOptions {
  /** Characters of the last message's preview; default 80. */
  readonly previewChars?: number
  /**
   * Also list the branches of the subagent threads inside a Claude Code transcript (old
   * inline sidechain runs). A subagent's own transcript is always listed. Default false.
   */
  readonly subagents?: boolean
}

/**
 * Lists the branches of a session, in file order of their leaves. Linear in the file.
 *
 * @example
 * listBranches()(session).map((b) => `${b.leafId}  ${b.length}  ${b.lastMessage?.preview}`)
 * @category constructors
 * @since 0.1.0
 */
export const listBranches =
  (options: ListOptions = {}) =>
  (session: LoadedSession): ReadonlyArray<BranchInfo> => {
    const of = facts(session)
    return branchLeaves(session, options.subagents ?? false).map((leaf) => {
      const f = of(leaf)
      const label = session.labels.get(leaf.id) ?? (f.last === undefined ? undefined : session.labels.get(f.last.id)) ?? session.titles.get(leaf.id)
      return {
        leafId: leaf.id,
        line: leaf.line,
        length: f.length,
        messageEntries: f.messageEntries,
        ...(f.last === undefined ? {} : { lastMessage: lastMessage(f.last, options.previewChars ?? 80) }),
        ...(f.first === undefined ? {} : { firstTimestamp: f.first }),
        ...(leaf.timestamp === undefined ? {} : { lastTimestamp: leaf.timestamp }),
        ...(label === undefined ? {} : { label }),
        isDefault: leaf.id === session.defaultLeaf,
        ...(leaf.thread === undefined ? {} : { thread: leaf.thread }),
      }
    })
  }
