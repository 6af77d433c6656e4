/**
 * A session file as a gatherer: the branch an agent (pi, Claude Code, the seed format)
 * would send, rebuilt as the agent rebuilds it, counted, and made into history packets. The
 * file's problems (skipped lines, repairs) come back as `SourceProblem` warnings in the
 * build's report. Reads a file: Node only (exported from `gssc/session` and `gssc/node`).
 *
 * ```ts
 * build({ query: '' }, { gatherers: [session('run.jsonl', { leaf })], structurer: chat(), renderer: anthropicRenderer() })
 * ```
 *
 * @module
 */
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { GsscError } from '../error.js'
import { messageText, type Origin } from '../message.js'
import type { PacketInput } from '../packet.js'
import type { Exclusion, Warning } from '../phase.js'
import { withReport, type SessionBuild } from '../session/built.js'
import type { HistoryItem } from '../session/items.js'
import { sessionWarnings } from '../session/report.js'
import { windowed } from '../session/window.js'

export { groupedRepairs } from '../session/report.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { gatherer, type Gatherer } from './gatherer.js'
import { readSessionFile } from './sessionFile.js'
import { itemCapOf } from './itemCap.js'

/** Which branch, for which model, and how the packets are named. */
export interface SessionGatherOptions {
  /** The leaf; default the session's own. */
  readonly leaf?: string
  /** The model the context goes to: its own signed thinking stays thinking. */
  readonly target?: Origin
  /** A new prompt follows the history (Claude Code then adds its resume turns). Default false. */
  readonly withNextPrompt?: boolean
  /** The file's name in packet ids and warnings; default the path as given. */
  readonly name?: string
  /** The path recorded in the packets' metadata, when the file read is a copy (standard input); default the file. */
  readonly path?: string
  /** Cut any turn longer than this many tokens (the per-item cap, by its content's compressor; the gatherer takes the build's). */
  readonly maxItemTokens?: number
  /**
   * The build's available budget: only the turns it can reach become packets (a long session
   * costs what its end costs), the older ones are reported as one `over_budget` range. None:
   * every turn (a history strategy fits them all).
   */
  readonly budget?: number
}

/** A session's packets, the turns left behind, what the file said, its last user turn (the task when none is given), and the build. */
export interface SessionGathered {
  readonly packets: ReadonlyArray<PacketInput>
  readonly excluded: ReadonlyArray<Exclusion>
  readonly warnings: ReadonlyArray<Warning>
  readonly task?: { readonly itemId: string; readonly text: string }
  readonly build: SessionBuild
}

/** The session's last user turn, the task when none is given (not a gssc or agent-made turn). */
const lastUserTurn = (items: ReadonlyArray<HistoryItem>): HistoryItem | undefined =>
  items.findLast((i) => i.message.role === 'user' && i.kind !== 'synthetic' && i.kind !== 'meta')

/**
 * Reads a session file's branch as packets and warnings: the one path from a session file to
 * packets (the gatherer and the CLI both take it). The read is {@link readSessionFile}
 * (which `buildSession` takes too); the packets are the turns the budget can reach.
 *
 * @category utils
 * @since 0.2.0
 */
export const sessionGathering = (file: string, tokenizer: Tokenizer, options: SessionGatherOptions = {}): TE.TaskEither<GsscError, SessionGathered> =>
  pipe(
    readSessionFile(file, {
      tokenizer,
      withNextPrompt: options.withNextPrompt ?? false,
      ...(options.leaf === undefined ? {} : { leaf: options.leaf }),
      ...(options.target === undefined ? {} : { target: options.target }),
      // only the turns the budget reaches are converted and counted; the older are reported as one range
      ...(options.budget === undefined ? {} : { reach: { budget: options.budget, ...(options.maxItemTokens === undefined ? {} : { cap: options.maxItemTokens }) } }),
    }),
    TE.map((read): SessionGathered => {
      const b = withReport(read, tokenizer.exact)
      const name = options.name ?? file
      const task = lastUserTurn(b.history.items)
      const from = { source: `${b.format}:${name}`, metadata: { file: options.path ?? file, format: b.format, leafId: b.context.leafId } }
      const w = windowed(from, b.history.items, {
        tokenizer,
        ...(options.budget === undefined ? {} : { budget: options.budget }),
        ...(options.maxItemTokens === undefined ? {} : { cap: options.maxItemTokens }),
        ...(b.unread === undefined ? {} : { unread: b.unread }),
      })
      return {
        packets: w.packets,
        excluded: w.excluded,
        warnings: sessionWarnings(name, b.diagnostics, b.history.repairs, options.target),
        ...(task === undefined ? {} : { task: { itemId: task.id, text: messageText(task.message) } }),
        build: b,
      }
    }),
  )

/**
 * A session file as a gatherer (see the module comment).
 *
 * @example
 * build({ query: 'What next?' }, { gatherers: [session('~/.pi/sessions/run.jsonl')] })
 * @category constructors
 * @since 0.2.0
 */
export const session = (file: string, options: SessionGatherOptions = {}): Gatherer =>
  gatherer('session', async ({ tokenizer, config }) => {
    const r = await sessionGathering(file, tokenizer, { ...options, maxItemTokens: options.maxItemTokens ?? itemCapOf(config) })()
    if (r._tag === 'Left') throw new Error(r.left.message)
    return { packets: r.right.packets, excluded: r.right.excluded, warnings: r.right.warnings }
  })
