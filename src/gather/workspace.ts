/**
 * An agent workspace folder (nanobot style: bootstrap files, memory, skills) as a gatherer:
 * one packet per part of its system prompt (instructions P0, memory P1, skills P2, history
 * entries P3), laid out by the `nanobot()` layout or any other. Files that are missing and
 * skills that cannot be used come back as `SourceProblem` warnings. Reads a folder: Node only
 * (exported from `gssc/workspace` and `gssc/node`).
 *
 * ```ts
 * build({ query: 'What is on my calendar?' }, { gatherers: [workspace('~/.nanobot/workspace', { prompt: { channel: 'cli' } })], structurer: nanobot() })
 * ```
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { GsscError } from '../error.js'
import type { PacketInput } from '../packet.js'
import type { Warning } from '../phase.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { loadWorkspace, type LoadOptions } from '../workspace/load.js'
import type { Workspace } from '../workspace/model.js'
import type { PromptOptions } from '../workspace/options.js'
import { workspacePackets } from '../workspace/packets.js'
import { gatherer, type Gatherer } from './gatherer.js'

/** How the workspace is read, and how its prompt parts are made (the tokenizer is the build's). */
export interface WorkspaceGatherOptions {
  readonly load?: LoadOptions
  readonly prompt?: Omit<PromptOptions, 'tokenizer'>
  /** The folder's name in warnings; default the path as given. */
  readonly name?: string
}

/** A workspace's packets, what it said, and the workspace itself. */
export interface WorkspaceGathered {
  readonly packets: ReadonlyArray<PacketInput>
  readonly warnings: ReadonlyArray<Warning>
  readonly workspace: Workspace
}

/**
 * Reads a workspace folder as packets and warnings: the one path from a workspace to packets
 * (the gatherer and the CLI both take it).
 *
 * @category utils
 * @since 0.2.0
 */
export const workspaceGathering = (dir: string, tokenizer: Tokenizer, options: WorkspaceGatherOptions = {}): TE.TaskEither<GsscError, WorkspaceGathered> =>
  pipe(
    loadWorkspace(dir, options.load),
    TE.chainEitherKW((ws) =>
      E.map((packets: ReadonlyArray<PacketInput>): WorkspaceGathered => {
        const source = options.name ?? dir
        return {
          packets,
          warnings: [
            ...ws.missing.map((f): Warning => ({ _tag: 'SourceProblem', source, message: `${f} not found` })),
            ...ws.problems.map((p): Warning => ({ _tag: 'SourceProblem', source, message: p.message })),
          ],
          workspace: ws,
        }
      })(workspacePackets(ws, { ...options.prompt, tokenizer } as PromptOptions)),
    ),
  )

/**
 * A workspace folder as a gatherer (see the module comment).
 *
 * @example
 * build({ query }, { gatherers: [workspace('./ws', { prompt: { channel: 'cli', chatId: 'direct' } })], structurer: nanobot() })
 * @category constructors
 * @since 0.2.0
 */
export const workspace = (dir: string, options: WorkspaceGatherOptions = {}): Gatherer =>
  gatherer('workspace', async ({ tokenizer }) => {
    const r = await workspaceGathering(dir, tokenizer, options)()
    if (r._tag === 'Left') throw new Error(r.left.message)
    return { packets: r.right.packets, excluded: [], warnings: r.right.warnings }
  })
