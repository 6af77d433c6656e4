/**
 * Reading the CLI's input files. Every problem names the file and, for line-based files,
 * the line: `history.jsonl:12: role: must be one of …`.
 *
 * @module
 */
import { readFile } from 'node:fs/promises'
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { describeThrown, inputError, show, type InputError } from '../error.js'
import type { PacketInput } from '../packet.js'
import type { SimpleMessage } from '../phase.js'
import { packetProblem, validateRequest } from '../request.js'

/** Reads a UTF-8 text file; a missing or unreadable file is an error naming it. */
export const readText =
  (path: string): TE.TaskEither<InputError, string> =>
  async () => {
    try {
      return E.right(await readFile(path, 'utf8'))
    } catch (e) {
      const code = (e as { code?: string }).code
      return E.left(inputError(path, code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a file' : describeThrown(e)))
    }
  }

/** A value given as text or as `@file`. */
export const textOrFile = (value: string): TE.TaskEither<InputError, string> =>
  value.startsWith('@') ? readText(value.slice(1)) : async () => E.right(value)

/** The 1-based line of a character offset. */
const lineAt = (text: string, offset: number): number => text.slice(0, offset).split('\n').length

/**
 * Parses JSON Lines: one value per non-blank line. Bad JSON is an error naming the line.
 *
 * @category utils
 */
export const parseJsonLines = (path: string, text: string): E.Either<InputError, ReadonlyArray<readonly [number, unknown]>> => {
  const values: Array<readonly [number, unknown]> = []
  const lines = text.split('\n')
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim()
    if (line === '') continue
    try {
      values.push([i + 1, JSON.parse(line)])
    } catch (e) {
      return E.left(inputError(path, `not valid JSON (${describeThrown(e)})`, i + 1))
    }
  }
  return E.right(values)
}

/**
 * Parses a file holding either one JSON array or JSON Lines, returning each value with its
 * line number (for an array, the line where the element starts is not tracked: 1-based
 * element positions are reported as `[i]` instead).
 *
 * @category utils
 */
const parseArrayOrLines = (path: string, text: string): E.Either<InputError, ReadonlyArray<readonly [string, unknown]>> => {
  const trimmed = text.trimStart()
  if (trimmed.startsWith('[')) {
    try {
      const value: unknown = JSON.parse(text)
      if (!Array.isArray(value)) return E.left(inputError(path, 'must be a JSON array or JSON Lines'))
      return E.right(value.map((v, i) => [`${path}: [${i}]`, v] as const))
    } catch (e) {
      const at = /position (\d+)/.exec(describeThrown(e))
      return E.left(inputError(path, `not valid JSON (${describeThrown(e)})`, at === null ? undefined : lineAt(text, Number(at[1]))))
    }
  }
  return E.map((rows: ReadonlyArray<readonly [number, unknown]>) => rows.map(([line, v]) => [`${path}:${line}`, v] as const))(
    parseJsonLines(path, text),
  )
}

/**
 * A history file: a JSON array or JSON Lines of `{ role, content, timestamp? }`.
 *
 * @category utils
 */
export const parseHistory = (path: string, text: string): E.Either<InputError, ReadonlyArray<SimpleMessage>> => {
  const rows = parseArrayOrLines(path, text)
  if (E.isLeft(rows)) return rows
  const messages: SimpleMessage[] = []
  for (const [where, value] of rows.right) {
    const checked = validateRequest({ query: '', history: [value] })
    if (E.isLeft(checked)) return E.left({ ...checked.left, message: `${where}: ${checked.left.message.replace(/^history\[0\]\.?/, '').replace(/^: /, '')}` })
    messages.push(value as SimpleMessage)
  }
  return E.right(messages)
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
    if (problem !== undefined) return E.left(inputError(path, `${problem[0] === '' ? 'packet' : problem[0].slice(1)}: ${problem[1]}`, line))
    const p = value as PacketInput
    if (p.id !== undefined) {
      const first = lineOfId.get(p.id)
      if (first !== undefined) return E.left(inputError(path, `id ${show(p.id)} is already used on line ${first}`, line))
      lineOfId.set(p.id, line)
    }
    packets.push(p)
  }
  return E.right(packets)
}
