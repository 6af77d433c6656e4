/**
 * The CLI's input sources beyond plain files: a session file, a workspace folder, a chunk
 * memory state, and images. Each yields packets (or parts) plus notes to print.
 *
 * @module
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pipe } from 'fp-ts/lib/function.js'
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { chunksGathering } from '../gather/chunks.js'
import { parseMemoryState } from '../chunks/parse.js'
import { inputError, type GsscError } from '../error.js'
import type { ImagePart, SimpleMessage } from '../index.js'
import { image } from '../message.js'
import type { PacketInput } from '../packet.js'
import { historyOf } from '../session/history.js'
import { historyPackets } from '../session/packets.js'
import { toChatMessage } from '../gather/builtins.js'
import type { Gatherer } from '../gather/gatherer.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { DEFAULT_MAX_IMAGE_BYTES, imagePart, sniffImage } from '../workspace/media.js'
import { parseJson } from '../json.js'
import { nameOf, readBytes, readText, STDIN } from './files.js'
import type { Io } from './io.js'
import type { WorkspaceFlags } from './workspaceFlags.js'

/** Packets from a source, and lines worth telling the user. */
export interface Sourced {
  readonly packets: ReadonlyArray<PacketInput>
  /** Gatherers to run with the build (a session's report of the turns left behind). */
  readonly gatherers?: ReadonlyArray<Gatherer>
  readonly notes: ReadonlyArray<string>
}

/** A plain history as counted history packets (for the history strategies, which need every turn). */
export const historyFilePackets = (history: ReadonlyArray<SimpleMessage>, tokenizer: Tokenizer, file: string): Sourced => {
  const h = historyOf({ tokenizer })(history.map(toChatMessage))
  return { packets: historyPackets({ source: file })(h.items), notes: h.repairs.map((r) => `${file}: repaired: ${r._tag}`) }
}

/**
 * A workspace folder's system-prompt parts as packets, read and built as the flags say. The
 * workspace reader (and its YAML parser) loads only here, so a build without `--workspace`
 * does not compile it.
 */
export const workspaceSource = (
  dir: string,
  tokenizer: Tokenizer,
  flags: WorkspaceFlags,
  io: Pick<Io, 'stdin' | 'env'>,
): TE.TaskEither<GsscError, Sourced & { readonly root: string }> =>
  pipe(
    TE.fromTask(() => Promise.all([import('./workspace.js'), import('../gather/workspace.js')])),
    TE.chainW(([{ workspaceNotes, workspaceSettings }, { workspaceGathering }]) =>
      pipe(
        workspaceSettings(flags, io),
        TE.chainW((settings) =>
          pipe(
            // the workspace gatherer's own path (gather/workspace.ts)
            workspaceGathering(dir, tokenizer, { load: settings.load, prompt: settings.prompt }),
            TE.map((g) => ({ root: g.workspace.root, packets: g.packets, notes: workspaceNotes(dir, g.workspace) })),
          ),
        ),
      ),
    ),
  )

/**
 * A chunk memory state (team9's JSON form) as packets. Chunks missing from `chunkIds` are not
 * part of the context: they are named in a note and returned as `unlisted`.
 */
export const chunkPackets = (file: string, io: Pick<Io, 'stdin'>): TE.TaskEither<GsscError, Sourced & { readonly unlisted: ReadonlyArray<string> }> =>
  pipe(
    readText(io)(file),
    TE.chainEitherKW((text) => parseJson(nameOf(file), text)),
    TE.chainEitherKW((json) => parseMemoryState(json, nameOf(file))),
    TE.map((state) => {
      // the chunks gatherer's own path (gather/chunks.ts)
      const { packets, excluded } = chunksGathering(state)
      const unlisted = excluded.map((x) => x.id)
      return {
        packets,
        unlisted,
        notes:
          unlisted.length === 0
            ? []
            : [`${nameOf(file)}: ${unlisted.length} chunk(s) in chunks but not in chunkIds, left out: ${unlisted.map((id) => JSON.stringify(id)).join(', ')}`],
      }
    }),
  )

/**
 * Local images as image parts. Paths given on the command line are the user's own: they
 * resolve against the working directory, which (with the workspace) is where they may be.
 * `-` is an image on standard input, checked the same way (size, image type).
 */
export const mediaParts = (root: string, io: Pick<Io, 'cwd' | 'stdin'>, paths: ReadonlyArray<string>): TE.TaskEither<GsscError, ReadonlyArray<ImagePart>> =>
  TE.traverseSeqArray((path: string) =>
    path === STDIN
      ? pipe(readBytes(io)(path), TE.chainEitherKW((bytes) => stdinImage(bytes)))
      : pipe(
          () => imagePart(root, resolve(io.cwd, path), { mediaRoots: [io.cwd] }),
          TE.map((part) => {
            const [head, data] = part.image_url.url.split(',', 2) as [string, string]
            return image(head.slice('data:'.length, head.indexOf(';')), data)
          }),
        ),
  )(paths)

const stdinImage = (bytes: Buffer): E.Either<GsscError, ImagePart> => {
  const mime = sniffImage(bytes)
  if (bytes.length > DEFAULT_MAX_IMAGE_BYTES) return E.left(inputError('media <stdin>', `is ${bytes.length} bytes; the image limit is ${DEFAULT_MAX_IMAGE_BYTES} bytes`))
  return mime === undefined ? E.left(inputError('media <stdin>', 'is not a PNG, JPEG, GIF or WebP image')) : E.right(image(mime, bytes.toString('base64')))
}

/**
 * A session file to read: the path itself, or for `-` standard input copied to a temporary
 * file named `stdin` (the session reader streams a file by offsets). `dispose` removes it.
 */
export const sessionFile = (path: string, io: Pick<Io, 'stdin'>): TE.TaskEither<GsscError, { readonly file: string; readonly dispose: () => Promise<void> }> =>
  path !== STDIN
    ? TE.right({ file: path, dispose: async () => undefined })
    : pipe(
        readBytes(io)(path),
        TE.chain((bytes) => async () => {
          const dir = await mkdtemp(join(tmpdir(), 'gssc-'))
          const file = join(dir, 'stdin')
          await writeFile(file, bytes)
          return E.right({ file, dispose: () => rm(dir, { recursive: true, force: true }) })
        }),
      )
