/**
 * A branch's history as far as a budget reaches: its newest turns converted and counted,
 * the older entries never converted.
 *
 * A session loaded as stubs (`stub.ts`) knows its tree but not its messages. The branch is
 * walked as usual; then its context entries are read again from the end, a growing slice at
 * a time, converted and counted, until the turns read add up to more than the budget (the
 * window stops inside them, {@link reachStart}). The history then starts at the first user
 * turn of the slice: a user turn closes any call awaiting results and never merges into the
 * turn before it, so every turn from it on is exactly what converting the whole branch
 * gives, and so is the window. The entries before it are {@link Unread}.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type { InputError } from '../error.js'
import { createTokenCache } from '../tokenize/cache.js'
import { appendEntry, contextEntries, modelOf, settingsOf } from './context.js'
import { pairFrom, prepareFrom, type HistoryOptions, type Paired, type Prepared } from './history.js'
import { counter } from './items.js'
import type { BranchContext, ContextMessage, Entry, LoadedSession, ModelRef, Unread } from './model.js'
import { isStub, type ReadEntries } from './stub.js'
import { walk } from './tree.js'
import { reachStart } from './window.js'

/** How far back a build can reach: its available budget and per-item cap (as the window takes them). */
export interface Reach {
  readonly budget: number
  readonly cap?: number
}

/** The reached part of a branch: its context (messages from the first reached turn), history and what was never read. */
export interface Reached {
  readonly context: BranchContext
  readonly prepared: ReadonlyArray<Prepared>
  readonly paired: Paired
  readonly unread?: Unread
}

// the first slice read: this many bytes of lines per budget token, at least FIRST_BYTES
const BYTES_PER_TOKEN = 16
const FIRST_BYTES = 1 << 16

const bytesOf = (e: Entry): number => (isStub(e) ? e.bytes : 0)

/** What the entries never converted were (a compaction's entry first when its summary was not reached). */
const unreadOf = (entries: ReadonlyArray<Entry>): Unread | undefined => {
  if (entries.length === 0) return undefined
  let firstLine = Infinity
  let lastLine = 0
  let bytes = 0
  for (const e of entries) {
    firstLine = Math.min(firstLine, e.line)
    lastLine = Math.max(lastLine, e.line)
    bytes += bytesOf(e)
  }
  return { entries: entries.length, firstId: entries[0]!.id, lastId: entries[entries.length - 1]!.id, firstLine, lastLine, bytes }
}

/** The model at the end of a branch: the last entry that sets one, reading stubs back from the leaf until one does. */
const modelAt = async (path: ReadonlyArray<Entry>, read: ReadEntries, known: ReadonlyMap<Entry, Entry>): Promise<E.Either<InputError, ModelRef | null>> => {
  const BATCH = 64
  for (let end = path.length; end > 0; end -= BATCH) {
    const slice = path.slice(Math.max(0, end - BATCH), end)
    const unknown = slice.filter((e) => isStub(e) && !known.has(e))
    const got = await read(unknown)
    if (E.isLeft(got)) return got
    const fresh = new Map(unknown.map((e, i) => [e, got.right[i]!] as const))
    for (let i = slice.length - 1; i >= 0; i--) {
      const e = slice[i]!
      const m = modelOf(known.get(e) ?? fresh.get(e) ?? e)
      if (m !== undefined) return E.right(m)
    }
  }
  return E.right(null)
}

/**
 * The branch ending at `leaf`, converted and counted as far as `reach` goes (see the module
 * comment). Reads stubs with `read`; a session without stubs is read from memory.
 *
 * @category constructors
 */
export const reachedContext = async (
  session: LoadedSession,
  leaf: Entry,
  read: ReadEntries,
  reach: Reach,
  options: HistoryOptions,
): Promise<E.Either<InputError, Reached>> => {
  const { path, diagnostics } = walk(session.byId, leaf, session.file)
  const { compactionAt, model: _fromStubs, ...settings } = settingsOf(path)
  const { summary, entries: seq, compaction } = contextEntries(path, compactionAt)
  // slices are read again as the reach grows: a cache keeps each text tokenized once
  const count = counter(options.tokenizer, options.cache ?? createTokenCache())
  const known = new Map<Entry, Entry>()
  let from = seq.length
  let got: ReadonlyArray<Entry> = []
  let target = Math.max(FIRST_BYTES, reach.budget * BYTES_PER_TOKEN)
  for (;;) {
    let f = from
    for (let acc = 0; f > 0 && acc < target; ) acc += bytesOf(seq[--f]!)
    const more = await read(seq.slice(f, from))
    if (E.isLeft(more)) return more
    more.right.forEach((e, i) => known.set(seq[f + i]!, e))
    got = [...more.right, ...got]
    from = f
    const messages: ContextMessage[] = from === 0 && summary !== undefined ? [summary] : []
    for (const e of got) appendEntry(messages, e)
    const prepared = prepareFrom(messages, 0, options, count)
    // the first user turn: from it on, conversion and pairing are those of the whole branch
    const q = from === 0 ? 0 : prepared.findIndex((p) => p.item?.message.role === 'user')
    if (q >= 0) {
      const tail = prepared.slice(q)
      const paired = pairFrom(tail, count)
      if (from === 0 || reachStart(paired.items, { ...reach, tokenizer: options.tokenizer }) > 0) {
        const firstRead = from === 0 ? 0 : from + got.findIndex((e) => e.id === messages[q]!.entryId)
        const unread = unreadOf([...(from > 0 && compaction !== undefined ? [path[compactionAt]!] : []), ...seq.slice(0, firstRead)])
        const model = await modelAt(path, read, known)
        if (E.isLeft(model)) return model
        const context: BranchContext = {
          file: session.file,
          format: session.format,
          leafId: leaf.id,
          path: path.map((e) => e.id),
          messages: messages.slice(q),
          ...settings,
          model: model.right,
          ...(compaction === undefined ? {} : { compaction }),
          diagnostics,
        }
        return E.right({ context, prepared: tail, paired, ...(unread === undefined ? {} : { unread }) })
      }
    }
    target *= 2
  }
}
