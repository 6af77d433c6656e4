/**
 * One pass over a session file's lines (from the start, or from where an earlier pass
 * stopped): parse each line once, detect the format on the first line that tells, and hand
 * each object to the format's adapter. Bad lines become diagnostics; nothing throws.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { describeThrown, inputError, type InputError } from '../error.js'
import { INITIAL_STATE, type AdapterOptions, type ParseState } from './formats/adapter.js'
import type { Json } from './formats/fields.js'
import { ADAPTERS, detectFormat } from './formats/index.js'
import { parseObject, readLines, type RawLine } from './lines.js'
import type { Diagnostic, Entry, EntryBody, SessionFormat } from './model.js'
import { stubbed, type StubOptions } from './stub.js'

/** Where to start, and what is already known from an earlier pass. */
export interface ScanFrom {
  readonly start: number
  readonly firstLine: number
  readonly format?: SessionFormat
  readonly state: ParseState
}

/** What a pass found, in file order. */
export interface Scan {
  readonly format: SessionFormat | undefined
  readonly state: ParseState
  readonly entries: ReadonlyArray<Entry>
  readonly header?: Json
  readonly titles: ReadonlyArray<{ readonly leafId: string; readonly title: string }>
  readonly diagnostics: ReadonlyArray<Diagnostic>
  /** Byte offset just past the last newline read: where a later pass resumes. */
  readonly end: number
  /** The next line number after `end`. */
  readonly nextLine: number
  /** True when the file ends with a line that has no newline (a writer may be mid-line). */
  readonly openTail: boolean
}

/** The start of a file, format unknown. */
export const FROM_START: ScanFrom = { start: 0, firstLine: 1, state: INITIAL_STATE }

/**
 * Reads and parses lines. In strict mode the first problem ends the pass with an error
 * naming the file and line. `lines` are the file's lines from `from`, when the caller has
 * read them already (an incremental rebuild's appended bytes); by default they are read.
 *
 * @category constructors
 */
export const scan = async (
  file: string,
  from: ScanFrom,
  options: AdapterOptions & StubOptions & { readonly strict: boolean },
  lines: Iterable<ReadonlyArray<RawLine>> | AsyncIterable<ReadonlyArray<RawLine>> = readLines(file, { start: from.start, firstLine: from.firstLine }),
): Promise<E.Either<InputError, Scan>> => {
  let format = from.format
  let state = from.state
  let header: Json | undefined
  let end = from.start
  let nextLine = from.firstLine
  let openTail = false
  const entries: Entry[] = []
  const titles: Array<{ leafId: string; title: string }> = []
  const diagnostics: Diagnostic[] = []
  // objects read before the format is known; replayed once it is
  const pending: Array<{ readonly o: Json; readonly line: number; readonly at: number; readonly bytes: number }> = []
  // message bodies shared by every stub of one kind (see stub.ts)
  const stubs = new Map<string, EntryBody>()
  let failed: Diagnostic | undefined
  const report = (line: number, reason: string): void => {
    diagnostics.push({ file, line, reason })
    if (options.strict && failed === undefined) failed = { file, line, reason }
  }
  const feed = (o: Json, line: number, at: number, bytes: number): void => {
    // a line another format would claim, and this one would not, is not read as this format's
    const other = detectFormat(o)
    if (other !== undefined && other !== format && !ADAPTERS[format!].detect(o)) {
      report(line, `a ${other} line in a ${format!} file; skipped`)
      return
    }
    const result = ADAPTERS[format!].step(state, o, line, options)
    state = result.state
    for (const out of result.out) {
      if (out._tag === 'Entry') entries.push(options.stub === true && format !== 'claude-code' ? stubbed(out.entry, at, bytes, stubs) : out.entry)
      else if (out._tag === 'Header') header = out.header
      else if (out._tag === 'Title') titles.push({ leafId: out.leafId, title: out.title })
      else report(line, out.reason)
    }
  }
  try {
    let at = from.start
    for await (const batch of lines)
      for (const raw of batch) {
        const start = at
        at = raw.end
        if (raw.terminated) {
          end = raw.end
          nextLine = raw.line + 1
        } else openTail = true
        if (raw.text.length === 0 || (raw.text.charCodeAt(0) <= 32 && raw.text.trim() === '')) continue
        const parsed = parseObject(raw.text)
        if ('reason' in parsed) report(raw.line, raw.terminated ? parsed.reason : `truncated last line (no newline at end of file): ${parsed.reason}`)
        else if (format !== undefined) feed(parsed.value, raw.line, start, raw.end - start)
        else {
          pending.push({ o: parsed.value, line: raw.line, at: start, bytes: raw.end - start })
          format = detectFormat(parsed.value)
          if (format !== undefined) for (const p of pending.splice(0)) feed(p.o, p.line, p.at, p.bytes)
        }
        if (failed !== undefined) return E.left(inputError(file, failed.reason, failed.line))
      }
  } catch (e) {
    return E.left(inputError(file, `cannot read the file: ${describeThrown(e)}`))
  }
  if (format === undefined && pending.length > 0)
    return E.left(inputError(file, 'not a session file gssc knows: no line looks like pi, Claude Code or the seed format'))
  return E.right({ format, state, entries, ...(header === undefined ? {} : { header }), titles, diagnostics, end, nextLine, openTail })
}
