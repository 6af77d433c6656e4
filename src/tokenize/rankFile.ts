/**
 * An encoding's lookup table as a file, packed at build time (`scripts/bundle.mjs` writes
 * `dist/ranks/<encoding>.bin`) so that a process starts counting without parsing
 * js-tiktoken's 2.3 MB rank module, decoding its base64 and hashing 200,000 tokens.
 *
 * The file is the table itself ({@link RankTable}: bucket offsets, entries, the one- and
 * two-byte tables, then all token bytes and the pre-tokenizer pattern), so unpacking makes
 * typed views of the bytes read: no pass over the tokens, and no memory written besides the
 * read. (Filling a hash table on load cost more than the read: every page of an 8 MiB table
 * is a page fault.)
 *
 * On Node the file is read through `process.getBuiltinModule`, so this module imports no
 * `node:` module and the core still bundles for browsers; there, and wherever the file is
 * absent (running from source, bundled elsewhere), tables come from js-tiktoken's modules.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type { EncodingName } from './bpe.js'
import type { DecodedRanks } from './decodeRanks.js'
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
  const words = HEADER + sizes.reduce((a, b) => a + b, 0)
  if (own.byteLength !== 4 * words + size! + patternSize!) return E.left('truncated')
  let at = own.byteOffset + 4 * HEADER
  const [buckets, entries, byteRank, bytePairRank] = sizes.map((length) => {
    const view = new Int32Array(own.buffer, at, length)
    at += 4 * length
    return view
  })
  const bytes = new Uint8Array(own.buffer, at, size)
  const pattern = new TextDecoder().decode(new Uint8Array(own.buffer, at + size!, patternSize))
  const table: RankTable = { bytes, byteRank: byteRank!, bytePairRank: bytePairRank!, maxLength: maxLength!, power: powers(maxLength!), buckets: buckets!, entries: entries!, shift: 32 - bits! }
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

interface NodeFs {
  readonly readFileSync: (path: string) => Uint8Array
}

/**
 * The packed file of an encoding, unpacked, when running on Node from an installed build of
 * gssc (the file is found through the package's own name, so it is the same from `dist/`,
 * from the CLI bundle, and from an app that bundled gssc but installed it too). Left (why)
 * anywhere else.
 *
 * @category loading
 * @since 0.2.0
 */
export const readRankFile = (encoding: EncodingName): E.Either<string, UnpackedRanks> => {
  const resolve = (nodeRequire() as { readonly resolve?: (id: string) => string } | undefined)?.resolve
  const p = (globalThis as { readonly process?: { readonly getBuiltinModule?: (id: string) => unknown } }).process
  const fs = p?.getBuiltinModule?.('fs') as NodeFs | undefined
  if (resolve === undefined || fs === undefined) return E.left('not on Node')
  try {
    const manifest = resolve('gssc/package.json')
    return unpackRanks(fs.readFileSync(`${manifest.slice(0, -'package.json'.length)}dist/ranks/${encoding}.bin`))
  } catch (e) {
    return E.left(`no rank file: ${e instanceof Error ? e.message : String(e)}`)
  }
}
