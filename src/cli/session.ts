/**
 * `--session FILE` for `gssc build`: the branch's counted history as packets, and what to
 * tell the user about it (shortly: one line per kind of repair, not one per turn).
 *
 * Packets are named after the file as the user sees it (relative to the working folder, or
 * its name), so ids in `--explain` and the HTML report stay short.
 *
 * @module
 */
import { basename, isAbsolute, relative, resolve } from 'node:path'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { match } from 'ts-pattern'
import type { GsscError } from '../error.js'
import { clean } from '../inspect/width.js'
import { messageText, type Origin } from '../message.js'
import { buildSession, type SessionBuild } from '../session/build.js'
import type { HistoryItem, Repair } from '../session/items.js'
import { historyPackets } from '../session/packets.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { nameOf, STDIN } from './files.js'
import type { Io } from './io.js'
import { sessionFile, type Sourced } from './sources.js'

/** How `--session` is read. */
export interface SessionFlags {
  readonly leaf?: string
  /** The model the context goes to (`--target-model`): its own thinking stays thinking. */
  readonly target?: Origin
  /** A `--query` follows the history (Claude Code adds its resume turns then). */
  readonly withNextPrompt: boolean
}

/** The session's packets and notes, and its last user turn (the task when there is no `--query`). */
export interface SessionSourced extends Sourced {
  readonly task?: { readonly itemId: string; readonly text: string }
}

/** A path as the user sees it: relative to the working folder when inside it, else the file's name. */
export const displayName = (path: string, cwd: string): string => {
  if (path === STDIN) return nameOf(path)
  const rel = relative(cwd, resolve(cwd, path))
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : basename(path)
}

const MAX_IDS = 4
const MAX_DIAGNOSTICS = 20

const ids = (list: ReadonlyArray<string>): string =>
  list.length <= MAX_IDS ? list.join(', ') : `${list.slice(0, MAX_IDS).join(', ')} and ${list.length - MAX_IDS} more`

/** What a kind of repair did, said once for all its cases. */
const repairText = (r: Repair, target: Origin | undefined): string =>
  match(r)
    .with({ _tag: 'DroppedFailedTurn' }, () => 'failed assistant turns (error or aborted) left out')
    .with({ _tag: 'DroppedEmptyTurn' }, () => 'empty turns left out')
    .with({ _tag: 'SyntheticResult' }, () => 'calls with no result anywhere answered "No result provided"')
    .with({ _tag: 'DroppedOrphanResult' }, () => 'results with no call before them left out')
    .with({ _tag: 'DroppedDuplicateResult' }, () => 'second results for one call left out')
    .with({ _tag: 'ThinkingConverted' }, () =>
      target === undefined ? 'thinking sent as text (name the model with --target-model to send its own thinking as thinking)' : `thinking of models other than ${target.model} sent as text`,
    )
    .with({ _tag: 'LeftOutByAgent' }, (x) => `lines the agent itself does not send (${x.reason})`)
    .exhaustive()

/** Where a repair happened: a line for what the agent left out, else the item id. */
const where = (r: Repair): string => (r._tag === 'LeftOutByAgent' ? `line ${r.line}` : r.itemId)

/**
 * Repairs grouped by what they did, one line each with the count and the first ids.
 *
 * @category utils
 */
export const groupedRepairs = (repairs: ReadonlyArray<Repair>, target?: Origin): ReadonlyArray<string> => {
  const groups = new Map<string, string[]>()
  for (const r of repairs) {
    const key = repairText(r, target)
    const list = groups.get(key)
    if (list === undefined) groups.set(key, [where(r)])
    else list.push(where(r))
  }
  return [...groups].map(([text, at]) => `${at.length} ${text}: ${ids(at)}`)
}

const lastUserTurn = (items: ReadonlyArray<HistoryItem>): HistoryItem | undefined =>
  items.findLast((i) => i.message.role === 'user' && i.kind !== 'synthetic' && i.kind !== 'meta')

const preview = (text: string, chars = 80): string => {
  const one = clean(text.replace(/\s+/g, ' ').trim())
  return one.length > chars ? `${one.slice(0, chars - 1)}…` : one
}

const notesOf = (b: SessionBuild, name: string, flags: SessionFlags, task: HistoryItem | undefined): ReadonlyArray<string> => {
  const diagnostics = b.diagnostics.map((d) => `${name}:${d.line}: ${clean(d.reason)}`)
  return [
    `session ${name}: ${b.format}, leaf ${b.context.leafId ?? '(none)'}, ${b.history.items.length} turns`,
    ...diagnostics.slice(0, MAX_DIAGNOSTICS),
    ...(diagnostics.length > MAX_DIAGNOSTICS ? [`${name}: ${diagnostics.length - MAX_DIAGNOSTICS} more problems (gssc sessions ${name} --json lists them all)`] : []),
    ...groupedRepairs(b.history.repairs, flags.target).map((line) => `session ${name}: ${line}`),
    ...(flags.withNextPrompt || task === undefined ? [] : [`session ${name}: no --query: the task is the session's own last user turn (${task.id}): "${preview(messageText(task.message))}"`]),
  ]
}

/**
 * A session file's branch as counted history packets, with notes; `-` reads standard input.
 *
 * @category constructors
 */
export const sessionPackets = (path: string, tokenizer: Tokenizer, io: Pick<Io, 'stdin' | 'cwd'>, flags: SessionFlags): TE.TaskEither<GsscError, SessionSourced> =>
  TE.bracket(
    sessionFile(path, io),
    ({ file }) =>
      pipe(
        buildSession(file, {
          tokenizer,
          withNextPrompt: flags.withNextPrompt,
          ...(flags.leaf === undefined ? {} : { leaf: flags.leaf }),
          ...(flags.target === undefined ? {} : { target: flags.target }),
        }),
        TE.map((b): SessionSourced => {
          const name = displayName(path, io.cwd)
          const task = lastUserTurn(b.history.items)
          return {
            packets: historyPackets({ source: `${b.format}:${name}`, metadata: { file: path, format: b.format, leafId: b.context.leafId } })(b.history.items),
            notes: notesOf(b, name, flags, task),
            ...(task === undefined ? {} : { task: { itemId: task.id, text: messageText(task.message) } }),
          }
        }),
      ),
    ({ dispose }) => TE.fromTask(dispose),
  )
