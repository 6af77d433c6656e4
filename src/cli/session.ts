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
import type { GsscError } from '../error.js'
import { clean } from '../inspect/width.js'
import { preview } from '../internal/preview.js'
import { messageText, type Origin } from '../message.js'
import { gatherer } from '../gather/gatherer.js'
import { sessionGathering, type SessionGathered } from '../gather/session.js'
import type { Warning } from '../phase.js'
import type { HistoryItem } from '../session/items.js'
import type { Unread } from '../session/model.js'
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
  /** The build's per-item cap, in tokens. */
  readonly maxItemTokens?: number
  /**
   * The build's available budget: only the turns it can reach become packets (a long session
   * costs what its end costs), the older ones are reported as one range. None: every turn
   * (a history strategy fits them all).
   */
  readonly budget?: number
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

const MAX_DIAGNOSTICS = 20

/** The branch's entries a budgeted build never converted, in words. */
const unreadNote = (u: Unread | undefined): string =>
  u === undefined ? '' : ` read (the ${u.entries} older entries on lines ${u.firstLine}-${u.lastLine}, ${(u.bytes / 1e6).toFixed(1)} MB, were checked but not converted: the newer turns fill the budget)`

const notesOf = (g: SessionGathered, name: string, flags: SessionFlags, task: HistoryItem | undefined): ReadonlyArray<string> => {
  const b = g.build
  const problems = g.warnings.filter((w): w is Extract<Warning, { _tag: 'SourceProblem' }> => w._tag === 'SourceProblem')
  const diagnostics = problems.filter((w) => w.line !== undefined).map((w) => `${name}:${w.line}: ${clean(w.message)}`)
  return [
    `session ${name}: ${b.format}, leaf ${b.context.leafId ?? '(none)'}, ${b.history.items.length} turns${unreadNote(b.unread)}`,
    ...diagnostics.slice(0, MAX_DIAGNOSTICS),
    ...(diagnostics.length > MAX_DIAGNOSTICS ? [`${name}: ${diagnostics.length - MAX_DIAGNOSTICS} more problems (gssc sessions ${name} --json lists them all)`] : []),
    ...problems.filter((w) => w.line === undefined).map((w) => `session ${name}: ${w.message}`),
    ...(flags.withNextPrompt || task === undefined ? [] : [`session ${name}: no --query: the task is the session's own last user turn (${task.id}): "${clean(preview(messageText(task.message), 80))}"`]),
  ]
}

/**
 * A session file's branch as counted history packets, with notes; `-` reads standard input.
 * The packets come from the session gatherer's own path (`gather/session.ts`).
 *
 * @category constructors
 */
export const sessionPackets = (path: string, tokenizer: Tokenizer, io: Pick<Io, 'stdin' | 'cwd'>, flags: SessionFlags): TE.TaskEither<GsscError, SessionSourced> =>
  TE.bracket(
    sessionFile(path, io),
    ({ file }) => {
      const name = displayName(path, io.cwd)
      return pipe(
        sessionGathering(file, tokenizer, {
          name,
          path,
          withNextPrompt: flags.withNextPrompt,
          ...(flags.maxItemTokens === undefined ? {} : { maxItemTokens: flags.maxItemTokens }),
          ...(flags.budget === undefined ? {} : { budget: flags.budget }),
          ...(flags.leaf === undefined ? {} : { leaf: flags.leaf }),
          ...(flags.target === undefined ? {} : { target: flags.target }),
        }),
        TE.map((g): SessionSourced => {
          const task = g.build.history.items.find((i) => i.id === g.task?.itemId)
          return {
            packets: g.packets,
            gatherers: g.excluded.length === 0 ? [] : [gatherer('session', () => ({ packets: [], excluded: g.excluded }))],
            notes: notesOf(g, name, flags, task),
            ...(g.task === undefined ? {} : { task: g.task }),
          }
        }),
      )
    },
    ({ dispose }) => TE.fromTask(dispose),
  )
