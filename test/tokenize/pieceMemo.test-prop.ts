import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { referenceBpe, type EncodingName } from '../../src/tokenize/bpe.js'
import { fastBpe } from '../../src/tokenize/fastBpe.js'
import { MEMO_UNITS, pieceMemo, recall, remember } from '../../src/tokenize/pieceMemo.js'
import { codeUnits } from '../../src/tokenize/utf8.js'
import { seeded } from '../prop.js'

const ENCODINGS: ReadonlyArray<EncodingName> = ['o200k_base', 'cl100k_base']

// Few distinct units, so pieces repeat and share slots; surrogates included, paired or lone.
const unit = fc.constantFrom('的', '是', '我们', 'a', 'B', ' ', '，', '😀', '\ud800', '\udc00', 'é')
const piece = fc.string({ unit, minLength: 2, maxLength: MEMO_UNITS / 2 }).filter((p) => p.length >= 2 && p.length <= MEMO_UNITS)

describe('pieceMemo', () => {
  it('recalls only the count last remembered for exactly that piece', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(piece, fc.integer({ min: 1, max: 96 })), { minLength: 1, maxLength: 60 }), (ops) => {
        // four slots: most pieces share one with another
        const memo = pieceMemo(2)
        const last = new Map<string, number>()
        for (const [p, count] of ops) {
          const known = recall(memo, codeUnits(p), 0, p.length)
          if (known > 0) expect(known).toBe(last.get(p))
          else {
            remember(memo, -1 - known, codeUnits(p), 0, p.length, count)
            last.set(p, count)
          }
          // just stored or just found: a second look hits
          expect(recall(memo, codeUnits(p), 0, p.length)).toBe(last.get(p))
        }
      }),
      seeded(2_000),
    )
  })

  it('tells apart two pieces of the same length and hash', () => {
    // 一가一 and 丁ߛ㧖 hash alike: only comparing the code units can separate them
    const a = '\u4e00\uac00\u4e00'
    const b = '\u4e01\u07db\u39d6'
    const memo = pieceMemo(4)
    const slot = recall(memo, codeUnits(a), 0, 3)
    expect(slot).toBeLessThan(0)
    remember(memo, -1 - slot, codeUnits(a), 0, 3, 5)
    expect(recall(memo, codeUnits(b), 0, 3)).toBe(slot)
    expect(recall(memo, codeUnits(a), 0, 3)).toBe(5)
  })

  it('reads a piece inside a longer text by its offsets', () => {
    const memo = pieceMemo(4)
    const text = 'xx我们的yy'
    remember(memo, -1 - recall(memo, codeUnits(text), 2, 5), codeUnits(text), 2, 5, 2)
    expect(recall(memo, codeUnits('我们的'), 0, 3)).toBe(2)
  })
})

// Texts that repeat their pieces, so a second count runs on memoized pieces: long Han runs
// (past the memo's length too), mixed scripts, surrogate pairs and lone surrogates.
const word = fc.constantFrom('我们', '已经', '可以', '数据', '的', '模型', 'API', ' Node.js', ' the', '😀', '\ud83d', '，', '。', ' ', '\n', '12345', 'é')
const repeated = fc
  .array(fc.array(word, { minLength: 1, maxLength: 40 }).map((ws) => ws.join('')), { minLength: 1, maxLength: 6 })
  .chain((pieces) => fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 12 }))
  .map((xs) => xs.join(''))

describe.each(ENCODINGS)('fastBpe with memoized pieces (%s)', (encoding) => {
  const reference = referenceBpe(encoding)
  const fast = fastBpe(encoding)

  it('counts text of repeated pieces as js-tiktoken does, on first and later sight', () => {
    fc.assert(
      fc.property(repeated, (text) => {
        const expected = reference.encode(text).length
        expect(fast.count(text)).toBe(expected)
        expect(fast.count(text)).toBe(expected)
        expect(fast.encode(text).length).toBe(expected)
      }),
      seeded(1_000),
    )
  })
})
