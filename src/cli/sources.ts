/**
 * The CLI's input sources beyond plain files: a session file, a workspace folder, a chunk
 * memory state, and images. Each yields packets (or parts) plus notes to print.
 *
 * @module
 */
import { resolve } from 'node:path'
import { pipe } from 'fp-ts/lib/function.js'
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { chunkToPackets } from '../chunks/packet.js'
import { parseMemoryState } from '../chunks/parse.js'
import { describeThrown, inputError, type GsscError } from '../error.js'
import type { ImagePart, SimpleMessage } from '../index.js'
import { image } from '../message.js'
import type { PacketInput } from '../packet.js'
import { buildSession } from '../session/build.js'
import { historyOf } from '../session/history.js'
import { historyPackets, sessionSource } from '../session/packets.js'
import { toChatMessage } from '../gather/builtins.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { loadWorkspace } from '../workspace/load.js'
import { imagePart } from '../workspace/media.js'
import { workspacePackets } from '../workspace/packets.js'
import { readText } from './files.js'

/** Packets from a source, and lines worth telling the user. */
export interface Sourced {
  readonly packets: ReadonlyArray<PacketInput>
  readonly notes: ReadonlyArray<string>
}

/** A session file's branch as counted history packets; bad lines become notes. */
export const sessionPackets = (file: string, tokenizer: Tokenizer, leaf?: string): TE.TaskEither<GsscError, Sourced> =>
  pipe(
    buildSession(file, { tokenizer, ...(leaf === undefined ? {} : { leaf }) }),
    TE.map((b) => ({
      packets: historyPackets(sessionSource(b))(b.history.items),
      notes: [
        `session ${file}: ${b.format}, leaf ${b.context.path[b.context.path.length - 1] ?? '(none)'}, ${b.history.items.length} turns`,
        ...b.diagnostics.map((d) => `${d.file}:${d.line}: skipped: ${d.reason}`),
        ...b.history.repairs.map((r) => `session ${file}: repaired: ${r._tag}`),
      ],
    })),
  )

/** A plain history as counted history packets (for the history strategies, which need every turn). */
export const historyFilePackets = (history: ReadonlyArray<SimpleMessage>, tokenizer: Tokenizer, file: string): Sourced => {
  const h = historyOf({ tokenizer })(history.map(toChatMessage))
  return { packets: historyPackets({ source: file })(h.items), notes: h.repairs.map((r) => `${file}: repaired: ${r._tag}`) }
}

/** A workspace folder's system-prompt parts as packets. */
export const workspaceSource = (
  dir: string,
  tokenizer: Tokenizer,
  session: { readonly channel?: string; readonly chatId?: string },
): TE.TaskEither<GsscError, Sourced & { readonly root: string }> =>
  pipe(
    loadWorkspace(dir),
    TE.chainEitherK((ws) =>
      E.map((packets: ReadonlyArray<PacketInput>) => ({
        root: ws.root,
        packets,
        notes: [...ws.missing.map((f) => `workspace ${dir}: ${f} not found`), ...ws.problems.map((p) => `workspace ${dir}: ${p.message}`)],
      }))(workspacePackets(ws, { tokenizer, ...(session.channel === undefined ? {} : { channel: session.channel }), ...(session.chatId === undefined ? {} : { chatId: session.chatId }) })),
    ),
  )

/** A chunk memory state (team9's JSON form) as packets. */
export const chunkPackets = (file: string): TE.TaskEither<GsscError, Sourced> =>
  pipe(
    readText(file),
    TE.chainEitherKW((text) => {
      try {
        return E.right(JSON.parse(text) as unknown)
      } catch (e) {
        return E.left(inputError(file, `not valid JSON (${describeThrown(e)})`))
      }
    }),
    TE.chainEitherKW((json) => parseMemoryState(json, file)),
    TE.map((state) => ({ packets: state.chunkIds.flatMap((id) => chunkToPackets(state.chunks.get(id)!)), notes: [] })),
  )

/**
 * Local images as image parts. Paths given on the command line are the user's own: they
 * resolve against the working directory, which (with the workspace) is where they may be.
 */
export const mediaParts = (root: string, cwd: string, paths: ReadonlyArray<string>): TE.TaskEither<GsscError, ReadonlyArray<ImagePart>> =>
  TE.traverseSeqArray((path: string) =>
    pipe(
      () => imagePart(root, resolve(cwd, path), { mediaRoots: [cwd] }),
      TE.map((part) => {
        const [head, data] = part.image_url.url.split(',', 2) as [string, string]
        return image(head.slice('data:'.length, head.indexOf(';')), data)
      }),
    ),
  )(paths)
