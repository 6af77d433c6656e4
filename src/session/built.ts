/**
 * A built session as data: what a session build returns (its branch, history, diagnostics,
 * stats and resume point), the options that make it, and the small helpers a full read
 * (`gather/sessionFile.ts`) and an incremental one (`./incremental.ts`) share.
 *
 * @module
 */
import type { ChatMessage } from '../message.js'
import type { Report } from '../report.js'
import type { TokenCache } from '../tokenize/cache.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import type { ContextOptions } from './context.js'
import type { ParseState } from './formats/adapter.js'
import type { Fingerprint } from './fingerprint.js'
import type { History, HistoryOptions, PairPoint, Prepared } from './history.js'
import type { Reach } from './reach.js'
import type { SessionLoadOptions } from './load.js'
import type { BranchContext, Diagnostic, Entry, SessionFormat, Unread } from './model.js'
import { sessionReport } from './report.js'

/** Everything a session build needs. */
export interface SessionBuildOptions extends SessionLoadOptions, Omit<HistoryOptions, 'tokenizer' | 'cache'> {
  readonly tokenizer: Tokenizer
  readonly cache?: TokenCache
  /** The leaf; default the session's own (pi: the last entry; Claude Code: its newest main-thread line). */
  readonly leaf?: string | null
  /** A new prompt will follow the history (see {@link ContextOptions.withNextPrompt}). Default false. */
  readonly withNextPrompt?: boolean
  /**
   * Convert and count only the turns a build with this available budget (and per-item cap)
   * can reach, newest first: a long session then costs what its end costs in time and
   * memory. Every line is still read and checked; the branch's older entries are not
   * converted, and `unread` says which. Claude Code transcripts are converted whole (Claude
   * Code rebuilds a branch from lines anywhere in the file). None: every turn.
   */
  readonly reach?: Reach
}

/** How much work a build did. */
export interface BuildStats {
  /** `full`: read from the start; `incremental`: read only appended lines; `unchanged`: read nothing. */
  readonly mode: 'full' | 'incremental' | 'unchanged'
  /** Why a rebuild had to read the whole file again, when a previous build was given. */
  readonly fallback?: string
  /** Lines read by this build (blank and bad ones included). */
  readonly linesRead: number
  /** Context messages converted and counted by this build. */
  readonly messagesConverted: number
}

/** Ids seen so far, in a few shared layers so a rebuild never copies them all. */
export type IdLayers = ReadonlyArray<ReadonlySet<string>>

/**
 * Where a later build resumes. Treat as opaque.
 *
 * @internal
 */
export interface ResumePoint {
  readonly key: string
  readonly fingerprint: Fingerprint
  readonly nextLine: number
  /** The file ended mid-line: the next build reads it all again. */
  readonly openTail: boolean
  readonly format: SessionFormat
  readonly parse: ParseState
  readonly ids: IdLayers
  /** Parent ids that pointed nowhere: if one appears later, the tree changes shape. */
  readonly dangling: ReadonlySet<string>
  /** Entries below the leaf but not on its branch (Claude Code progress lines after the leaf). */
  readonly below: ReadonlyArray<Entry>
  /** The leaf's timestamp (Claude Code picks the newest leaf). */
  readonly leafTimestamp?: number
  readonly prepared: ReadonlyArray<Prepared>
  /** Where pairing the prepared turns can resume. */
  readonly paired: PairPoint
  readonly loadDiagnostics: ReadonlyArray<Diagnostic>
}

/** A built session. */
export interface SessionBuild {
  readonly file: string
  readonly format: SessionFormat
  readonly context: BranchContext
  readonly history: History
  /** Every problem found so far: bad lines, duplicate ids, missing parents, then the branch's. */
  readonly diagnostics: ReadonlyArray<Diagnostic>
  readonly stats: BuildStats
  /**
   * Where the next build resumes; pass the whole build to `rebuildSession`.
   *
   * @internal
   */
  readonly resume: ResumePoint
  /** The history in the one report vocabulary: `explain(build)` and `renderReport(build)` read it. */
  readonly report: Report<ReadonlyArray<ChatMessage>>
  /** The branch's oldest entries, never converted or counted: a build with `reach` did not need them. */
  readonly unread?: Unread
}

/**
 * A build with its report, made from its history and diagnostics (so a rebuild's report is
 * never stale).
 *
 * @category utils
 */
export const withReport = (b: Omit<SessionBuild, 'report'>, exact: boolean): SessionBuild => {
  // made when first read, then kept (the exception to plain data written in docs/CONVENTIONS.md, with its measurement): for a long history the report costs more than a
  // rebuild after one appended turn, and most rebuilds only feed a window to the next build.
  // Every reader (a spread, JSON, toEqual) sees the same value an eager report would have.
  let made: Report<ReadonlyArray<ChatMessage>> | undefined
  const report = (): Report<ReadonlyArray<ChatMessage>> =>
    (made ??= sessionReport({ file: b.file, format: b.format, history: b.history, diagnostics: b.diagnostics, exact }))
  return Object.defineProperty({ ...b }, 'report', { enumerable: true, get: report }) as SessionBuild
}

/** The options that change a build's result; a rebuild with other options starts afresh. */
export const optionsKey = (o: SessionBuildOptions): string =>
  JSON.stringify([o.format ?? null, o.includeMeta ?? true, o.strict ?? false, o.target ?? null, o.crossModelThinking ?? 'text', o.tokenizer.name, o.leaf === undefined ? '<default>' : o.leaf, o.withNextPrompt ?? false, o.reach === undefined ? null : [o.reach.budget, o.reach.cap ?? null]])

/** Adds ids as a new layer, folding all layers into one every 8 so lookups stay O(1). */
export const addIds = (layers: IdLayers, ids: Iterable<string>): IdLayers => {
  const layer = new Set(ids)
  if (layer.size === 0) return layers
  if (layers.length < 8) return [...layers, layer]
  const all = new Set<string>()
  for (const l of layers) for (const id of l) all.add(id)
  for (const id of layer) all.add(id)
  return [all]
}

/** Whether an id is in any layer. */
export const hasId = (layers: IdLayers, id: string): boolean => layers.some((l) => l.has(id))

/**
 * Entries after the leaf (in file order) that hang below it without being on its branch.
 * Only the session's default leaf needs them: the next default leaf may grow from them.
 */
export const belowLeaf = (entries: ReadonlyArray<Entry>, leafId: string | null, onPath: (id: string) => boolean): ReadonlyArray<Entry> => {
  if (leafId === null) return []
  const under = new Set([leafId])
  const out: Entry[] = []
  for (const e of entries)
    if (e.parentId !== null && under.has(e.parentId) && !onPath(e.id)) {
      under.add(e.id)
      out.push(e)
    }
  return out
}

