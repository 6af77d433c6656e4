/**
 * Incremental rebuilds: when a session file only grew and its branch only got longer, read
 * the appended bytes, and parse, convert and count only the new entries.
 *
 * Anything else is a full load, with the reason in `stats.fallback`: other options, a file
 * that was replaced, truncated or rewritten (pi rewrites a file when migrating it), a file
 * that ended mid-line, a new leaf that is not below the previous one (a branch switch), a
 * new pi compaction, an appended entry reusing a known id, or one whose id earlier entries
 * named as a missing parent. A Claude Code transcript that grew is always loaded again:
 * Claude Code rebuilds a branch from lines anywhere in the file (the side forks of parallel
 * calls), so the branch is not a function of the appended lines alone.
 *
 * Pairing tool calls with results resumes from the last turn that had no call awaiting
 * results (a result appended now can still answer a call read before).
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { describeThrown, inputError, type InputError } from '../error.js'
import { appendEntry, changeOf, modelOf } from './context.js'
import { fingerprint } from './fingerprint.js'
import { appendedBytes, growth, heldFingerprint } from './growth.js'
import { bufferLines } from './lines.js'
import { pairFrom, prepareFrom } from './history.js'
import { counter } from './items.js'
import type { ContextMessage, Entry, SettingChange } from './model.js'
import { scan } from './scan.js'
import { treeProblems } from './tree.js'
import { addIds, belowLeaf, buildSession, hasId, optionsKey, withReport, type SessionBuild, type SessionBuildOptions } from './build.js'

type Step = { readonly _tag: 'Done'; readonly build: SessionBuild } | { readonly _tag: 'Full'; readonly reason: string }

const leafTime = (t: number | undefined): { readonly leafTimestamp?: number } => (t === undefined ? {} : { leafTimestamp: t })

const full = (reason: string): Step => ({ _tag: 'Full', reason })

/** The default leaf after appending `added`, as a full load would choose it: the last entry (pi and seed files). */
const nextLeaf = (prev: SessionBuild, added: ReadonlyArray<Entry>): string | { readonly reason: string } =>
  added[added.length - 1]?.id ?? prev.context.leafId ?? { reason: 'the session had no leaf' }

/** The entries from just below the old leaf down to the new leaf, or why there is no such chain. */
const chainTo = (oldLeaf: string | null, leaf: string, pool: ReadonlyMap<string, Entry>): ReadonlyArray<Entry> | { readonly reason: string } => {
  const chain: Entry[] = []
  for (let id: string | null = leaf; id !== oldLeaf; ) {
    const e: Entry | undefined = id === null ? undefined : pool.get(id)
    if (e === undefined || chain.length > pool.size) return { reason: `the new leaf "${leaf}" is not below the previous leaf "${oldLeaf}"` }
    if (e.body._tag === 'Compaction' || e.body._tag === 'Boundary') return { reason: 'a compaction was appended' }
    chain.push(e)
    id = e.parentId
  }
  return chain.reverse()
}

const extend = async (file: string, options: SessionBuildOptions, prev: SessionBuild): Promise<E.Either<InputError, Step>> => {
  const r = prev.resume
  if (r.key !== optionsKey(options)) return E.right(full('the options changed'))
  if (r.openTail) return E.right(full('the file ended mid-line when last read'))
  let grown
  try {
    grown = growth(file, r.fingerprint)
  } catch (e) {
    return E.left(inputError(file, `cannot read the file: ${describeThrown(e)}`))
  }
  if (grown._tag === 'Changed') return E.right(full(grown.reason))
  if (grown._tag === 'Same') return E.right({ _tag: 'Done', build: { ...prev, stats: { mode: 'unchanged', linesRead: 0, messagesConverted: 0 } } })
  if (prev.format === 'claude-code') return E.right(full('a Claude Code transcript grew: its branches are rebuilt from the whole file'))
  const { stat, held } = grown
  const from = { start: r.fingerprint.end, firstLine: r.nextLine, format: r.format, state: r.parse }
  const scanOptions = { strict: options.strict ?? false, includeMeta: options.includeMeta ?? true }
  // the appended lines were read with the check when they were few; else they are streamed
  const more = await (held === undefined
    ? scan(file, from, scanOptions)
    : scan(file, from, scanOptions, [bufferLines(appendedBytes(r.fingerprint, held), { start: from.start, firstLine: from.firstLine })]))
  if (E.isLeft(more)) return more
  const added = more.right.entries
  const pool = new Map<string, Entry>(r.below.map((e) => [e.id, e]))
  for (const e of added) {
    if (hasId(r.ids, e.id) || pool.has(e.id)) return E.right(full(`an appended line reuses the id "${e.id}"`))
    if (r.dangling.has(e.id)) return E.right(full(`an appended line supplies the missing parent "${e.id}"`))
    pool.set(e.id, e)
  }
  const known = { get: (id: string) => pool.get(id), has: (id: string) => pool.has(id) || hasId(r.ids, id) }
  const dangling = added.flatMap((e) => (e.parentId !== null && !known.has(e.parentId) ? [e.parentId] : []))
  const tree = treeProblems(added, known, file)
  if (tree.cut.size > 0) return E.right(full('an appended line closes a parent cycle'))
  const newDiagnostics = [...more.right.diagnostics, ...tree.diagnostics].sort((a, b) => a.line - b.line)
  const problem = newDiagnostics.find((d) => !more.right.diagnostics.includes(d))
  if ((options.strict ?? false) && problem !== undefined) return E.left(inputError(file, problem.reason, problem.line))
  // an explicit leaf names an entry already read: its branch cannot change
  const leaf = options.leaf === undefined ? nextLeaf(prev, added) : prev.context.leafId
  if (leaf !== null && typeof leaf !== 'string') return E.right(full(leaf.reason))
  const chain = leaf === prev.context.leafId ? [] : chainTo(prev.context.leafId, leaf!, pool)
  if (!Array.isArray(chain)) return E.right(full((chain as { reason: string }).reason))

  const old = prev.context.messages
  const before = old.length
  // appending only ever merges into the last message: the new messages start from it, and the
  // branch is one copy of the old ones (spreading a long branch costs several copies)
  const tail: ContextMessage[] = old.slice(Math.max(0, before - 1))
  let { thinkingLevel, model } = prev.context
  const newChanges: SettingChange[] = []
  for (const e of chain) {
    appendEntry(tail, e)
    const change = changeOf(e)
    if (change !== undefined) newChanges.push(change)
    if (e.body._tag === 'ThinkingLevelChange') thinkingLevel = e.body.thinkingLevel
    model = modelOf(e) ?? model
  }
  const firstChanged = before > 0 && tail[0] !== old[before - 1] ? before - 1 : before
  const messages = before === 0 ? tail : old.concat(tail.slice(1))
  if (firstChanged < before) messages[firstChanged] = tail[0]!
  const changes = newChanges.length === 0 ? prev.context.changes : prev.context.changes.concat(newChanges)
  const count = counter(options.tokenizer, options.cache)
  const prepared = (firstChanged === r.prepared.length ? r.prepared : r.prepared.slice(0, firstChanged)).concat(prepareFrom(messages, firstChanged, options, count))
  // turns before the last point with no call awaiting results are final: pair only after it
  const { resumable, ...history } = pairFrom(prepared, count, r.paired.prepared <= firstChanged ? { history: prev.history, at: r.paired } : undefined)
  const path = chain.length === 0 ? prev.context.path : prev.context.path.concat(chain.map((e) => e.id))
  const context = { ...prev.context, leafId: leaf, path, messages, thinkingLevel, model, changes }
  const loadDiagnostics = newDiagnostics.length === 0 ? r.loadDiagnostics : r.loadDiagnostics.concat(newDiagnostics)
  const onPath = new Set(chain.map((e) => e.id))
  // prev's fields by name, not a spread: a spread would make prev's report, which nobody asked for
  const build: Omit<SessionBuild, 'report'> = {
    file: prev.file,
    format: prev.format,
    ...(prev.unread === undefined ? {} : { unread: prev.unread }),
    context,
    history,
    diagnostics: [...loadDiagnostics, ...prev.context.diagnostics],
    stats: { mode: 'incremental', linesRead: more.right.nextLine - r.nextLine + (more.right.openTail ? 1 : 0), messagesConverted: messages.length - firstChanged },
    resume: {
      ...r,
      fingerprint: held === undefined ? await fingerprint(file, stat, more.right.end) : heldFingerprint(r.fingerprint, stat, held, more.right.end),
      nextLine: more.right.nextLine,
      openTail: more.right.openTail,
      parse: more.right.state,
      ids: addIds(r.ids, added.map((e) => e.id)),
      dangling: dangling.length === 0 ? r.dangling : new Set([...r.dangling, ...dangling]),
      below: options.leaf === undefined ? belowLeaf([...r.below, ...added], leaf, (id) => onPath.has(id)) : [],
      ...leafTime((leaf === null ? undefined : pool.get(leaf)?.timestamp) ?? r.leafTimestamp),
      prepared,
      paired: resumable,
      loadDiagnostics,
    },
  }
  return E.right({ _tag: 'Done', build: withReport(build, options.tokenizer.exact) })
}

/**
 * Rebuilds a session after an earlier build: reads only what was appended when it can,
 * otherwise loads the file again (see the module comment for when, and `stats` for what
 * happened). Without `previous`, this is {@link buildSession}. The previous build is not
 * changed and stays valid.
 *
 * @example
 * let build = await rebuildSession(file, { tokenizer })()           // full
 * // … the agent appends a turn …
 * build = await rebuildSession(file, { tokenizer }, build.right)()  // stats.mode === 'incremental'
 * @category constructors
 * @since 0.1.0
 */
export const rebuildSession =
  (file: string, options: SessionBuildOptions, previous?: SessionBuild): TE.TaskEither<InputError, SessionBuild> =>
  async () => {
    if (previous === undefined || previous.file !== file) return buildSession(file, options)()
    const step = await extend(file, options, previous)
    if (E.isLeft(step)) return step
    return step.right._tag === 'Done' ? E.right(step.right.build) : buildSession(file, options, step.right.reason)()
  }
