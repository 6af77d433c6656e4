/**
 * One call from a session file to a counted, provider-ready history: load, rebuild the
 * branch, convert, count. The result carries a resume point, so the next turn's build can
 * read only what was appended ({@link rebuildSession}).
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
import { branchContext, type ContextOptions } from './context.js'
import type { ParseState } from './formats/adapter.js'
import { fingerprint, statOf, type Fingerprint } from './fingerprint.js'
import { pairFrom, prepareFrom, type History, type HistoryOptions, type PairPoint, type Prepared } from './history.js'
import { counter, type Repair } from './items.js'
import { loadWithScan, type SessionLoadOptions } from './load.js'
import type { BranchContext, Diagnostic, Entry, LoadedSession, SessionFormat } from './model.js'
import { sessionReport } from './report.js'

/** Everything a session build needs. */
export interface SessionBuildOptions extends SessionLoadOptions, Omit<HistoryOptions, 'tokenizer' | 'cache'> {
  readonly tokenizer: Tokenizer
  readonly cache?: TokenCache
  /** The leaf; default the session's own (pi: the last entry; Claude Code: its newest main-thread line). */
  readonly leaf?: string | null
  /** A new prompt will follow the history (see {@link ContextOptions.withNextPrompt}). Default false. */
  readonly withNextPrompt?: boolean
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
}

/**
 * A build with its report, made from its history and diagnostics (so a rebuild's report is
 * never stale).
 *
 * @category utils
 */
export const withReport = (b: Omit<SessionBuild, 'report'>, exact: boolean): SessionBuild => ({
  ...b,
  report: sessionReport({ file: b.file, format: b.format, history: b.history, diagnostics: b.diagnostics, exact }),
})

/** The options that change a build's result; a rebuild with other options starts afresh. */
export const optionsKey = (o: SessionBuildOptions): string =>
  JSON.stringify([o.format ?? null, o.includeMeta ?? true, o.strict ?? false, o.target ?? null, o.crossModelThinking ?? 'text', o.tokenizer.name, o.leaf === undefined ? '<default>' : o.leaf, o.withNextPrompt ?? false])

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
export const belowLeaf = (entries: ReadonlyArray<Entry>, leafId: string | null, onPath: ReadonlySet<string>): ReadonlyArray<Entry> => {
  if (leafId === null) return []
  const under = new Set([leafId])
  const out: Entry[] = []
  for (const e of entries)
    if (e.parentId !== null && under.has(e.parentId) && !onPath.has(e.id)) {
      under.add(e.id)
      out.push(e)
    }
  return out
}

const danglingOf = (session: LoadedSession): ReadonlySet<string> =>
  new Set(session.entries.flatMap((e) => (e.parentId !== null && !session.byId.has(e.parentId) ? [e.parentId] : [])))

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
    const loaded = await loadWithScan(file, options)()
    if (E.isLeft(loaded)) return loaded
    const { session, scan } = loaded.right
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
    const history = leftOut.length === 0 ? paired : { ...paired, repairs: [...leftOut, ...paired.repairs] }
    const path = new Set(context.right.path)
    const leafTimestamp = context.right.leafId === null ? undefined : session.byId.get(context.right.leafId)?.timestamp
    const built: Omit<SessionBuild, 'report'> = {
      file,
      format: session.format,
      context: context.right,
      history,
      diagnostics: [...session.diagnostics, ...context.right.diagnostics],
      stats: {
        mode: 'full',
        ...(fallback === undefined ? {} : { fallback }),
        linesRead: scan.nextLine - 1 + (scan.openTail ? 1 : 0),
        messagesConverted: context.right.messages.length,
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
        below: options.leaf === undefined ? belowLeaf(session.entries, context.right.leafId, path) : [],
        ...(leafTimestamp === undefined ? {} : { leafTimestamp }),
        prepared,
        paired: resumable,
        loadDiagnostics: session.diagnostics,
      },
    }
    return E.right(withReport(built, options.tokenizer.exact))
  }
