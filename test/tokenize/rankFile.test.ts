import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EncodingName } from '../../src/tokenize/bpe.js'
import { decodeRanks, type DecodedRanks } from '../../src/tokenize/decodeRanks.js'
import { openRankFile, packRanks, readRankFile, unpackRanks } from '../../src/tokenize/rankFile.js'
import { READ_ALL_AFTER } from '../../src/tokenize/rankPages.js'
import { prefixHashes, rankOf, rankTable, type RankTable } from '../../src/tokenize/rankTable.js'
import { loadRanks } from '../../src/tokenize/ranks.js'

const ENCODINGS: ReadonlyArray<EncodingName> = ['o200k_base', 'cl100k_base']

// Byte-for-byte equality of typed arrays (a deep equal walks megabytes element by element).
const bytesOf = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength)
const sameArrays = (a: object, b: object): void => {
  expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort())
  for (const [k, v] of Object.entries(a)) {
    const w = (b as Record<string, unknown>)[k]
    if (ArrayBuffer.isView(v)) expect(ArrayBuffer.isView(w) && v.constructor === w.constructor && bytesOf(v).equals(bytesOf(w)), k).toBe(true)
    else expect(w, k).toEqual(v)
  }
}

const decoded = (encoding: EncodingName) => {
  const ranks = loadRanks(encoding)
  const tokens = decodeRanks(ranks.bpe_ranks)
  return { tokens, table: rankTable(tokens), pattern: ranks.pat_str }
}

describe('packed rank files', () => {
  it.each(ENCODINGS)('unpack to the very table, tokens and pattern that decoding js-tiktoken gives (%s)', (encoding) => {
    const { tokens, table, pattern } = decoded(encoding)
    const file = packRanks(tokens, table, pattern)
    const unpacked = unpackRanks(file)
    if (unpacked._tag === 'Left') throw new Error(unpacked.left)
    // every array equal, so every lookup (and so every count) is the same
    sameArrays(unpacked.right.table, table)
    expect(unpacked.right.pattern).toBe(pattern)
    sameArrays(unpacked.right.tokens(), tokens)
    // unaligned input (a file read into a shared pool) unpacks the same
    const shifted = new Uint8Array(file.length + 1).subarray(1)
    shifted.set(file)
    const again = unpackRanks(shifted)
    if (again._tag === 'Left') throw new Error(again.left)
    sameArrays(again.right.table, table)
  })

  it('refuse a file of another version or byte order, and a truncated one, saying why', () => {
    const { tokens, table, pattern } = decoded('cl100k_base')
    const file = packRanks(tokens, table, pattern)
    const other = file.slice()
    other[4] = 99 // the version
    expect(unpackRanks(other)).toEqual({ _tag: 'Left', left: expect.stringMatching(/version/) })
    expect(unpackRanks(file.subarray(0, file.length - 1))).toEqual({ _tag: 'Left', left: 'truncated' })
    expect(unpackRanks(file.subarray(0, 8))).toEqual({ _tag: 'Left', left: 'shorter than its header' })
  })

  it('refuse to pack tokens out of rank order (a programmer error)', () => {
    const tokens = decodeRanks('IQ== 1 IQ== Ig==')
    expect(() => packRanks(tokens, rankTable(tokens), '.')).toThrow(/out of rank order/)
  })

  it('open for paging: lookups read what they compare, give the same ranks, and asking for the tokens reads the rest', () => {
    const { tokens, table, pattern } = decoded('cl100k_base')
    const dir = mkdtempSync(join(tmpdir(), 'gssc-ranks-'))
    try {
      const path = join(dir, 'cl100k_base.bin')
      writeFileSync(path, packRanks(tokens, table, pattern))
      const file = openRankFile(path)
      if (file._tag === 'Left') throw new Error(file.left)
      const paged = file.right.table
      expect(file.right.pattern).toBe(pattern)
      expect(paged.pages?.complete).toBe(false)
      // 30 tokens spread over the table (long ones among them), and slices that are no token:
      // up to three pages each, fewer than make it read the rest
      const n = tokens.rank.length
      for (let k = 0; k < 30; k++) {
        const t = k === 0 ? longest(tokens) : (k * 3361) % n
        const bytes = tokens.bytes.slice(tokens.start[t]!, tokens.end[t]!)
        expect(lookup(paged, bytes)).toBe(tokens.rank[t])
        const longer = new Uint8Array([...bytes, 0xff, k])
        expect(lookup(paged, longer)).toBe(lookup(table, longer))
      }
      // still paging: the test covered lookups on a table not yet read whole
      expect(paged.pages?.complete).toBe(false)
      expect(paged.pages!.count).toBeLessThanOrEqual(READ_ALL_AFTER)
      sameArrays(file.right.tokens(), tokens)
      expect(paged.pages?.complete).toBe(true)
      sameArrays({ ...paged, pages: undefined }, table)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('open for paging, refusing what unpacking refuses and a missing file, and failing a lookup on a file cut short while in use', () => {
    const { tokens, table, pattern } = decoded('cl100k_base')
    const file = packRanks(tokens, table, pattern)
    const other = file.slice()
    other[4] = 99 // the version
    const dir = mkdtempSync(join(tmpdir(), 'gssc-ranks-'))
    try {
      const cases: ReadonlyArray<readonly [Uint8Array, RegExp]> = [
        [other, /version/],
        [file.subarray(0, file.length - 1), /^truncated$/],
        [file.subarray(0, 8), /^shorter than its header$/],
      ]
      for (const [bytes, why] of cases) {
        writeFileSync(join(dir, 'x.bin'), bytes)
        expect(openRankFile(join(dir, 'x.bin'))).toEqual({ _tag: 'Left', left: expect.stringMatching(why) })
      }
      expect(openRankFile(join(dir, 'missing.bin'))).toEqual({ _tag: 'Left', left: expect.stringMatching(/^no rank file: .*missing\.bin/) })
      // rewritten in place (the build renames instead): never zeros read as ranks
      writeFileSync(join(dir, 'y.bin'), file)
      const open = openRankFile(join(dir, 'y.bin'))
      if (open._tag === 'Left') throw new Error(open.left)
      writeFileSync(join(dir, 'y.bin'), file.subarray(0, 64))
      expect(() => lookup(open.right.table, new TextEncoder().encode(' hello'))).toThrow(/ended at byte/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  // npm ci builds dist/ (prepare); without a build there is nothing to read, which is the
  // fallback the tokenizer takes (js-tiktoken's module), tested by every other tokenizer test
  it.skipIf(!existsSync('dist/ranks/o200k_base.bin'))('are what the build wrote to dist/ranks, found through the package name', () => {
    for (const encoding of ENCODINGS) {
      const read = readRankFile(encoding)
      if (read._tag === 'Left') throw new Error(read.left)
      read.right.tokens() // reads it whole
      sameArrays({ ...read.right.table, pages: undefined }, decoded(encoding).table)
    }
  })
})

// The token with the most bytes (its lookup compares bytes past the entry's first 8).
const longest = (tokens: DecodedRanks): number => {
  let best = 0
  for (let t = 0; t < tokens.rank.length; t++) if (tokens.end[t]! - tokens.start[t]! > tokens.end[best]! - tokens.start[best]!) best = t
  return best
}

// The rank of `bytes` in `table`, as the engine looks it up.
const lookup = (table: RankTable, bytes: Uint8Array): number => {
  const hash = new Int32Array(bytes.length + 1)
  prefixHashes(bytes, bytes.length, hash)
  return rankOf(table, bytes, hash, 0, bytes.length)
}
