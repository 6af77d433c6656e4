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
  let offset = from.start ?? 0
  let line = from.firstLine ?? 1
  // pieces of the current line; joined once at its newline, so a long line costs O(length)
  let pieces: Buffer[] = []
  const stream = createReadStream(file, { start: offset, highWaterMark: from.chunkSize ?? 1 << 20 })
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const batch: RawLine[] = []
    let from0 = 0
    for (let nl = chunk.indexOf(NEWLINE, from0); nl !== -1; nl = chunk.indexOf(NEWLINE, from0)) {
      pieces.push(chunk.subarray(from0, nl))
      offset += nl - from0 + 1
      batch.push({ text: decode(pieces), line, end: offset, terminated: true })
      line++
      pieces = []
      from0 = nl + 1
    }
    if (from0 < chunk.length) {
      // copied: a stream may reuse its buffer for the next chunk
      pieces.push(Buffer.from(chunk.subarray(from0)))
      offset += chunk.length - from0
    }
    if (batch.length > 0) yield batch
  }
  if (pieces.length > 0) yield [{ text: decode(pieces), line, end: offset, terminated: false }]
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
