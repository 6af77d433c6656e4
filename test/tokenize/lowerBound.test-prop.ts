import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeRanks } from '../../src/tokenize/decodeRanks.js'
import { loadRanks } from '../../src/tokenize/ranks.js'
import { HAN_FIRST, hanTouchTable } from '../../scripts/han-touch.js'
import { HAN_TOUCH } from '../../src/tokenize/hanTouch.js'
import { hanLowerBound, nonSpaceRuns, pieceLowerBound, encodingTokenizer } from '../../src/tokenize/tokenizer.js'
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

  it('counts nothing for runs of non-ASCII whitespace, which join the spaces around them', () => {
    // found by a deep run (seed 777): "\u3000 \u3000" is one whitespace piece, one token
    for (const t of ['\u3000 \u3000', '\u3000', ' \u00a0 ', '\u2028\n\u2029', 'a \u3000 b', '\u3000构 \u3000'])
      for (const tokenizer of [o200k, cl100k]) expect({ t, bound: pieceLowerBound(t) }).toEqual({ t, bound: Math.min(pieceLowerBound(t), tokenizer.count(t)) })
    expect(pieceLowerBound('\u3000 \u3000')).toBe(0)
    expect(pieceLowerBound('a \u3000 b')).toBe(2)
  })

  it('is much tighter than counting runs of non-space characters on JSON', () => {
    const json = JSON.stringify({ tool: 'read', path: 'src/config.ts', lines: 120, ok: true, items: [1, 2, 3] })
    expect(nonSpaceRuns(json)).toBe(1)
    expect(pieceLowerBound(json)).toBeGreaterThan(15)
    expect(pieceLowerBound(json)).toBeLessThanOrEqual(o200k.count(json))
  })
})

describe('hanLowerBound', () => {
  const encodings = [
    ['o200k_base', o200k],
    ['cl100k_base', cl100k],
  ] as const
  /** Han-heavy text: words, single and rare characters (split into bytes), punctuation, ASCII between. */
  const han = fc.constantFrom('构建', '失败', '测试', '检查', '微信公众号天天中彩票', '生命周期函数', '的', '是', '龘', '䶵', '鿿', '䀀', '，', '。', '、', ' ', '\n', 'a', '1', '/', 'é', '😀', '\u3000')
  // the vocabularies' own tokens that touch the most Han characters: text made of them is
  // where a bound by each character's longest token is tightest
  const longHan = encodings.flatMap(([name]) => {
    const { bytes, start, end } = decodeRanks(loadRanks(name).bpe_ranks)
    const decoder = new TextDecoder('utf-8', { fatal: true })
    const out: string[] = []
    for (let k = 0; k < start.length; k++) {
      if (end[k]! - start[k]! < 6) continue
      try {
        const s = decoder.decode(bytes.subarray(start[k]!, end[k]!))
        if ((s.match(/[\u4000-\u9fff]/g) ?? []).length >= 3) out.push(s)
      } catch {
        // a token that is not whole characters
      }
    }
    return out
  })
  const hanText = fc.oneof(
    fc.array(han, { maxLength: 80 }).map((ps) => ps.join('')),
    text,
    fc.string({ unit: fc.integer({ min: 0x3ff0, max: 0xa010 }).map((c) => String.fromCharCode(c)), maxLength: 80 }),
    fc.array(fc.oneof(fc.constantFrom(...longHan), han), { maxLength: 30 }).map((ps) => ps.join('')),
  )

  it('never exceeds the real count, on each encoding with its own Han bound', () => {
    fc.assert(
      fc.property(hanText, (t) => {
        for (const [name, tokenizer] of encodings) {
          const bound = hanLowerBound(HAN_TOUCH[name])(t)
          expect({ t, name, bound }).toEqual({ t, name, bound: Math.min(bound, tokenizer.count(t)) })
          expect(bound).toBeGreaterThanOrEqual(pieceLowerBound(t))
        }
      }),
      // a million cases per encoding in the deep run, as pieceLowerBound's
      seeded(5_000, 1_000_000),
    )
  })

  it('the shipped tables are the vocabularies\' own, and their largest figure is the most Han characters any token touches', () => {
    for (const [name] of encodings) {
      const decoded = decodeRanks(loadRanks(name).bpe_ranks)
      const { bytes, start, end } = decoded
      let most = 0
      for (let k = 0; k < start.length; k++) {
        let touched = 0
        let i = start[k]!
        // a token that starts inside a character touches it (it may be Han)
        while (i < end[k]! && (bytes[i]! & 0xc0) === 0x80) i++
        if (i > start[k]!) touched++
        while (i < end[k]!) {
          const b = bytes[i]!
          const length = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4
          if (length === 3 && b >= 0xe4 && b <= 0xe9) touched++ // U+4000–U+9FFF, whole or cut at the end
          i += length
        }
        most = Math.max(most, touched)
      }
      const table = HAN_TOUCH[name]
      expect(table === hanTouchTable(decoded)).toBe(true)
      expect(table.length).toBe(0xa000 - HAN_FIRST)
      let largest = 0
      for (let i = 0; i < table.length; i++) largest = Math.max(largest, table.charCodeAt(i) - 48)
      expect({ name, largest }).toEqual({ name, largest: most })
    }
  })

  it('counts Chinese far tighter than one piece per run', () => {
    const zh = '测试失败检查周一、配置，周一缓存检查节点因为。缓存、脚本配置缓存编译。构建。检查我们说明我们我们缺少发布文件。'
    expect(pieceLowerBound(zh)).toBe(1)
    // one token per ten characters (o200k_base's longest Han token) would give ⌈48 / 10⌉ = 5,
    // one per six (cl100k_base's) 8; the counts are 37 and 51
    expect(hanLowerBound(HAN_TOUCH.o200k_base)(zh)).toBe(17)
    expect(hanLowerBound(HAN_TOUCH.cl100k_base)(zh)).toBe(27)
    expect(o200k.count(zh)).toBe(37)
    expect(cl100k.count(zh)).toBe(51)
    expect(encodingTokenizer('o200k_base').lowerBound(zh)).toBe(17)
  })
})
