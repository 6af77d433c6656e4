/**
 * Reading one text file of the workspace, safely and boundedly: the path must stay inside
 * the workspace, the file must be a regular file, and at most `limitBytes` are read (the
 * head, or for append-only logs the tail), so a runaway 1 GB log costs no more than the
 * limit.
 *
 * @module
 */
import { open, stat } from 'node:fs/promises'
import * as E from 'fp-ts/lib/Either.js'
import { inputError, type InputError } from '../error.js'
import type { WorkspaceFile } from './model.js'
import { describeFsError, realInside, relativeName, resolveLexical } from './paths.js'

/** Which end of a file over the limit to keep. */
export type ReadEnd = 'head' | 'tail'

/** How much to read. */
export interface ReadLimit {
  readonly limitBytes: number
  readonly end: ReadEnd
}

/**
 * Reads `rel` under `root` (symlink-free) as text, or `undefined` when it does not exist.
 * Refuses paths and symlinks that leave the workspace, directories and unreadable files.
 * For files of another root (the bundled skills), `prefix` goes before the file's name
 * (and in errors) and `rootName` names the root in errors.
 *
 * @example
 * await readWorkspaceFile('/ws', 'memory/MEMORY.md', { limitBytes: 8 << 20, end: 'head' })
 * // Right({ name: 'memory/MEMORY.md', path: '/ws/memory/MEMORY.md', text: '…', bytes: 120, partial: false })
 * @category utils
 */
export const readWorkspaceFile = async (
  root: string,
  rel: string,
  limit: ReadLimit,
  { prefix = '', rootName }: { readonly prefix?: string; readonly rootName?: string } = {},
): Promise<E.Either<InputError, WorkspaceFile | undefined>> => {
  const abs = resolveLexical(root, rel, prefix + rel)
  if (E.isLeft(abs)) return abs
  const located = await realInside(root, abs.right, prefix + rel, rootName)
  if (E.isLeft(located)) return located
  if (located.right._tag === 'Missing') return E.right(undefined)
  const path = located.right.path
  const name = prefix + relativeName(root, abs.right)
  try {
    const info = await stat(path)
    if (!info.isFile()) return E.left(inputError(name, info.isDirectory() ? 'is a directory, not a file' : 'is not a regular file'))
    const partial = info.size > limit.limitBytes
    const bytes = partial ? await readSlice(path, info.size, limit) : await readAll(path)
    return E.right({ name, path, text: normalise(decode(bytes, partial ? limit.end : undefined)), bytes: info.size, partial })
  } catch (e) {
    return E.left(inputError(name, describeFsError(e)))
  }
}

const readAll = async (path: string): Promise<Uint8Array> => {
  const handle = await open(path, 'r')
  try {
    return await handle.readFile()
  } finally {
    await handle.close()
  }
}

const readSlice = async (path: string, size: number, limit: ReadLimit): Promise<Uint8Array> => {
  const handle = await open(path, 'r')
  try {
    const buffer = new Uint8Array(limit.limitBytes)
    const position = limit.end === 'head' ? 0 : size - limit.limitBytes
    const { bytesRead } = await handle.read(buffer, 0, limit.limitBytes, position)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/**
 * UTF-8 text of `bytes`. A slice can start or end inside a character: the partial
 * character is dropped (and for a tail, the partial first line too) rather than shown as
 * U+FFFD.
 */
const decode = (bytes: Uint8Array, cut: 'head' | 'tail' | undefined): string => {
  if (cut === 'head') return new TextDecoder().decode(bytes.subarray(0, lastCharEnd(bytes)))
  if (cut === 'tail') {
    const text = new TextDecoder().decode(bytes.subarray(firstCharStart(bytes)))
    const newline = text.indexOf('\n')
    return newline < 0 ? text : text.slice(newline + 1)
  }
  return new TextDecoder().decode(bytes)
}

const isContinuation = (b: number): boolean => (b & 0xc0) === 0x80

const firstCharStart = (bytes: Uint8Array): number => {
  let i = 0
  while (i < bytes.length && i < 4 && isContinuation(bytes[i]!)) i++
  return i
}

/** The end of the last complete UTF-8 character. */
const lastCharEnd = (bytes: Uint8Array): number => {
  let i = bytes.length - 1
  while (i > 0 && bytes.length - i < 4 && isContinuation(bytes[i]!)) i--
  const lead = bytes[i] ?? 0
  const width = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1
  return i + width <= bytes.length ? i + width : i
}

/** Drops a BOM and turns CRLF into LF, so prompts and token counts match across platforms. */
export const normalise = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n/g, '\n')
