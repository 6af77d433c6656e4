/**
 * The fast BPE engine: token for token what js-tiktoken produces (`encode(text, [], [])`,
 * special-token text as plain text), without its quadratic merge or its slow table load.
 *
 * - Ranks: js-tiktoken's own tables, decoded on first use into typed arrays: a byte-keyed
 *   hash table, no string keys (`decodeRanks.ts`, `rankTable.ts`).
 * - Pieces: the encoding's own pre-tokenizer regex, without a match array per piece
 *   (`pretokenize.ts`). A piece that is itself a token costs one lookup.
 * - Merging: tiktoken's rule, by a scan over short pieces and a heap over long ones, never
 *   quadratic (`merge.ts`); adjacent-token joins are memoized (`pairCache.ts`); characters
 *   enter whole when that provably changes nothing, so a Han character is one part, not
 *   three bytes (`charTable.ts`, `pieceParts.ts`).
 * - Counting: a short piece seen before costs a hash and a compare of its code units
 *   (`pieceMemo.ts`): text repeats its pieces, Chinese words between punctuation above all.
 *
 * @module
 */
import type { Bpe, CountedEnds, EncodingName } from './bpe.js'
import { loadRanks } from './ranks.js'
import { charTable, type CharTable } from './charTable.js'
import { decodeRanks, type DecodedRanks } from './decodeRanks.js'
import { mergePiece } from './merge.js'
import { pairCache, type PairCache } from './pairCache.js'
import { initialParts } from './pieceParts.js'
import { MEMO_UNITS, pieceMemo, recall, remember, type PieceMemo } from './pieceMemo.js'
import { compileSplitter, nextPiece, type Splitter } from './pretokenize.js'
import { readRankFile } from './rankFile.js'
import { prefixHashes, rankOf, rankTable, type RankTable } from './rankTable.js'
import { scratch, type Scratch } from './scratch.js'
import { codeUnits, MAX_BYTES_PER_UNIT, utf8Into } from './utf8.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

// What one Bpe owns once loaded. Some of it changes after loading, though no result depends
// on it: the character table is built once enough non-ASCII text has been merged to pay for
// it (until then, and for text that never has any, bytes merge one by one to the same
// tokens); the pair and piece memos fill; and the scratch space is reused from piece to piece
// (allocating it per piece would dominate on short texts) and grows.
interface Engine {
  readonly tokens: () => DecodedRanks
  readonly table: RankTable
  readonly splitter: Splitter
  readonly pieceStart: Int32Array
  readonly pairs: PairCache
  readonly memo: PieceMemo
  chars: CharTable | undefined
  /** Bytes of non-ASCII pieces merged without the character table. */
  mergedWithout: number
  scratch: Scratch
  /** The code units of the text being counted (`codeUnits`), reused from text to text and grown. */
  units: Uint16Array
}

/** Scratch kept between pieces, in bytes; a longer piece gets its own, dropped after use. */
const KEPT_SCRATCH = 1 << 16

/**
 * Non-ASCII bytes to merge before building the character table: building costs about as
 * much as merging this much Chinese without it, so a short first message stays cheap while
 * long Chinese text soon runs at full speed.
 */
const CHAR_TABLE_AFTER = 1 << 16

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * An exact BPE engine for `encoding`. Cheap to call: the rank table loads on the first
 * `count`/`encode`/`tokenEnds`, in roughly a seventh of the time js-tiktoken takes to build
 * its `o200k_base` tables (a quarter for `cl100k_base`), and in a sixth of its memory.
 *
 * @example
 * const bpe = fastBpe('o200k_base')
 * bpe.count('你好，世界') // same as js-tiktoken, at many times its speed on Chinese
 * @category constructors
 * @since 0.1.0
 */
export const fastBpe = (encoding: EncodingName): Bpe => {
  let engine: Engine | undefined
  const load = (): Engine => (engine ??= createEngine(encoding))
  return {
    encoding,
    count: (text) => (text.length === 0 ? 0 : countTokens(load(), text)),
    encode: (text) => (text.length === 0 ? [] : encodeTokens(load(), text)),
    tokenEnds: (text) => (text.length === 0 ? new Int32Array(0) : tokenEnds(load(), text)),
    countEnds: (text, first, last) => countEnds(load(), text, first, last),
  }
}

/** What every engine of an encoding shares: read-only once built. */
interface Tables {
  readonly table: RankTable
  readonly pattern: string
  /** The tokens in rank order, for the character table (built on first call). */
  readonly tokens: () => DecodedRanks
}

/**
 * The read-only part of an engine, built once per encoding per process. This is the one
 * module-level memo in gssc, on purpose: "ranks load lazily, once" should hold even when a
 * caller makes a new tokenizer per build (as `build` does when given none), and even
 * reading the whole packed o200k table costs tens of milliseconds and 6 MiB. The tables are
 * never changed after they are built, only read in from their file as lookups reach them
 * (`rankPages.ts`: every byte compared is read first), so sharing them cannot change any
 * result; everything that does change (the pair and piece memos, the character table, the
 * scratch space, the splitter's position) stays per engine.
 */
const tables = new Map<EncodingName, Tables>()

/**
 * Opens an encoding's tables from the packed rank file shipped in `dist/ranks/` (Node only),
 * once per process: its small parts now, the rest as lookups reach it (`readRankFile`). False
 * when there is none, and the tables must come from js-tiktoken's rank module
 * (`loadEncoding`).
 *
 * @category loading
 * @since 0.2.0
 */
export const loadPackedTables = (encoding: EncodingName): boolean => {
  if (tables.has(encoding)) return true
  const file = readRankFile(encoding)
  if (file._tag === 'Left') return false
  tables.set(encoding, file.right)
  return true
}

const sharedTables = (encoding: EncodingName): Tables => {
  let t = tables.get(encoding)
  if (t === undefined && !loadPackedTables(encoding)) {
    const ranks = loadRanks(encoding)
    const decoded = decodeRanks(ranks.bpe_ranks)
    tables.set(encoding, (t = { table: rankTable(decoded), pattern: ranks.pat_str, tokens: () => decoded }))
  }
  return t ?? tables.get(encoding)!
}

const createEngine = (encoding: EncodingName): Engine => {
  const { tokens, table, pattern } = sharedTables(encoding)
  return {
    tokens,
    table,
    chars: undefined,
    mergedWithout: 0,
    splitter: compileSplitter(pattern, encoding),
    pieceStart: new Int32Array(1),
    pairs: pairCache(),
    memo: pieceMemo(),
    scratch: scratch(1024),
    units: new Uint16Array(1024),
  }
}

// -------------------------------------------------------------------------------------
// encoding
// -------------------------------------------------------------------------------------

// Pieces of one code unit are cheaper to tokenize than to look up; longer ones than the memo
// holds are rare and cost a merge anyway.
const countTokens = (e: Engine, text: string): number => {
  const units = unitsOf(e, text)
  let total = 0
  for (let from = 0, end: number; (end = nextPiece(e.splitter, text, units, from, e.pieceStart)) >= 0; from = end) {
    const start = e.pieceStart[0]!
    if (end - start < 2 || end - start > MEMO_UNITS) {
      total += tokenizePiece(e, scratchFor(e, end - start), units, start, end, false)
      continue
    }
    const known = recall(e.memo, units, start, end)
    if (known > 0) {
      total += known
      continue
    }
    const count = tokenizePiece(e, scratchFor(e, end - start), units, start, end, false)
    remember(e.memo, -1 - known, units, start, end, count)
    total += count
  }
  return total
}

// countTokens, adding up the pieces before `first` and from `last` on as it goes (a text
// counted with its word edges costs one pass, not three: the walk back over a history does it
// for every turn it reads)
const countEnds = (e: Engine, text: string, first: number, last: number): CountedEnds => {
  const units = unitsOf(e, text)
  let total = 0
  let head = 0
  let tail = 0
  for (let from = 0, end: number; (end = nextPiece(e.splitter, text, units, from, e.pieceStart)) >= 0; from = end) {
    const start = e.pieceStart[0]!
    let count: number
    if (end - start < 2 || end - start > MEMO_UNITS) count = tokenizePiece(e, scratchFor(e, end - start), units, start, end, false)
    else {
      const known = recall(e.memo, units, start, end)
      if (known > 0) count = known
      else {
        count = tokenizePiece(e, scratchFor(e, end - start), units, start, end, false)
        remember(e.memo, -1 - known, units, start, end, count)
      }
    }
    total += count
    if (end <= first) head += count
    if (start >= last) tail += count
  }
  return { count: total, head, tail }
}

// The code units of `text` in the engine's array (grown while texts are within the kept
// scratch's size; a longer text gets its own): every loop of a count reads them, not the string.
const unitsOf = (e: Engine, text: string): Uint16Array => {
  if (text.length <= e.units.length) return codeUnits(text, e.units)
  const units = codeUnits(text)
  if (text.length * MAX_BYTES_PER_UNIT <= KEPT_SCRATCH) e.units = units
  return units
}

const encodeTokens = (e: Engine, text: string): number[] => {
  const units = unitsOf(e, text)
  const ids: number[] = []
  for (let from = 0, end: number; (end = nextPiece(e.splitter, text, units, from, e.pieceStart)) >= 0; from = end) {
    const start = e.pieceStart[0]!
    const s = scratchFor(e, end - start)
    const count = tokenizePiece(e, s, units, start, end, false)
    for (let k = 0; k < count; k++) ids.push(s.ranks[k]!)
  }
  return ids
}

const tokenEnds = (e: Engine, text: string): Int32Array => {
  const units = unitsOf(e, text)
  let ends: Int32Array = new Int32Array(Math.max(16, text.length >> 1))
  let size = 0
  for (let from = 0, end: number; (end = nextPiece(e.splitter, text, units, from, e.pieceStart)) >= 0; from = end) {
    const start = e.pieceStart[0]!
    const s = scratchFor(e, end - start)
    const count = tokenizePiece(e, s, units, start, end, true)
    if (size + count > ends.length) ends = grown(ends, size + count)
    for (let k = 1; k <= count; k++) ends[size++] = s.units[s.pos[k]!]!
  }
  return ends.slice(0, size)
}

const grown = (a: Int32Array, min: number): Int32Array => {
  const b = new Int32Array(Math.max(min, a.length * 2))
  b.set(a)
  return b
}

// Tokenizes code units text[start..end) in `s`: returns the token count, and leaves token k as
// bytes `[s.pos[k], s.pos[k + 1])` with rank `s.ranks[k]`.
const tokenizePiece = (e: Engine, s: Scratch, text: Uint16Array, start: number, end: number, units: boolean): number => {
  const n = utf8Into(text, start, end, s.bytes, units ? s.units : undefined)
  const { table } = e
  if (n === 1) return single(s, table.byteRank[s.bytes[0]!]!, 1)
  prefixHashes(s.bytes, n, s.hash)
  const whole = rankOf(table, s.bytes, s.hash, 0, n)
  if (whole >= 0) return single(s, whole, n)
  const chars = n === end - start ? undefined : charsFor(e, n)
  return mergePiece(table, e.pairs, s, n, initialParts(table, chars, s, n))
}

const charsFor = (e: Engine, bytes: number): CharTable | undefined => {
  if (e.chars !== undefined || (e.mergedWithout += bytes) < CHAR_TABLE_AFTER) return e.chars
  e.chars = charTable(e.tokens(), e.table)
  return e.chars
}

const single = (s: Scratch, rank: number, n: number): number => {
  s.ranks[0] = rank
  s.pos[0] = 0
  s.pos[1] = n
  return 1
}

// Scratch space for a piece of `units` UTF-16 code units.
const scratchFor = (e: Engine, units: number): Scratch => {
  const bytes = units * MAX_BYTES_PER_UNIT
  if (bytes <= e.scratch.capacity) return e.scratch
  if (bytes > KEPT_SCRATCH) return scratch(bytes)
  e.scratch = scratch(Math.min(KEPT_SCRATCH, Math.max(bytes, e.scratch.capacity * 2)))
  return e.scratch
}
