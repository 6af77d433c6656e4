/**
 * An encoding's lookup table as a file, packed at build time (`scripts/bundle.mjs` writes
 * `dist/ranks/<encoding>.bin`) so that a process starts counting without parsing
 * js-tiktoken's 2.3 MB rank module, decoding its base64 and hashing 200,000 tokens.
 *
 * The file is the table itself ({@link RankTable}: bucket offsets, entries, the one- and
 * two-byte tables, then all token bytes and the pre-tokenizer pattern), so unpacking makes
 * typed views of its bytes: no pass over the tokens. On Node the file is not even read whole
 * up front: its header, direct tables and pattern are, and the rest page by page as lookups
 * reach it (`rankPages.ts`): a first count of a message reads a few dozen of o200k's 1,443
 * pages, where reading them all was most of its time.
 *
 * On Node the file is read through `process.getBuiltinModule`, so this module imports no
 * `node:` module and the core still bundles for browsers; there, and wherever the file is
 * absent (running from source, bundled elsewhere), tables come from js-tiktoken's modules.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { EncodingName } from './bpe.js'
import type { DecodedRanks } from './decodeRanks.js'
import { pages, readAll, type PagesFs } from './rankPages.js'
import { powers, type RankTable } from './rankTable.js'
import { nodeRequire } from './ranks.js'

/** A packed file, unpacked: the lookup table, the pattern, and the tokens when wanted. */
export interface UnpackedRanks {
  readonly table: RankTable
  /** The encoding's pre-tokenizer regex source. */
  readonly pattern: string
  /** The tokens in rank order (built on call: only the character table needs them). */
  readonly tokens: () => DecodedRanks
}

// 'gssr', read back as another number on a big-endian machine (the file is little-endian)
const MAGIC = 0x72737367
const VERSION = 2
const HEADER = 8 // int32: magic, version, tokens, bucket bits, token bytes, max length, pattern bytes, 0

// int32 words of each part, in file order after the header
const parts = (n: number, bits: number): ReadonlyArray<number> => [(1 << bits) + 1, 4 * n, 256, 65536]

// Bytes of a whole file, from its header's counts.
const fileSize = (n: number, bits: number, size: number, patternSize: number): number => 4 * (HEADER + parts(n, bits).reduce((a, b) => a + b, 0)) + size + patternSize

/**
 * Packs a table built by `rankTable` from `decoded` (whose ranks must be 0, 1, 2, … in file
 * order, as both shipped encodings are; anything else is a programmer error).
 *
 * @example
 * const decoded = decodeRanks(ranks.bpe_ranks)
 * const file = packRanks(decoded, rankTable(decoded), ranks.pat_str)
 * @category constructors
 * @since 0.2.0
 */
export const packRanks = (decoded: DecodedRanks, table: RankTable, pattern: string): Uint8Array => {
  const n = decoded.rank.length
  for (let t = 0; t < n; t++) if (decoded.rank[t] !== t || (t > 0 && decoded.start[t] !== decoded.end[t - 1])) throw new Error(`packRanks: token ${t} is out of rank order`)
  const text = new TextEncoder().encode(pattern)
  const bits = 32 - table.shift
  const words = HEADER + parts(n, bits).reduce((a, b) => a + b, 0)
  const file = new Uint8Array(4 * words + table.bytes.length + text.length)
  const ints = new Int32Array(file.buffer, 0, words)
  ints.set([MAGIC, VERSION, n, bits, table.bytes.length, table.maxLength, text.length, 0])
  let at = HEADER
  for (const part of [table.buckets, table.entries, table.byteRank, table.bytePairRank]) {
    ints.set(part, at)
    at += part.length
  }
  file.set(table.bytes, 4 * words)
  file.set(text, 4 * words + table.bytes.length)
  return file
}

/**
 * Unpacks a file made by {@link packRanks}: the table `rankTable` would build, as views of
 * the file's bytes. Left (why) for a file of another format version or byte order, so the
 * caller falls back to decoding.
 *
 * @category constructors
 * @since 0.2.0
 */
export const unpackRanks = (file: Uint8Array): E.Either<string, UnpackedRanks> => {
  // typed views need 4-byte alignment: a file read into a shared pool may not have it
  const own = file.byteOffset % 4 === 0 ? file : file.slice()
  if (own.byteLength < 4 * HEADER) return E.left('shorter than its header')
  const [magic, version, n, bits, size, maxLength, patternSize] = new Int32Array(own.buffer, own.byteOffset, HEADER)
  if (magic !== MAGIC || version !== VERSION) return E.left(`not a version ${VERSION} rank file of this byte order`)
  const sizes = parts(n!, bits!)
  if (own.byteLength !== fileSize(n!, bits!, size!, patternSize!)) return E.left('truncated')
  let at = own.byteOffset + 4 * HEADER
  const [buckets, entries, byteRank, bytePairRank] = sizes.map((length) => {
    const view = new Int32Array(own.buffer, at, length)
    at += 4 * length
    return view
  })
  const bytes = new Uint8Array(own.buffer, at, size)
  const pattern = new TextDecoder().decode(new Uint8Array(own.buffer, at + size!, patternSize))
  const table: RankTable = { bytes, byteRank: byteRank!, bytePairRank: bytePairRank!, maxLength: maxLength!, power: powers(maxLength!), buckets: buckets!, entries: entries!, shift: 32 - bits!, pages: undefined }
  return E.right({ table, pattern, tokens: () => tokensOf(entries!, bytes) })
}

// The tokens in rank order, from the entries (each names its rank, length and start).
const tokensOf = (entries: Int32Array, bytes: Uint8Array): DecodedRanks => {
  const n = entries.length >> 2
  const rank = new Int32Array(n)
  const start = new Int32Array(n)
  const end = new Int32Array(n)
  for (let at = 0; at < entries.length; at += 4) {
    const t = (entries[at]! >> 8) - 1
    rank[t] = t
    start[t] = entries[at + 3]!
    end[t] = entries[at + 3]! + (entries[at]! & 255)
  }
  return { bytes, rank, start, end }
}

interface NodeFs extends PagesFs {
  readonly openSync: (path: string | URL) => number
  readonly existsSync: (path: URL) => boolean
  readonly fstatSync: (fd: number) => { readonly size: number }
}

const failed = (e: unknown): E.Either<string, never> => E.left(`no rank file: ${e instanceof Error ? e.message : String(e)}`)

// Node's fs, reached through `process` (see the module's doc)
const nodeFs = (): NodeFs | undefined =>
  (globalThis as { readonly process?: { readonly getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('fs') as NodeFs | undefined

/**
 * Where an encoding's packed file is when running on Node from an installed build of gssc:
 * beside the running module (gssc's own `dist/`, the CLI bundle), else found through the
 * package's own name (an app that bundled gssc but installed it too). The module loader is
 * made only for that second case.
 */
const located = (encoding: EncodingName): E.Either<string, string | URL> => {
  const fs = nodeFs()
  if (fs === undefined) return E.left('not on Node')
  const near = beside(fs, encoding)
  if (near !== undefined) return E.right(near)
  const resolve = (nodeRequire() as { readonly resolve?: (id: string) => string } | undefined)?.resolve
  if (resolve === undefined) return E.left('not on Node')
  try {
    const manifest = resolve('gssc/package.json')
    return E.right(`${manifest.slice(0, -'package.json'.length)}dist/ranks/${encoding}.bin`)
  } catch (e) {
    return failed(e)
  }
}

/**
 * In gssc's own build the rank files are in dist/ranks, one or two folders above the module
 * running this (dist/lib/…, dist/tokenize/…, dist/cli/bundle/…): looking there first saves
 * resolving the package by name, 5 ms of a 150 ms cold start. From the sources, or from an app
 * that bundled gssc, nothing is there and the name finds them; a file that is there but is not
 * a rank file of this format is refused by {@link unpackRanks}.
 */
const beside = (fs: NodeFs, encoding: EncodingName): URL | undefined => {
  for (const up of ['../ranks/', '../../ranks/']) {
    try {
      const url = new URL(`${up}${encoding}.bin`, import.meta.url)
      if (url.protocol === 'file:' && fs.existsSync(url)) return url
    } catch {
      return undefined // no module URL (a CommonJS bundle): resolve by name
    }
  }
  return undefined
}

/**
 * The packed file of an encoding, opened for paging ({@link openRankFile}), when running on
 * Node from an installed build of gssc. Left (why) anywhere else.
 *
 * @category loading
 * @since 0.2.0
 */
export const readRankFile = (encoding: EncodingName): E.Either<string, UnpackedRanks> => {
  const path = located(encoding)
  return path._tag === 'Left' ? path : openRankFile(path.right)
}

/**
 * Opens a packed file on Node: reads its header, its one- and two-byte tables and its pattern,
 * and leaves the rest to be read page by page as lookups reach it (`rankPages.ts`); asking
 * for the tokens reads it all. Left (why) for a missing file, or one {@link unpackRanks}
 * refuses (the file is then closed).
 *
 * @example
 * const file = openRankFile('dist/ranks/o200k_base.bin')
 * @category loading
 * @since 0.2.0
 */
export const openRankFile = (path: string | URL): E.Either<string, UnpackedRanks> => {
  const fs = nodeFs()
  if (fs === undefined) return E.left('not on Node')
  let fd: number | undefined
  try {
    fd = fs.openSync(path)
    const size = fs.fstatSync(fd).size
    const file = new Uint8Array(size)
    fs.readSync(fd, file, 0, Math.min(size, 4 * HEADER), 0)
    const header = size >= 4 * HEADER ? new Int32Array(file.buffer, 0, HEADER) : undefined
    // too short, of another format or byte order, or truncated: unpackRanks says why
    if (header === undefined || header[0] !== MAGIC || header[1] !== VERSION || size !== fileSize(header[2]!, header[3]!, header[4]!, header[6]!)) {
      fs.closeSync(fd)
      return unpackRanks(file)
    }
    // the one- and two-byte tables follow the buckets and entries
    const [buckets, entries, byteRank, bytePairRank] = parts(header[2]!, header[3]!)
    const direct = 4 * (HEADER + buckets! + entries!)
    const paged = pages(fs, fd, file, [[direct, direct + 4 * (byteRank! + bytePairRank!)], [size - header[6]!, size]])
    return pipe(
      unpackRanks(file),
      E.map((u) => ({ ...u, table: { ...u.table, pages: paged }, tokens: () => (readAll(paged), u.tokens()) })),
    )
  } catch (e) {
    if (fd !== undefined) fs.closeSync(fd)
    return failed(e)
  }
}
