/**
 * Streaming line reader with byte offsets.
 *
 * A manual splitter over a read stream rather than node:readline, because incremental
 * rebuilds need the byte offset where each line ends, and readline does not give it. A
 * 100 MB session is read in 1 MiB chunks; only the current line is ever held as a string.
 *
 * @module
 */
import { createReadStream } from 'node:fs'

/** One line of a file, without its `\n` (and without a trailing `\r`). */
export interface RawLine {
  readonly text: string
  /** 1-based line number. */
  readonly line: number
  /** Byte offset just past this line's `\n` (or past its last byte, when unterminated). */
  readonly end: number
  /** False only for a last line with no `\n` after it: a writer may have stopped mid-line. */
  readonly terminated: boolean
}

/** Where to start reading. Defaults: the beginning of the file, line 1. */
export interface ReadFrom {
  readonly start?: number
  readonly firstLine?: number
  readonly chunkSize?: number
}

const NEWLINE = 0x0a

const decode = (pieces: ReadonlyArray<Buffer>): string => {
  const buf = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces)
  const len = buf.length > 0 && buf[buf.length - 1] === 0x0d ? buf.length - 1 : buf.length
  return buf.toString('utf8', 0, len)
}

/** Where a split stands: the next line's number, the byte offset read up to, the current line's pieces. */
interface Cursor {
  offset: number
  line: number
  // pieces of the current line; joined once at its newline, so a long line costs O(length)
  pieces: Buffer[]
}

/**
 * The lines a chunk completes, advancing `at` (the caller's own cursor). The rest of the
 * chunk after its last newline starts the next line, copied when `copyRest` (a stream may
 * reuse its buffer for the next chunk).
 */
const splitChunk = (chunk: Buffer, at: Cursor, copyRest: boolean): RawLine[] => {
  const batch: RawLine[] = []
  let from0 = 0
  for (let nl = chunk.indexOf(NEWLINE, from0); nl !== -1; nl = chunk.indexOf(NEWLINE, from0)) {
    at.pieces.push(chunk.subarray(from0, nl))
    at.offset += nl - from0 + 1
    batch.push({ text: decode(at.pieces), line: at.line, end: at.offset, terminated: true })
    at.line++
    at.pieces = []
    from0 = nl + 1
  }
  if (from0 < chunk.length) {
    at.pieces.push(copyRest ? Buffer.from(chunk.subarray(from0)) : chunk.subarray(from0))
    at.offset += chunk.length - from0
  }
  return batch
}

/** The unterminated last line a split ended with, if any. */
const openLine = (at: Cursor): ReadonlyArray<RawLine> => (at.pieces.length > 0 ? [{ text: decode(at.pieces), line: at.line, end: at.offset, terminated: false }] : [])

/**
 * Yields the lines of a file from a byte offset, a chunk's worth at a time (one await per
 * chunk, not per line). Blank lines are yielded too (callers skip them) so that line numbers
 * stay right. Rejects (through the iterator) when the file cannot be read.
 *
 * @example
 * for await (const batch of readLines('session.jsonl')) for (const l of batch) console.log(l.line, l.text)
 * @category constructors
 * @since 0.1.0
 */
export async function* readLines(file: string, from: ReadFrom = {}): AsyncGenerator<ReadonlyArray<RawLine>> {
  const at: Cursor = { offset: from.start ?? 0, line: from.firstLine ?? 1, pieces: [] }
  const stream = createReadStream(file, { start: at.offset, highWaterMark: from.chunkSize ?? 1 << 20 })
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const batch = splitChunk(chunk, at, true)
    if (batch.length > 0) yield batch
  }
  const last = openLine(at)
  if (last.length > 0) yield last
}

/**
 * The lines of bytes already read (a file's bytes from `from.start`, whose first line is
 * `from.firstLine`), split as {@link readLines} splits them: an incremental rebuild reads a
 * turn's appended bytes in one read and splits them here.
 *
 * @example
 * bufferLines(Buffer.from('{"a":1}\n{"b"'), { start: 100, firstLine: 7 }) // [{ line: 7, end: 108, terminated: true, … }, { line: 8, terminated: false, … }]
 * @category utils
 */
export const bufferLines = (bytes: Uint8Array, from: ReadFrom = {}): ReadonlyArray<RawLine> => {
  const at: Cursor = { offset: from.start ?? 0, line: from.firstLine ?? 1, pieces: [] }
  // a view, not a copy (Node types stay out of the package's declarations)
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return [...splitChunk(buf, at, false), ...openLine(at)]
}

/**
 * Parses one line as a JSON object. Returns the object, or the reason it is not one.
 *
 * @category utils
 */
export const parseObject = (text: string): { readonly value: Readonly<Record<string, unknown>> } | { readonly reason: string } => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    return { reason: `invalid JSON (${e instanceof Error ? e.message : String(e)})` }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { reason: `not a JSON object (got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value})` }
  return { value: value as Readonly<Record<string, unknown>> }
}
