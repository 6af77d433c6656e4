/**
 * One call from a session file to a counted, provider-ready history: load, rebuild the
 * branch, convert, count. The result carries a resume point, so the next turn's build can
 * read only what was appended ({@link rebuildSession}).
 *
 * Where it stands: this is the session source's loader, not a second pipeline. It fits
 * nothing (it has no budget; `reach` only bounds what is converted). The session gatherer
 * (`gather/session.ts`, `session(file)`) is this build followed by the window's packets, and a
 * budgeted session context is that gatherer through the core build's stages and the one
 * fitting engine; the session strategies (`truncate`, `compress`, `smart`) fit a build's
 * `history.items` through the same engine.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { describeThrown, inputError, type InputError } from '../error.js'
import type { ChatMessage } from '../message.js'
import type { Report } from '../report.js'
import type { TokenCache } from '../tokenize/cache.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { branchContext, emptyContext, leafOf, strictly, type ContextOptions } from './context.js'
import type { ParseState } from './formats/adapter.js'
import { fingerprint, statOf, type Fingerprint } from './fingerprint.js'
import { pairFrom, prepareFrom, type History, type HistoryOptions, type PairPoint, type Prepared } from './history.js'
import { reachedContext, type Reach } from './reach.js'
import { entryReader } from './stub.js'
import { counter, type Repair } from './items.js'
import { loadWithScan, type SessionLoadOptions } from './load.js'
import type { BranchContext, Diagnostic, Entry, LoadedSession, SessionFormat, Unread } from './model.js'
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

const danglingOf = (session: LoadedSession): ReadonlySet<string> => {
  const out = new Set<string>()
  for (const e of session.entries) if (e.parentId !== null && !session.byId.has(e.parentId)) out.add(e.parentId)
  return out
}

/** A loaded session's branch, converted and counted. */
interface Converted {
  readonly context: BranchContext
  readonly prepared: ReadonlyArray<Prepared>
  readonly resumable: PairPoint
  readonly history: History
  readonly unread?: Unread
}

/** The branch converted whole, or (with `reach`, not Claude Code) as far as the budget reaches. */
const convert = async (session: LoadedSession, state: ParseState, options: SessionBuildOptions): Promise<E.Either<InputError, Converted>> => {
  const reach = options.reach
  if (reach !== undefined && session.format !== 'claude-code') {
    const leaf = leafOf(options)(session)
    if (E.isLeft(leaf)) return leaf
    if (leaf.right === null) return E.right({ context: emptyContext(session), prepared: [], resumable: { prepared: 0, items: 0, repairs: 0 }, history: { items: [], repairs: [] } })
    const read = entryReader({ file: session.file, format: session.format, state, options: { includeMeta: options.includeMeta ?? true } })
    const r = await reachedContext(session, leaf.right, read, reach, options)
    if (E.isLeft(r)) return r
    const context = strictly(options, session.file, r.right.context)
    if (E.isLeft(context)) return context
    const { resumable, ...history } = r.right.paired
    return E.right({ context: context.right, prepared: r.right.prepared, resumable, history, ...(r.right.unread === undefined ? {} : { unread: r.right.unread }) })
  }
  const context = branchContext({
    ...(options.leaf === undefined ? {} : { leaf: options.leaf }),
    ...(options.strict === undefined ? {} : { strict: options.strict }),
    ...(options.withNextPrompt === undefined ? {} : { withNextPrompt: options.withNextPrompt }),
  })(session)
  if (E.isLeft(context)) return context
  const count = counter(options.tokenizer, options.cache)
  const prepared = prepareFrom(context.right.messages, 0, options, count)
  const { resumable, ...paired } = pairFrom(prepared, count)
  const leftOut = (context.right.omitted ?? []).map((o): Repair => ({ _tag: 'LeftOutByAgent', itemId: o.entryId, line: o.line, reason: o.reason }))
  return E.right({ context: context.right, prepared, resumable, history: leftOut.length === 0 ? paired : { ...paired, repairs: [...leftOut, ...paired.repairs] } })
}

/**
 * Builds a session from scratch (see {@link rebuildSession} for the incremental version).
 *
 * @example
 * const build = await buildSession('session.jsonl', { tokenizer })()
 * // Right({ context, history: { items, repairs }, diagnostics, stats: { mode: 'full', … }, resume })
 * @category constructors
 * @since 0.1.0
 */
export const buildSession =
  (file: string, options: SessionBuildOptions, fallback?: string): TE.TaskEither<InputError, SessionBuild> =>
  async () => {
    let before
    try {
      before = await statOf(file)
    } catch (e) {
      return E.left(inputError(file, `cannot read the file: ${describeThrown(e)}`))
    }
    const loaded = await loadWithScan(file, options, options.reach !== undefined)()
    if (E.isLeft(loaded)) return loaded
    const { session, scan } = loaded.right
    const done = await convert(session, scan.state, options)
    if (E.isLeft(done)) return done
    const { context, prepared, resumable, history, unread } = done.right
    // the branch as a set only if an entry hangs below the leaf (rare): a long branch costs a set of every id
    let path: ReadonlySet<string> | undefined
    const onPath = (id: string): boolean => (path ??= new Set(context.path)).has(id)
    const leafTimestamp = context.leafId === null ? undefined : session.byId.get(context.leafId)?.timestamp
    const below = options.leaf === undefined ? belowLeaf(session.entries, context.leafId, onPath) : []
    const read = await entryReader({ file, format: session.format, state: scan.state, options: { includeMeta: options.includeMeta ?? true } })(below)
    if (E.isLeft(read)) return read
    const built: Omit<SessionBuild, 'report'> = {
      file,
      format: session.format,
      context,
      history,
      ...(unread === undefined ? {} : { unread }),
      diagnostics: [...session.diagnostics, ...context.diagnostics],
      stats: {
        mode: 'full',
        ...(fallback === undefined ? {} : { fallback }),
        linesRead: scan.nextLine - 1 + (scan.openTail ? 1 : 0),
        messagesConverted: context.messages.length,
      },
      resume: {
        key: optionsKey(options),
        fingerprint: await fingerprint(file, before, scan.end),
        nextLine: scan.nextLine,
        openTail: scan.openTail,
        format: session.format,
        parse: scan.state,
        ids: [new Set(session.byId.keys())],
        dangling: danglingOf(session),
        below: read.right,
        ...(leafTimestamp === undefined ? {} : { leafTimestamp }),
        prepared,
        paired: resumable,
        loadDiagnostics: session.diagnostics,
      },
    }
    return E.right(withReport(built, options.tokenizer.exact))
  }
