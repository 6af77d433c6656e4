import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { loadRanks, referenceBpe, type EncodingName } from '../../src/tokenize/bpe.js'
import { charTable, type CharTable } from '../../src/tokenize/charTable.js'
import { decodeRanks } from '../../src/tokenize/decodeRanks.js'
import { fastBpe } from '../../src/tokenize/fastBpe.js'
import { mergeByHeap, mergeByScan } from '../../src/tokenize/merge.js'
import { pairCache } from '../../src/tokenize/pairCache.js'
import { initialParts } from '../../src/tokenize/pieceParts.js'
import { prefixHashes, rankTable, type RankTable } from '../../src/tokenize/rankTable.js'
import { scratch } from '../../src/tokenize/scratch.js'
import { codeUnits, utf8Into } from '../../src/tokenize/utf8.js'
import { joinStress, seeded } from '../prop.js'
import { isWordEnd } from '../../src/tokenize/wordEdges.js'

const ENCODINGS: ReadonlyArray<EncodingName> = ['o200k_base', 'cl100k_base']

// The oracle is js-tiktoken (referenceBpe's encode is `new Tiktoken(ranks).encode(text, [], [])`).
const engines = ENCODINGS.map((encoding) => ({ encoding, fast: fastBpe(encoding), reference: referenceBpe(encoding) }))

const char = (min: number, max: number): fc.Arbitrary<string> =>
  fc.integer({ min, max }).map((c) => String.fromCharCode(c))
const from = (chars: string): fc.Arbitrary<string> => fc.constantFrom(...Array.from(chars))
const run = (unit: fc.Arbitrary<string>, minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit, minLength, maxLength })

const commonHan = from('的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可里后小么心多天而能好')
const han = char(0x4e00, 0x9fff)
const latin = from('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ')

const chunk = fc.oneof(
  run(commonHan, 1, 12),
  run(han, 1, 6),
  run(char(0x3041, 0x30ff), 1, 6), // kana
  run(char(0xac00, 0xd7a3), 1, 4), // hangul
  run(char(0x80, 0x7ff), 1, 6), // two-byte scripts: Latin-1, Greek, Cyrillic, Hebrew, Arabic…
  run(char(0x10d0, 0x10ff), 1, 4), // Georgian: three bytes, a lead byte unlike Han's
  char(0x80, 0xffff), // anything in the BMP, surrogates included
  run(latin, 1, 12),
  run(from('0123456789'), 1, 8),
  fc.constantFrom('😀', '👍🏽', '👨‍👩‍👧', '🇯🇵', '❤️', '🚀', '🧑‍💻', '𠀋'),
  run(fc.constantFrom(' ', ' ', '\t', '\n', '\r', '\r\n', '\u00a0', '\u3000'), 1, 6),
  run(from('{}()[];:,.!?"\'`<>/\\|=+-*&^%$#@~_，。「」：！…—'), 1, 4),
  char(0xd800, 0xdfff), // a lone surrogate (or, next to another, a pair)
  char(0x300, 0x36f), // a combining mark
  fc.constantFrom('<|endoftext|>', '<|fim_prefix|>', '<|endofprompt|>', "'s", "'LL", "'ve"),
)

const mixedText = fc.array(chunk, { maxLength: 14 }).map((xs) => xs.join(''))

// Long pieces take the heap merge; js-tiktoken is quadratic on them, so they stay moderate.
const longRun = fc.oneof(
  run(commonHan, 50, 120),
  run(han, 50, 100),
  run(latin, 60, 300),
  run(char(0x430, 0x44f), 50, 150), // Cyrillic letters
  run(char(0x10d0, 0x10ff), 50, 100),
  run(from('0123456789'), 20, 200),
  run(fc.constantFrom(' ', '\n', '\t'), 20, 200),
  run(from('=-*#'), 20, 200),
)

const longText = fc.tuple(mixedText, longRun, mixedText).map((xs) => xs.join(''))

const encodesExactly = (text: string): void => {
  for (const { fast, reference } of engines) {
    const ids = reference.encode(text)
    expect(fast.encode(text)).toEqual(ids)
    expect(fast.count(text)).toBe(ids.length)
  }
}

describe('fastBpe against js-tiktoken', () => {
  it('encodes 10,000 mixed strings exactly, on both encodings', () => {
    fc.assert(fc.property(mixedText, encodesExactly), seeded(10_000))
  })

  it('encodes strings with long unbroken runs exactly, on both encodings', () => {
    fc.assert(fc.property(longText, encodesExactly), seeded(300))
  })

  it('puts token ends where the reference does', () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        for (const { fast, reference } of engines)
          expect(Array.from(fast.tokenEnds(text))).toEqual(Array.from(reference.tokenEnds(text)))
      }),
      seeded(1_500),
    )
  })
})

// Merging one piece of text (any valid UTF-8, not only what the pre-tokenizer cuts) from
// whole characters or from bytes, by scan or by heap: four ways, one answer.
describe.each(ENCODINGS)('merge strategies agree (%s)', (encoding) => {
  const decoded = decodeRanks(loadRanks(encoding).bpe_ranks)
  const table = rankTable(decoded)
  const chars = charTable(decoded, table)
  const noChars: CharTable = { info: new Int32Array(65536 * 8) }
  const cache = pairCache(10)

  const merged = (t: RankTable, c: CharTable, piece: string, byHeap: boolean): ReadonlyArray<number> => {
    const s = scratch(piece.length * 3 + 1)
    const n = utf8Into(codeUnits(piece), 0, piece.length, s.bytes)
    prefixHashes(s.bytes, n, s.hash)
    const parts = initialParts(t, c, s, n)
    const m = byHeap ? mergeByHeap(t, cache, s, n, parts) : mergeByScan(t, cache, s, parts)
    return Array.from(s.ranks.subarray(0, m))
  }

  it('gives the same tokens whichever way a piece is merged', () => {
    fc.assert(
      fc.property(
        fc.array(chunk, { minLength: 1, maxLength: 10 }).map((xs) => xs.join('')),
        (piece) => {
          const bytesByScan = merged(table, noChars, piece, false)
          expect(merged(table, chars, piece, false)).toEqual(bytesByScan)
          expect(merged(table, chars, piece, true)).toEqual(bytesByScan)
          expect(merged(table, noChars, piece, true)).toEqual(bytesByScan)
        },
      ),
      seeded(4_000),
    )
  })
})

describe('fastBpe countEnds', () => {
  it('gives the count of a text and of its two ends, as counting each slice apart does, at any word ends', () => {
    fc.assert(
      fc.property(fc.oneof(mixedText, joinStress(60)), fc.nat(), fc.nat(), (text, a, b) => {
        const ends = wordEndsOf(text)
        if (ends.length === 0) return
        const first = ends[a % ends.length]!
        const last = ends[Math.max(a % ends.length, b % ends.length)]!
        for (const { fast, reference } of engines)
          expect(fast.countEnds!(text, first, last)).toEqual({ count: reference.count(text), head: reference.count(text.slice(0, first)), tail: reference.count(text.slice(last)) })
      }),
      seeded(3000),
    )
  })
})

/** Every word end of a text, in order. */
const wordEndsOf = (text: string): number[] => {
  const out: number[] = []
  for (let p = 1; p < text.length; p++) if (isWordEnd(text, p)) out.push(p)
  return out
}
