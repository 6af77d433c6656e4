import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { asciiPieceEnd } from '../../src/tokenize/asciiPieces.js'
import type { EncodingName } from '../../src/tokenize/bpe.js'
import { compileSplitter, nextPiece, type Splitter } from '../../src/tokenize/pretokenize.js'
import { loadRanks } from '../../src/tokenize/ranks.js'
import { codeUnits } from '../../src/tokenize/utf8.js'
import { seeded } from '../prop.js'

const ENCODINGS: ReadonlyArray<EncodingName> = ['o200k_base', 'cl100k_base']

// Any ASCII character, the ones the rules turn on more often, and now and then a character
// past ASCII that would change a piece: Unicode spaces, ſ (an s to /i), letters, marks, numbers.
const unit = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)) },
  { weight: 10, arbitrary: fc.constantFrom(' ', '  ', '\n', '\r\n', '\t', "'", 's', 'S', 'll', 'LL', 're', 'vE', 'd', 'm', 't', 'Ab', 'CD', 'z', '123', '/', '.', '\x0b', '\x0c', '\x1c') },
  { weight: 1, arbitrary: fc.constantFrom('\u00a0', 'ſ', 'é', '²', '\u0301', '\u3000', '中', '😀', '\u2028', '\u212a', '\u0663', '\ud800') },
)
const text = fc.string({ unit, maxLength: 40 })

const pieces = (splitter: Splitter, t: string): ReadonlyArray<string> => {
  const start = new Int32Array(1)
  const out: string[] = []
  const units = codeUnits(t)
  for (let from = 0, end: number; (end = nextPiece(splitter, t, units, from, start)) >= 0; from = end) out.push(t.slice(start[0], end))
  return out
}

describe.each(ENCODINGS)('ASCII pieces (%s)', (encoding) => {
  const pattern = loadRanks(encoding).pat_str
  const regex = new RegExp(pattern, 'guy')

  it('end where the regex ends a piece, or give the piece up to it', () => {
    let decided = 0
    let asked = 0
    fc.assert(
      fc.property(text, (t) => {
        for (let from = 0; from < t.length; ) {
          regex.lastIndex = from
          const m = regex.exec(t)
          const end = m === null ? -1 : from + m[0].length
          const got = asciiPieceEnd(encoding, codeUnits(t), t.length, from)
          asked++
          if (got !== -1) {
            decided++
            expect(got, `${JSON.stringify(t)} at ${from}`).toBe(end)
          }
          from = end > from ? end : from + 1
        }
      }),
      seeded(20_000),
    )
    // most pieces are decided by the scan: the test compares something
    expect(decided).toBeGreaterThan(asked * 0.8)
  })

  it('split text as matchAll does, never compiling the regex for ASCII text', () => {
    const compiled = compileSplitter(pattern, encoding)
    let compiles = 0
    const counting: Splitter = { ...compiled, sticky: () => (compiles++, compiled.sticky()), global: () => (compiles++, compiled.global()) }
    fc.assert(
      fc.property(text, (t) => {
        const before = compiles
        expect(pieces(counting, t)).toEqual([...t.matchAll(new RegExp(pattern, 'gu'))].map((m) => m[0]))
        if (/^[\x00-\x7f]*$/.test(t)) expect(compiles).toBe(before)
      }),
      seeded(5_000),
    )
  })
})
