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
import { match } from 'ts-pattern'
import type { GsscError } from '../error.js'
import { messageText, type Origin } from '../message.js'
import type { PacketInput } from '../packet.js'
import type { Warning } from '../phase.js'
import { buildSession, type SessionBuild } from '../session/build.js'
import type { HistoryItem, Repair } from '../session/items.js'
import { historyPackets } from '../session/packets.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { gatherer, type Gatherer } from './gatherer.js'
import { capPacket, itemCapOf } from './itemCap.js'

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
  /** Cut any turn longer than this many tokens to its head and tail (the per-item cap; the gatherer takes the build's). */
  readonly maxItemTokens?: number
}

/** A session's packets, what the file said, its last user turn (the task when none is given), and the build. */
export interface SessionGathered {
  readonly packets: ReadonlyArray<PacketInput>
  readonly warnings: ReadonlyArray<Warning>
  readonly task?: { readonly itemId: string; readonly text: string }
  readonly build: SessionBuild
}

const MAX_IDS = 4

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
 * @since 0.2.0
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

/** The session's last user turn, the task when none is given (not a gssc or agent-made turn). */
const lastUserTurn = (items: ReadonlyArray<HistoryItem>): HistoryItem | undefined =>
  items.findLast((i) => i.message.role === 'user' && i.kind !== 'synthetic' && i.kind !== 'meta')

/**
 * Reads a session file's branch as packets and warnings: the one path from a session file to
 * packets (the gatherer and the CLI both take it).
 *
 * @category utils
 * @since 0.2.0
 */
export const sessionGathering = (file: string, tokenizer: Tokenizer, options: SessionGatherOptions = {}): TE.TaskEither<GsscError, SessionGathered> =>
  pipe(
    buildSession(file, {
      tokenizer,
      withNextPrompt: options.withNextPrompt ?? false,
      ...(options.leaf === undefined ? {} : { leaf: options.leaf }),
      ...(options.target === undefined ? {} : { target: options.target }),
    }),
    TE.map((b): SessionGathered => {
      const name = options.name ?? file
      const task = lastUserTurn(b.history.items)
      const source = `${b.format}:${name}`
      return {
        packets: historyPackets({ source, metadata: { file: options.path ?? file, format: b.format, leafId: b.context.leafId } })(b.history.items).map((p) =>
          capPacket(p, options.maxItemTokens, tokenizer),
        ),
        warnings: [
          ...b.diagnostics.map((d): Warning => ({ _tag: 'SourceProblem', source: name, line: d.line, message: d.reason })),
          ...groupedRepairs(b.history.repairs, options.target).map((message): Warning => ({ _tag: 'SourceProblem', source: name, message })),
        ],
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
    return { packets: r.right.packets, excluded: [], warnings: r.right.warnings }
  })
