import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EncodingName } from '../../src/tokenize/bpe.js'
import { decodeRanks } from '../../src/tokenize/decodeRanks.js'
import { packRanks, readPackedFile, readRankFile, readRankFileAsync, unpackRanks } from '../../src/tokenize/rankFile.js'
import { rankTable } from '../../src/tokenize/rankTable.js'
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

  it('read off the main thread to the same table, handing over the pattern while the rest is read', async () => {
    const { tokens, table, pattern } = decoded('cl100k_base')
    const dir = mkdtempSync(join(tmpdir(), 'gssc-ranks-'))
    try {
      const path = join(dir, 'cl100k_base.bin')
      writeFileSync(path, packRanks(tokens, table, pattern))
      const seen: string[] = []
      const read = readPackedFile(path, (p) => seen.push(p))
      // handed over before the read is done (it is still pending in the thread pool)
      expect(seen).toEqual([pattern])
      const file = await read
      if (file._tag === 'Left') throw new Error(file.left)
      sameArrays(file.right.table, table)
      expect(file.right.pattern).toBe(pattern)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('read off the main thread, refuse what unpacking refuses and a missing file, without handing over a pattern', async () => {
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
        const seen: string[] = []
        expect(await readPackedFile(join(dir, 'x.bin'), (p) => seen.push(p))).toEqual({ _tag: 'Left', left: expect.stringMatching(why) })
        expect(seen).toEqual([])
      }
      expect(await readPackedFile(join(dir, 'missing.bin'), () => undefined)).toEqual({ _tag: 'Left', left: expect.stringMatching(/^no rank file: .*missing\.bin/) })
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
      sameArrays(read.right.table, decoded(encoding).table)
    }
  })

  it.skipIf(!existsSync('dist/ranks/o200k_base.bin'))('are read off the main thread from dist/ranks too, with the encoding\'s pattern handed over', async () => {
    for (const encoding of ENCODINGS) {
      const seen: string[] = []
      const read = await readRankFileAsync(encoding, (p) => seen.push(p))
      if (read._tag === 'Left') throw new Error(read.left)
      const { table, pattern } = decoded(encoding)
      sameArrays(read.right.table, table)
      expect(seen).toEqual([pattern])
    }
  })
})
