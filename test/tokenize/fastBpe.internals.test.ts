import { describe, expect, it } from 'vitest'
import { loadRanks, type EncodingName } from '../../src/tokenize/bpe.js'
import { charTable, type CharTable } from '../../src/tokenize/charTable.js'
import { decodeRanks } from '../../src/tokenize/decodeRanks.js'
import { mergeByHeap, mergeByScan } from '../../src/tokenize/merge.js'
import { pairCache } from '../../src/tokenize/pairCache.js'
import { initialParts } from '../../src/tokenize/pieceParts.js'
import { compileSplitter, nextPiece, nonCapturing } from '../../src/tokenize/pretokenize.js'
import { prefixHashes, rankOf, rankTable, type RankTable } from '../../src/tokenize/rankTable.js'
import { scratch } from '../../src/tokenize/scratch.js'
import { codeUnits, utf8Into } from '../../src/tokenize/utf8.js'

const ENCODINGS: ReadonlyArray<EncodingName> = ['o200k_base', 'cl100k_base']

const tables = (encoding: EncodingName) => {
  const ranks = loadRanks(encoding)
  const decoded = decodeRanks(ranks.bpe_ranks)
  const table = rankTable(decoded)
  return { ranks, decoded, table, chars: charTable(decoded, table) }
}

const tokenBytes = (d: ReturnType<typeof decodeRanks>, t: number): Uint8Array => d.bytes.subarray(d.start[t], d.end[t])

describe('decodeRanks', () => {
  it('decodes tokens with consecutive ranks per line', () => {
    const d = decodeRanks('! 0 IQ== Ig==\n! 7 QUJD YQ==\n')
    expect(Array.from(d.rank)).toEqual([0, 1, 7, 8])
    expect([0, 1, 2, 3].map((t) => Buffer.from(tokenBytes(d, t)).toString())).toEqual(['!', '"', 'ABC', 'a'])
  })

  it('counts an empty token as a rank, as js-tiktoken does', () => {
    const d = decodeRanks('! 0 IQ==  Ig==')
    expect(Array.from(d.rank)).toEqual([0, 1, 2])
    expect(d.end[1]! - d.start[1]!).toBe(0)
  })

  it('takes any number of empty tokens', () => {
    const d = decodeRanks(`! 0${' '.repeat(50)}IQ==`)
    expect(d.rank.length).toBe(50)
    expect(Buffer.from(tokenBytes(d, 49)).toString()).toBe('!')
  })

  it('rejects text that is not base64, naming the character', () => {
    expect(() => decodeRanks('! 0 IQ== I?==')).toThrow(/"I\?==" at offset 9/)
    expect(() => decodeRanks('! 0 IQ= Ig==')).toThrow(/"IQ= " at offset 4/)
  })

  it.each(ENCODINGS)('decodes every %s token to the bytes of its base64', (encoding) => {
    const text = loadRanks(encoding).bpe_ranks
    const words = text.split(' ').slice(2)
    const d = decodeRanks(text)
    expect(d.rank.length).toBe(words.length)
    const wrong = words.filter((w, t) => d.rank[t] !== t || !Buffer.from(w, 'base64').equals(tokenBytes(d, t)))
    expect(wrong).toEqual([])
  })
})

describe.each(ENCODINGS)('rank table (%s)', (encoding) => {
  const { decoded, table } = tables(encoding)

  it('finds every token at its rank', () => {
    const s = scratch(256)
    const wrong: number[] = []
    for (let t = 0; t < decoded.rank.length; t++) {
      const bytes = tokenBytes(decoded, t)
      s.bytes.set(bytes)
      prefixHashes(s.bytes, bytes.length, s.hash)
      if (rankOf(table, s.bytes, s.hash, 0, bytes.length) !== t) wrong.push(t)
    }
    expect(wrong).toEqual([])
  })

  it('finds no rank for byte strings that are not tokens', () => {
    const s = scratch(256)
    const probe = (bytes: ReadonlyArray<number>): number => {
      s.bytes.set(bytes)
      prefixHashes(s.bytes, bytes.length, s.hash)
      return rankOf(table, s.bytes, s.hash, 0, bytes.length)
    }
    expect(probe([0xff, 0xfe, 0xfd])).toBe(-1)
    expect(probe(Array.from(Buffer.from('x'.repeat(200))))).toBe(-1) // longer than any token
    expect(probe(Array.from(Buffer.from(' the')))).toBeGreaterThanOrEqual(0)
    // a token's first 8 bytes with the rest changed
    const long = Array.from(Buffer.from(' internationalization'))
    expect(probe(long.map((b, i) => (i === long.length - 1 ? b ^ 1 : b)))).toBe(-1)
  })
})

describe('utf8Into', () => {
  const cases = ['', 'abc', 'é世😀', 'a\uD800b', '\uDC00', '\uD83D', 'x\uDC00\uD800y', '𠀋\u0301']

  it.each(cases)('writes the bytes TextEncoder writes for %j', (text) => {
    const out = new Uint8Array(text.length * 3)
    const n = utf8Into(codeUnits(text), 0, text.length, out)
    expect(Array.from(out.subarray(0, n))).toEqual(Array.from(new TextEncoder().encode(text)))
  })

  it('maps the first byte of each code point to its UTF-16 offset, and the rest to −1', () => {
    const text = 'aé世😀\uD800'
    const units = new Int32Array(text.length * 3 + 1)
    const n = utf8Into(codeUnits(text), 0, text.length, new Uint8Array(text.length * 3), units)
    expect(Array.from(units.subarray(0, n + 1))).toEqual([0, 1, -1, 2, -1, -1, 3, -1, -1, -1, 5, -1, -1, 6])
  })

  it('encodes a slice, leaving the rest of the string alone', () => {
    const out = new Uint8Array(6)
    expect(utf8Into(codeUnits('ab世c'), 2, 3, out)).toBe(3)
    expect(Array.from(out.subarray(0, 3))).toEqual([0xe4, 0xb8, 0x96])
  })
})

describe('pre-tokenizer', () => {
  it('makes capturing groups non-capturing, leaving escapes and classes alone', () => {
    expect(nonCapturing("('s|'t)|[(]\\(x(?!y)(?:z)")).toBe("(?:'s|'t)|[(]\\(x(?!y)(?:z)")
  })

  it.each(ENCODINGS)('splits text exactly where matchAll with %s pat_str does', (encoding) => {
    const pattern = loadRanks(encoding).pat_str
    const text = "Hello  world!\r\n\r\n  I'm 12345 中文，测试。\uD800 😀👍🏽 a\u0301 \t\n{\"k\": [1, 2]}   "
    const expected = [...text.matchAll(new RegExp(pattern, 'gu'))].map((m) => m[0])
    const splitter = compileSplitter(pattern)
    const start = new Int32Array(1)
    const pieces: string[] = []
    for (let from = 0, end: number; (end = nextPiece(splitter, text, codeUnits(text), from, start)) >= 0; from = end)
      pieces.push(text.slice(start[0], end))
    expect(pieces).toEqual(expected)
  })

  it('skips text no alternative matches, as matchAll does', () => {
    const splitter = compileSplitter('[a-z]+')
    const start = new Int32Array(1)
    expect(nextPiece(splitter, '12ab', codeUnits('12ab'), 0, start)).toBe(4)
    expect(start[0]).toBe(2)
    expect(nextPiece(splitter, '12ab', codeUnits('12ab'), 4, start)).toBe(-1)
  })

  it.each(ENCODINGS)('never compiles the global form for text the sticky one splits to its end (%s)', (encoding) => {
    const compiled = compileSplitter(loadRanks(encoding).pat_str)
    let asked = 0
    const splitter = { ...compiled, global: () => (asked++, compiled.global()) }
    const start = new Int32Array(1)
    const text = "Please summarise the build failure, and suggest a fix: it's 2 lines."
    let pieces = 0
    for (let from = 0, end: number; (end = nextPiece(splitter, text, codeUnits(text), from, start)) >= 0; from = end) pieces++
    expect(pieces).toBeGreaterThan(10)
    expect(asked).toBe(0)
  })
})

// Parts and their ranks after merging one piece, starting from whole characters or bytes.
const mergeWith = (
  t: { readonly table: RankTable },
  chars: CharTable,
  piece: string,
  merge: 'scan' | 'heap',
): ReadonlyArray<number> => {
  const s = scratch(piece.length * 3 + 1)
  const n = utf8Into(codeUnits(piece), 0, piece.length, s.bytes)
  prefixHashes(s.bytes, n, s.hash)
  const parts = initialParts(t.table, chars, s, n)
  const m = merge === 'scan' ? mergeByScan(t.table, pairCache(8), s, parts) : mergeByHeap(t.table, pairCache(8), s, n, parts)
  return Array.from(s.ranks.subarray(0, m))
}

describe.each(ENCODINGS)('merging (%s)', (encoding) => {
  const t = tables(encoding)
  const noChars: CharTable = { info: new Int32Array(65536 * 8) }
  const pieces = [
    '中华人民共和国国务院办公厅关于进一步加强城市规划建设管理工作的若干意见',
    'ааааааааааааааааааааааааааааааааа',
    '的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的',
    'გამარჯობაგამარჯობაგამარჯობა',
    ' supercalifragilisticexpialidociousness',
    '𠀋𠀌𠀍😀😀',
  ]

  it.each(pieces)('gives the same tokens by scan and by heap for %s', (piece) => {
    expect(mergeWith(t, t.chars, piece, 'heap')).toEqual(mergeWith(t, t.chars, piece, 'scan'))
  })

  it.each(pieces)('gives the same tokens from whole characters as from bytes for %s', (piece) => {
    expect(mergeWith(t, t.chars, piece, 'scan')).toEqual(mergeWith(t, noChars, piece, 'scan'))
  })

  it('starts a Han run from whole characters, not bytes', () => {
    const piece = pieces[0]! + '随着经济的快速发展越来越多的人开始关注环境保护和可持续发展的问题'
    const s = scratch(piece.length * 3)
    const n = utf8Into(codeUnits(piece), 0, piece.length, s.bytes)
    expect(n).toBe(piece.length * 3)
    // cl100k lacks single tokens for some of these characters; those stay three bytes
    const most = encoding === 'o200k_base' ? 1.1 : 1.6
    expect(initialParts(t.table, t.chars, s, n)).toBeLessThan(piece.length * most)
    expect(initialParts(t.table, noChars, s, n)).toBe(n)
  })
})

describe('whole characters on a made-up table', () => {
  // All 256 bytes, then: e4 b8 (256), " 中" (280), "a " (290), "中" (300). " 中" outranks
  // "中" itself, so taking 中 whole would join it to the space before "a " gets the space.
  const line = (rank: number, tokens: ReadonlyArray<Buffer>): string =>
    `! ${rank} ${tokens.map((b) => b.toString('base64')).join(' ')}`
  const text = [
    line(0, Array.from({ length: 256 }, (_, b) => Buffer.from([b]))),
    line(256, [Buffer.from([0xe4, 0xb8])]),
    line(280, [Buffer.from(' 中')]),
    line(290, [Buffer.from('a ')]),
    line(300, [Buffer.from('中')]),
  ].join('\n')
  const decoded = decodeRanks(text)
  const table = rankTable(decoded)
  const t = { table, chars: charTable(decoded, table) }
  const noChars: CharTable = { info: new Int32Array(65536 * 8) }

  it('merges bytes the tiktoken way', () => {
    expect(mergeWith(t, noChars, 'a 中', 'scan')).toEqual([290, 300])
    expect(mergeWith(t, noChars, 'b 中', 'scan')).toEqual([0x62, 280])
  })

  it('does not take a character whole when a token holding it outranks its own merges', () => {
    expect(mergeWith(t, t.chars, 'a 中', 'scan')).toEqual([290, 300])
    expect(mergeWith(t, t.chars, 'a 中', 'heap')).toEqual([290, 300])
  })
})
