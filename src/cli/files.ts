/**
 * Reading the CLI's input files. Every problem names the file and, where it can, the line
 * and column: `history.jsonl:12: role: must be one of …`, `state.json:4:7: not valid JSON: …`.
 * A path of `-` is standard input (`<stdin>` in messages); a BOM is dropped everywhere.
 *
 * @module
 */
import { readFile } from 'node:fs/promises'
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { findNodeAtLocation, parseTree } from 'jsonc-parser'
import { describeThrown, inputError, show, type InputError } from '../error.js'
import { parseJson, stripBom } from '../json.js'
import type { PacketInput } from '../packet.js'
import type { SimpleMessage } from '../phase.js'
import { packetProblem, turnProblem } from '../request.js'
import type { Io } from './io.js'

/** The path that means standard input, and its name in messages. */
export const STDIN = '-'
const STDIN_NAME = '<stdin>'

/** How a path is named in messages. */
export const nameOf = (path: string): string => (path === STDIN ? STDIN_NAME : path)

/** Reads a path (or `-`, standard input) as bytes; a missing or unreadable file is an error naming it. */
export const readBytes =
  (io: Pick<Io, 'stdin'>) =>
  (path: string): TE.TaskEither<InputError, Buffer> =>
  async () => {
    try {
      if (path !== STDIN) return E.right(await readFile(path))
      if (io.stdin === undefined) return E.left(inputError(STDIN_NAME, 'standard input is not available here'))
      return E.right(await io.stdin())
    } catch (e) {
      const code = (e as { code?: string }).code
      return E.left(inputError(nameOf(path), code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a file' : describeThrown(e)))
    }
  }

/** Reads a UTF-8 text (a file, or `-`), without its BOM. */
export const readText =
  (io: Pick<Io, 'stdin'>) =>
  (path: string): TE.TaskEither<InputError, string> =>
  async () =>
    E.map((b: Buffer) => stripBom(b.toString('utf8')))(await readBytes(io)(path)())

/** A value given as text or as `@file` (`@-`: standard input). */
export const textOrFile =
  (io: Pick<Io, 'stdin'>) =>
  (value: string): TE.TaskEither<InputError, string> =>
    value.startsWith('@') ? readText(io)(value.slice(1)) : async () => E.right(value)

/**
 * Parses JSON Lines: one value per non-blank line. Bad JSON is an error naming the line and
 * column.
 *
 * @category utils
 */
export const parseJsonLines = (path: string, text: string): E.Either<InputError, ReadonlyArray<readonly [number, unknown]>> => {
  const values: Array<readonly [number, unknown]> = []
  const lines = stripBom(text).split('\n')
  for (const [i, raw] of lines.entries()) {
    if (raw.trim() === '') continue
    const value = parseJson(nameOf(path), raw, i + 1)
    if (E.isLeft(value)) return value
    values.push([i + 1, value.right])
  }
  return E.right(values)
}

/** The 1-based line where element `i` of a top-level JSON array starts (only looked up for an error). */
const elementLine = (text: string, i: number): number | undefined => {
  const node = findNodeAtLocation(parseTree(text) ?? { type: 'null', offset: 0, length: 0 }, [i])
  return node === undefined ? undefined : text.slice(0, node.offset).split('\n').length
}

/**
 * A file holding either one JSON array or JSON Lines, as values with their line numbers
 * (for an array, found only when an element is at fault: `where` names it).
 */
const parseArrayOrLines = (
  path: string,
  text: string,
): E.Either<InputError, { readonly values: ReadonlyArray<unknown>; readonly where: (i: number) => { readonly line: number | undefined; readonly field: string } }> => {
  const body = stripBom(text)
  if (body.trimStart().startsWith('[')) {
    const value = parseJson(nameOf(path), body)
    if (E.isLeft(value)) return value
    if (!Array.isArray(value.right)) return E.left(inputError(nameOf(path), 'must be a JSON array or JSON Lines'))
    return E.right({ values: value.right, where: (i) => ({ line: elementLine(body, i), field: `[${i}]` }) })
  }
  return E.map((rows: ReadonlyArray<readonly [number, unknown]>) => ({ values: rows.map(([, v]) => v), where: (i: number) => ({ line: rows[i]![0], field: '' }) }))(
    parseJsonLines(path, body),
  )
}

/** An error about one value of a file: `file:line: [i].field: problem`. */
const valueError = (path: string, at: { readonly line: number | undefined; readonly field: string }, problem: readonly [string, string]): InputError => {
  const field = `${at.field}${problem[0]}`.replace(/^\./, '')
  return inputError(nameOf(path), `${field === '' ? '' : `${field}: `}${problem[1]}`, at.line)
}

/**
 * A history file: a JSON array or JSON Lines of `{ role, content, timestamp? }`.
 *
 * @category utils
 */
export const parseHistory = (path: string, text: string): E.Either<InputError, ReadonlyArray<SimpleMessage>> => {
  const rows = parseArrayOrLines(path, text)
  if (E.isLeft(rows)) return rows
  const { values, where } = rows.right
  for (let i = 0; i < values.length; i++) {
    const problem = turnProblem(values[i])
    if (problem !== undefined) return E.left(valueError(path, where(i), problem))
  }
  return E.right(values as ReadonlyArray<SimpleMessage>)
}

/**
 * A packets file: JSON Lines of `{ id?, type, content, timestamp?, source?, metadata?, priority?, relevance? }`.
 * Duplicate ids are an error naming both lines.
 *
 * @category utils
 */
export const parsePackets = (path: string, text: string): E.Either<InputError, ReadonlyArray<PacketInput>> => {
  const rows = parseJsonLines(path, text)
  if (E.isLeft(rows)) return rows
  const packets: PacketInput[] = []
  const lineOfId = new Map<string, number>()
  for (const [line, value] of rows.right) {
    const problem = packetProblem(value)
    if (problem !== undefined) return E.left(valueError(path, { line, field: '' }, problem[0] === '' ? ['packet', problem[1]] : problem))
    const p = value as PacketInput
    if (p.id !== undefined) {
      const first = lineOfId.get(p.id)
      if (first !== undefined) return E.left(inputError(nameOf(path), `id ${show(p.id)} is already used on line ${first}`, line))
      lineOfId.set(p.id, line)
    }
    packets.push(p)
  }
  return E.right(packets)
}
