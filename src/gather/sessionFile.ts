/**
 * The session gatherer's first step: a session file's branch, read, rebuilt as the agent
 * rebuilds it, converted and counted, with the point a later build resumes from. The one
 * path from a session file to a history: the gatherer (`./session.ts`) makes packets of it,
 * and `buildSession` (`session/build.ts`) is this read with its report.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { describeThrown, inputError, type InputError } from '../error.js'
import { belowLeaf, optionsKey, type SessionBuild, type SessionBuildOptions } from '../session/built.js'
import { branchContext, emptyContext, leafOf, strictly } from '../session/context.js'
import type { ParseState } from '../session/formats/adapter.js'
import { fingerprint, statOf } from '../session/fingerprint.js'
import { pairFrom, prepareFrom, type History, type PairPoint, type Prepared } from '../session/history.js'
import { counter, type Repair } from '../session/items.js'
import { loadWithScan } from '../session/load.js'
import type { BranchContext, LoadedSession, Unread } from '../session/model.js'
import { reachedContext } from '../session/reach.js'
import { entryReader } from '../session/stub.js'

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
 * Reads a session file from scratch: its branch converted and counted, and where a later
 * build resumes; everything a {@link SessionBuild} holds but its report.
 *
 * @example
 * const read = await readSessionFile('session.jsonl', { tokenizer })()
 * // Right({ context, history: { items, repairs }, diagnostics, stats: { mode: 'full', … }, resume })
 * @category constructors
 * @since 0.2.0
 */
export const readSessionFile =
  (file: string, options: SessionBuildOptions, fallback?: string): TE.TaskEither<InputError, Omit<SessionBuild, 'report'>> =>
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
    return E.right(built)
  }
