/**
 * Rebuilding a branch's context exactly as pi does (`buildSessionContext`, then
 * `convertToLlm`), for every format:
 *
 * 1. walk from the leaf to the root;
 * 2. settings: the last thinking-level change and the last model (a model change or an
 *    assistant turn) on the branch win;
 * 3. without a compaction, every entry's messages in order; with one (the last on the
 *    branch wins), its summary first, then the entries before it from `firstKeptEntryId`
 *    on (none if that id is not on the branch), then everything after it;
 * 4. branch summaries with text become user turns; consecutive assistant lines of one
 *    response (same merge key) become one turn.
 *
 * Claude Code transcripts are rebuilt by Claude Code's own rules instead (`./claude/`):
 * one turn per response wherever its lines sit, results found on side forks, and its
 * resume filters.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { inputError, show, type InputError } from '../error.js'
import type { ChatMessage } from '../message.js'
import { claudeMessages } from './claude/context.js'
import { branchSummaryMessage, compactionSummaryMessage } from './formats/piMessage.js'
import type { BranchContext, CompactionUsed, ContextMessage, Entry, LoadedSession, ModelRef, Omission, SettingChange } from './model.js'
import { walk } from './tree.js'

/** Which branch to rebuild. */
export interface ContextOptions {
  /**
   * The leaf entry id. `undefined` uses the session's default leaf; `null` gives an empty
   * context, as pi does for a leaf reset before the first entry. An id not in the file is
   * an error (pi falls back to the last entry silently; a mistyped `--leaf` should not).
   */
  readonly leaf?: string | null
  /** Fail on a branch problem (missing parent, cycle) instead of reporting it. */
  readonly strict?: boolean
  /**
   * A new prompt will follow the context (the task is not the session's own last turn).
   * Claude Code transcripts then get what Claude Code adds when it resumes with a prompt:
   * "No response requested." after a trailing user turn, and the `\n` where the prompt
   * will join a trailing user turn. Default false.
   */
  readonly withNextPrompt?: boolean
}

const merges = (prev: ContextMessage | undefined, key: string | undefined, m: ChatMessage): prev is ContextMessage =>
  prev !== undefined &&
  key !== undefined &&
  prev.mergeKey !== undefined &&
  prev.message.role === 'assistant' &&
  m.role === 'assistant' &&
  (key === '^' || key === prev.mergeKey)

/**
 * Appends the messages an entry contributes to `out`, merging a continued assistant
 * response into the turn before it. Mutates only `out`, which the caller owns.
 *
 * @category utils
 */
export const appendEntry = (out: ContextMessage[], e: Entry): void => {
  const b = e.body
  if (b._tag === 'BranchSummary' && b.summary.length > 0) {
    out.push({ entryId: e.id, kind: 'branchSummary', message: branchSummaryMessage(b.summary, e.timestamp) })
    return
  }
  if (b._tag !== 'Message') return
  for (const m of b.messages) {
    const prev = out[out.length - 1]
    if (merges(prev, b.mergeKey, m)) {
      out[out.length - 1] = {
        ...prev,
        message: {
          ...prev.message,
          ...(prev.message.origin === undefined && m.origin !== undefined ? { origin: m.origin } : {}),
          ...(m.stopReason === undefined ? {} : { stopReason: m.stopReason }),
          parts: [...prev.message.parts, ...m.parts],
        },
      }
      continue
    }
    out.push({ entryId: e.id, kind: b.kind, message: m, ...(b.mergeKey === undefined ? {} : { mergeKey: b.mergeKey }) })
  }
}

/** The model an entry sets, pi style: a model change, or any assistant turn. */
export const modelOf = (e: Entry): ModelRef | undefined => {
  // plain checks, not ts-pattern: this runs once per entry of every branch rebuilt
  const b = e.body
  if (b._tag === 'ModelChange') return { provider: b.provider, modelId: b.modelId }
  if (b._tag !== 'Message') return undefined
  // formats that do not say which model answered (the seed's) leave the model unknown
  const a = b.messages.findLast((m) => m.role === 'assistant')
  return a?.origin === undefined ? undefined : { provider: a.origin.provider ?? '', modelId: a.origin.model ?? '' }
}

/** The setting change an entry records, if any. */
export const changeOf = (e: Entry): SettingChange | undefined => {
  const at = e.timestamp === undefined ? {} : { timestamp: e.timestamp }
  return e.body._tag === 'ModelChange'
    ? { _tag: 'ModelChange', entryId: e.id, ...at, model: { provider: e.body.provider, modelId: e.body.modelId } }
    : e.body._tag === 'ThinkingLevelChange'
      ? { _tag: 'ThinkingLevelChange', entryId: e.id, ...at, thinkingLevel: e.body.thinkingLevel }
      : undefined
}

/** The settings in force at the end of a branch, and where its last compaction is (-1: none). */
export interface BranchSettings {
  readonly thinkingLevel: string
  readonly model: ModelRef | null
  readonly changes: ReadonlyArray<SettingChange>
  readonly compactionAt: number
}

/**
 * The settings of a branch, root first (see the module comment, step 2).
 *
 * @category utils
 */
export const settingsOf = (path: ReadonlyArray<Entry>): BranchSettings => {
  let thinkingLevel = 'off'
  let model: ModelRef | null = null
  let compactionAt = -1
  const changes: SettingChange[] = []
  path.forEach((e, i) => {
    const change = changeOf(e)
    if (change !== undefined) changes.push(change)
    if (e.body._tag === 'ThinkingLevelChange') thinkingLevel = e.body.thinkingLevel
    model = modelOf(e) ?? model
    if (e.body._tag === 'Compaction') compactionAt = i
  })
  return { thinkingLevel, model, changes, compactionAt }
}

/** The entries whose messages make a (non-Claude Code) branch's context, in order, after a compaction's summary. */
export interface ContextEntries {
  /** The compaction's summary turn, first. */
  readonly summary?: ContextMessage
  readonly entries: ReadonlyArray<Entry>
  readonly compaction?: CompactionUsed
}

/**
 * The entries of a pi or seed branch that give its context (step 3 of the module comment).
 *
 * @category utils
 */
export const contextEntries = (path: ReadonlyArray<Entry>, compactionAt: number): ContextEntries => {
  const c = path[compactionAt]
  if (c === undefined || c.body._tag !== 'Compaction') return { entries: path }
  const body = c.body
  const first = path.findIndex((e, i) => i < compactionAt && e.id === body.firstKeptEntryId)
  return {
    summary: { entryId: c.id, kind: 'compactionSummary', message: compactionSummaryMessage(body.summary, c.timestamp) },
    entries: [...(first >= 0 ? path.slice(first, compactionAt) : []), ...path.slice(compactionAt + 1)],
    compaction: {
      entryId: c.id,
      ...(body.firstKeptEntryId === undefined ? {} : { firstKeptEntryId: body.firstKeptEntryId }),
      tokensBefore: body.tokensBefore,
      firstKeptFound: first >= 0,
    },
  }
}

/**
 * The context of the branch ending at an entry (see the module comment for the rules).
 *
 * @category utils
 */
export const contextOf = (session: LoadedSession, leaf: Entry, options: Pick<ContextOptions, 'withNextPrompt'> = {}): BranchContext => {
  const { path, diagnostics } = walk(session.byId, leaf, session.file)
  const { compactionAt, ...settings } = settingsOf(path)
  const messages: ContextMessage[] = []
  let compaction: CompactionUsed | undefined
  let omitted: ReadonlyArray<Omission> = []
  if (session.format === 'claude-code') {
    const rebuilt = claudeMessages(session, path, leaf, options.withNextPrompt ?? false)
    messages.push(...rebuilt.messages)
    omitted = rebuilt.omitted
  } else {
    const c = contextEntries(path, compactionAt)
    if (c.summary !== undefined) messages.push(c.summary)
    for (const e of c.entries) appendEntry(messages, e)
    compaction = c.compaction
  }
  return {
    file: session.file,
    format: session.format,
    leafId: leaf.id,
    path: path.map((e) => e.id),
    messages,
    ...settings,
    ...(compaction === undefined ? {} : { compaction }),
    diagnostics,
    ...(omitted.length === 0 ? {} : { omitted }),
  }
}

/** The context of a session with no leaf: nothing, thinking off, no model (pi's answer). */
export const emptyContext = (session: LoadedSession): BranchContext => ({
  file: session.file,
  format: session.format,
  leafId: null,
  path: [],
  messages: [],
  thinkingLevel: 'off',
  model: null,
  changes: [],
  diagnostics: [],
})

/**
 * Rebuilds the context of one branch of a loaded session: the messages a model sees, in
 * order, with the settings in force at the leaf. For pi files this is exactly what pi's
 * `buildSessionContext` followed by `convertToLlm` gives.
 *
 * @example
 * pipe(session, branchContext({ leaf: 'a0000009' })) // Right({ messages: [...], thinkingLevel: 'low', ... })
 * @category constructors
 * @since 0.1.0
 */
export const branchContext =
  (options: ContextOptions = {}) =>
  (session: LoadedSession): E.Either<InputError, BranchContext> => {
    const leaf = leafOf(options)(session)
    if (E.isLeft(leaf)) return leaf
    if (leaf.right === null) return E.right(emptyContext(session))
    return strictly(options, session.file, contextOf(session, leaf.right, options))
  }

/**
 * The leaf entry a branch ends at (see {@link ContextOptions.leaf}): null for no leaf, an
 * error naming an id that is not in the file.
 *
 * @category utils
 */
export const leafOf =
  (options: Pick<ContextOptions, 'leaf'>) =>
  (session: LoadedSession): E.Either<InputError, Entry | null> => {
    const leafId = options.leaf === undefined ? session.defaultLeaf : options.leaf
    if (leafId === null) return E.right(null)
    const leaf = session.byId.get(leafId)
    return leaf === undefined ? E.left(inputError(session.file, `leaf ${show(leafId)} is not an entry id in this file (gssc sessions lists the leaves)`)) : E.right(leaf)
  }

/**
 * A context, or in strict mode the first problem met on its branch.
 *
 * @category utils
 */
export const strictly = <C extends Pick<BranchContext, 'diagnostics'>>(options: Pick<ContextOptions, 'strict'>, file: string, context: C): E.Either<InputError, C> => {
  const problem = context.diagnostics[0]
  return options.strict === true && problem !== undefined ? E.left(inputError(file, problem.reason, problem.line)) : E.right(context)
}
