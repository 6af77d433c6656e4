import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nonSpaceRuns, pieceLowerBound, encodingTokenizer } from '../../src/tokenize/tokenizer.js'
import { seeded } from '../prop.js'

const o200k = encodingTokenizer('o200k_base')
const cl100k = encodingTokenizer('cl100k_base')

/** Strings that stress the piece rules: letters, marks, contractions, digits, punctuation, CJK, astral letters, JSON. */
const piece = fc.constantFrom(
  'a', 'Z', 'é', 'e\u0301', "'s", "'", "it's", '1', '12', '1234567', '½', '²', '.', ',', '{"', '":"', '"}', '/', '-', '→', '—',
  '构', '建', '失败', '，', '。', '？', '𝐀', '😀', '👩‍💻', ' ', '  ', '\n', '\r\n', '\t', 'λ', 'Ω', '_', '$', '#', '\u200d', 'ß', 'İ',
  '\r', '//', '\u00a0', '\u3000', '\u2028',
)
const text = fc.oneof(fc.array(piece, { maxLength: 40 }).map((ps) => ps.join('')), fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.json())

describe('pieceLowerBound', () => {
  it('never exceeds the real count, on either encoding', () => {
    fc.assert(
      fc.property(text, (t) => {
        const bound = pieceLowerBound(t)
        expect(bound).toBeLessThanOrEqual(o200k.count(t))
        expect(bound).toBeLessThanOrEqual(cl100k.count(t))
      }),
      // a million cases per encoding in the deep run (issue 15)
      seeded(20_000, 1_000_000),
    )
  })

  it('with `above`, stops once past it: never more than the whole bound, and either past `above` or the whole bound', () => {
    let cut = 0
    fc.assert(
      fc.property(text, fc.nat({ max: 30 }), (t, above) => {
        const whole = pieceLowerBound(t)
        const bound = pieceLowerBound(t, above)
        expect(bound).toBeLessThanOrEqual(whole)
        if (bound !== whole) {
          expect(bound).toBeGreaterThan(above)
          cut++
        } else if (whole > above) cut++
      }),
      seeded(5_000),
    )
    expect(cut).toBeGreaterThan(500)
  })

  it('counts nothing for slashes that o200k joins to the punctuation before them', () => {
    // found by a random seed: o200k's punctuation piece swallows the line breaks and slashes after it
    for (const t of ['.\n/', 'a.\n/', "it'\n/", '.\n/\n/', '.\n/.a', '。\n/', '.\r\n//x', '. \n/', '.\n /', '}\n/**'])
      for (const tokenizer of [o200k, cl100k]) expect({ t, bound: pieceLowerBound(t) }).toEqual({ t, bound: Math.min(pieceLowerBound(t), tokenizer.count(t)) })
    expect(pieceLowerBound('.\n/')).toBe(1)
    expect(pieceLowerBound('. \n/')).toBe(2)
  })

  it('is much tighter than counting runs of non-space characters on JSON', () => {
    const json = JSON.stringify({ tool: 'read', path: 'src/config.ts', lines: 120, ok: true, items: [1, 2, 3] })
    expect(nonSpaceRuns(json)).toBe(1)
    expect(pieceLowerBound(json)).toBeGreaterThan(15)
    expect(pieceLowerBound(json)).toBeLessThanOrEqual(o200k.count(json))
  })
})
