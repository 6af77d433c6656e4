/**
 * Entries held without their messages, read again only when a build reaches them.
 *
 * A build with a budget (`reach`) needs every entry's place in the tree (id, parent, line)
 * but the messages of only the newest turns, so a long session is loaded as stubs: each
 * line is parsed and checked once (every diagnostic still comes from that pass), then its
 * messages are let go and only where the line sits in the file is kept. The turns the
 * budget reaches are read again from those bytes, newest first. Claude Code transcripts are
 * never stubbed: Claude Code rebuilds a branch from lines anywhere in the file.
 *
 * @module
 */
import { open } from 'node:fs/promises'
import * as E from 'fp-ts/lib/Either.js'
import { describeThrown, inputError, type InputError } from '../error.js'
import type { AdapterOptions, ParseState } from './formats/adapter.js'
import { ADAPTERS } from './formats/index.js'
import { parseObject } from './lines.js'
import { entry, type Entry, type EntryBody, type SessionFormat } from './model.js'

/** Whether a scan keeps message bodies (default) or stubs (see the module comment). */
export interface StubOptions {
  readonly stub?: boolean
}

/** A message entry without its messages: where its line is in the file. */
export interface Stub extends Entry {
  /** Byte offset of the line. */
  readonly at: number
  /** Its length in bytes, newline included. */
  readonly bytes: number
}

/** Whether an entry's messages must be read again before use. */
export const isStub = (e: Entry): e is Stub => 'at' in e

/**
 * An entry as a scan keeps it in stub mode: a message entry becomes a {@link Stub} whose
 * body (kind and merge key, no messages) is shared by all stubs alike, through `shared`,
 * which the caller owns; any other entry is kept whole.
 *
 * @category constructors
 */
export const stubbed = (e: Entry, at: number, bytes: number, shared: Map<string, EntryBody>): Entry => {
  const b = e.body
  if (b._tag !== 'Message') return e
  const key = `${b.kind}\u0000${b.mergeKey ?? ''}`
  let body = shared.get(key)
  if (body === undefined) {
    body = { _tag: 'Message', kind: b.kind, messages: [], ...(b.mergeKey === undefined ? {} : { mergeKey: b.mergeKey }) }
    shared.set(key, body)
  }
  // field by field, not a spread: this runs once per message line of a long file
  const stub: { -readonly [K in keyof Stub]: Stub[K] } = { id: e.id, parentId: e.parentId, line: e.line, body, leafCandidate: e.leafCandidate, at, bytes }
  if (e.timestamp !== undefined) stub.timestamp = e.timestamp
  if (e.thread !== undefined) stub.thread = e.thread
  return stub
}

/** Reads stubs' messages again: the entries in the order given, whole. */
export type ReadEntries = (entries: ReadonlyArray<Entry>) => Promise<E.Either<InputError, ReadonlyArray<Entry>>>

/** How the file was read the first time: its format, the parse state at its end, the adapter options. */
export interface Reading {
  readonly file: string
  readonly format: SessionFormat
  readonly state: ParseState
  readonly options: AdapterOptions
}

const changed = (file: string, line: number): InputError =>
  inputError(file, 'this line changed since gssc first read it (the file was rewritten during the build); run the build again', line)

/** The entry a stub's line gives again, or why it does not. */
const reread = (r: Reading, s: Stub, text: string): E.Either<InputError, Entry> => {
  const parsed = parseObject(text)
  if ('reason' in parsed) return E.left(changed(r.file, s.line))
  // the body depends on the format version only; pi v1 ids come from the line's index, the others from the line
  const out = ADAPTERS[r.format].step({ index: 1, lastId: s.parentId, version: r.state.version }, parsed.value, s.line, r.options).out
  const got = out.find((o) => o._tag === 'Entry')
  const v1 = r.format === 'pi' && r.state.version < 2
  if (got?._tag !== 'Entry' || (!v1 && got.entry.id !== s.id) || got.entry.body._tag !== 'Message') return E.left(changed(r.file, s.line))
  return E.right(entry({ id: s.id, parentId: s.parentId }, s.line, s.timestamp, got.entry.body, s.leafCandidate, s.thread))
}

// lines closer than this are read in one piece rather than one read each
const GAP = 1 << 16

/**
 * Reads the given entries' stubs again from the file, in as few reads as their places allow
 * (neighbouring lines in one read). Entries that are not stubs come back as they are.
 *
 * @category constructors
 */
export const entryReader =
  (r: Reading): ReadEntries =>
  async (entries) => {
    const stubs = entries.filter(isStub).sort((a, b) => a.at - b.at)
    if (stubs.length === 0) return E.right(entries)
    const read = new Map<Stub, Entry>()
    let handle
    try {
      handle = await open(r.file, 'r')
      for (let i = 0; i < stubs.length; ) {
        // one read for a run of lines with small gaps between them
        let j = i + 1
        while (j < stubs.length && stubs[j]!.at - (stubs[j - 1]!.at + stubs[j - 1]!.bytes) <= GAP) j++
        const from = stubs[i]!.at
        const to = stubs[j - 1]!.at + stubs[j - 1]!.bytes
        const buf = Buffer.allocUnsafe(to - from)
        const { bytesRead } = await handle.read(buf, 0, to - from, from)
        for (let k = i; k < j; k++) {
          const s = stubs[k]!
          const start = s.at - from
          let end = Math.min(start + s.bytes, bytesRead)
          while (end > start && (buf[end - 1] === 0x0a || buf[end - 1] === 0x0d)) end--
          const e = reread(r, s, buf.toString('utf8', start, end))
          if (E.isLeft(e)) return e
          read.set(s, e.right)
        }
        i = j
      }
    } catch (e) {
      return E.left(inputError(r.file, `cannot read the file: ${describeThrown(e)}`))
    } finally {
      await handle?.close()
    }
    return E.right(entries.map((e) => (isStub(e) ? read.get(e)! : e)))
  }
