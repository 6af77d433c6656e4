/**
 * An encoding's lookup table as a file, packed at build time (`scripts/bundle.mjs` writes
 * `dist/ranks/<encoding>.bin`) so that a process starts counting without parsing
 * js-tiktoken's 2.3 MB rank module, decoding its base64 and hashing 200,000 tokens.
 *
 * The file holds, in rank order, each token's length and the hash slot it occupies, then all
 * token bytes and the pre-tokenizer pattern. Unpacking is one pass that writes each token
 * into its slot: no hashing, no probing, no comparing. (Shipping the filled table itself
 * would be 4× larger for a few milliseconds: the pass costs about what the memory costs.)
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
import { HASH_BASE, type RankTable } from './rankTable.js'
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
const VERSION = 1
const HEADER = 8 // int32: magic, version, tokens, slot bits, token bytes, max length, pattern bytes, 0

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
  const file = new Uint8Array(4 * (HEADER + n) + n + decoded.bytes.length + text.length)
  const words = new Int32Array(file.buffer, 0, HEADER + n)
  words.set([MAGIC, VERSION, n, 32 - table.shift, decoded.bytes.length, table.maxLength, text.length, 0])
  const { slots } = table
  for (let s = 0; s < slots.length >> 2; s++) if (slots[s << 2] !== 0) words[HEADER + (slots[s << 2]! >> 8) - 1] = s
  for (let t = 0; t < n; t++) file[4 * (HEADER + n) + t] = decoded.end[t]! - decoded.start[t]!
  file.set(decoded.bytes, 4 * (HEADER + n) + n)
  file.set(text, 4 * (HEADER + n) + n + decoded.bytes.length)
  return file
}

/**
 * Unpacks a file made by {@link packRanks} into the table `rankTable` would build. Left (why)
 * for a file of another format version or byte order, so the caller falls back to decoding.
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
  const lengthsAt = own.byteOffset + 4 * (HEADER + n!)
  if (own.byteLength !== 4 * (HEADER + n!) + n! + size! + patternSize!) return E.left('truncated')
  const slotOf = new Int32Array(own.buffer, own.byteOffset + 4 * HEADER, n)
  const lengths = new Uint8Array(own.buffer, lengthsAt, n)
  const bytes = new Uint8Array(own.buffer, lengthsAt + n!, size)
  const pattern = new TextDecoder().decode(new Uint8Array(own.buffer, lengthsAt + n! + size!, patternSize))
  return E.right({ table: fill(slotOf, lengths, bytes, bits!, maxLength!), pattern, tokens: () => tokensOf(lengths, bytes) })
}

// The one pass: every token straight into its slot (see RankTable for the slot layout).
const fill = (slotOf: Int32Array, lengths: Uint8Array, bytes: Uint8Array, bits: number, maxLength: number): RankTable => {
  const slots = new Int32Array(4 << bits)
  const byteRank = new Int32Array(256).fill(-1)
  const bytePairRank = new Int32Array(65536).fill(-1)
  let start = 0
  for (let rank = 0; rank < lengths.length; rank++) {
    const n = lengths[rank]!
    const at = slotOf[rank]! << 2
    if (n === 1) byteRank[bytes[start]!] = rank
    else if (n === 2) bytePairRank[(bytes[start]! << 8) | bytes[start + 1]!] = rank
    let head = 0
    let tail = 0
    for (let k = Math.min(n, 4) - 1; k >= 0; k--) head = (head << 8) | bytes[start + k]!
    for (let k = Math.min(n, 8) - 1; k >= 4; k--) tail = (tail << 8) | bytes[start + k]!
    slots[at] = (rank + 1) * 256 + n
    slots[at + 1] = head
    slots[at + 2] = tail
    slots[at + 3] = start
    start += n
  }
  const power = new Int32Array(maxLength + 1)
  power[0] = 1
  for (let k = 1; k <= maxLength; k++) power[k] = Math.imul(power[k - 1]!, HASH_BASE)
  return { bytes, byteRank, bytePairRank, maxLength, power, slots, shift: 32 - bits }
}

const tokensOf = (lengths: Uint8Array, bytes: Uint8Array): DecodedRanks => {
  const n = lengths.length
  const rank = new Int32Array(n)
  const start = new Int32Array(n)
  const end = new Int32Array(n)
  for (let t = 0, at = 0; t < n; t++) {
    rank[t] = t
    start[t] = at
    end[t] = at += lengths[t]!
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
