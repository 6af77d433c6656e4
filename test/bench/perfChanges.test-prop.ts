/**
 * Guards for the performance changes made while benchmarking: each fast path must give
 * exactly what the plain computation gives.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { joinedCount, meterCount, spanCount } from '../../src/compress/outputCount.js'
import { isLineStart, wordEnds } from '../../src/tokenize/wordEdges.js'
import { packet } from '../../src/packet.js'
import { meter } from '../../src/tokenize/meter.js'
import type { Span } from '../../src/structure/document.js'
import { keywordSearch } from '../../src/select/keywordSearch.js'
import { countWords, keywordExtractor, stem, wordCounter } from '../../src/select/keywords.js'
import { encodingTokenizer, estimateTokenizer } from '../../src/tokenize/tokenizer.js'
import { seeded } from '../prop.js'

const char = (min: number, max: number): fc.Arbitrary<string> => fc.integer({ min, max }).map((c) => String.fromCharCode(c))
const from = (chars: string): fc.Arbitrary<string> => fc.constantFrom(...Array.from(chars))
const run = (unit: fc.Arbitrary<string>, minLength: number, maxLength: number): fc.Arbitrary<string> => fc.string({ unit, minLength, maxLength })

// Word ends live where letters meet spaces, digits, punctuation, apostrophes, marks and CJK
// punctuation: every kind of neighbour appears here.
const chunk = fc.oneof(
  run(from('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'), 1, 10),
  run(from('的一是不了人我在有他这中大来上国个到说们为子和你构建失败脚本'), 1, 8),
  run(char(0x4e00, 0x9fff), 1, 4),
  run(char(0x3041, 0x30ff), 1, 4),
  run(char(0x80, 0x7ff), 1, 4),
  char(0x80, 0xffff),
  run(from('0123456789'), 1, 5),
  run(fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\n\n', '\u00a0', '\u3000'), 1, 3),
  run(from('{}()[];:,.!?"\'`<>/\\|=+-*&^%$#@~_，。、！？：；「」…—'), 1, 3),
  fc.constantFrom("'s", "'LL", "'ve", "n't", '😀', '👍🏽', '𠀋', '\u0301', 'é', 'e\u0301', '<|endoftext|>'),
  char(0xd800, 0xdfff),
)
const text = (maxChunks: number) => fc.array(chunk, { maxLength: maxChunks }).map((xs) => xs.join(''))
// prose-like: words with their neighbours, so most contents have word ends
const prose = (maxChunks: number) =>
  fc.array(fc.oneof(chunk, fc.tuple(run(from('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ构建失败'), 1, 8), from(' ,.;:\n-"\'0(，。')).map(([w, c]) => w + c)), { maxLength: maxChunks }).map((xs) => xs.join(''))

describe('joinedCount', () => {
  it('is the exact count of decoration + text + separator for the splittable encodings, and the parts counted apart for others', () => {
    let joined = 0
    fc.assert(
      fc.property(
        fc.constantFrom(encodingTokenizer('o200k_base'), encodingTokenizer('cl100k_base'), estimateTokenizer()),
        text(4),
        fc.oneof(text(20), prose(20)),
        text(3),
        (tokenizer, before, content, after) => {
          const whole = tokenizer.count(before + content + after)
          const n = joinedCount(tokenizer.count, tokenizer.name, before, content, tokenizer.count(content), after)
          if (tokenizer.name === 'estimate') expect(n).toBe(tokenizer.count(before) + tokenizer.count(content) + tokenizer.count(after))
          else expect(n).toBe(whole)
          // counted apart, the parts would have said more: the join is where the over-count was
          if (n < tokenizer.count(before) + tokenizer.count(content) + tokenizer.count(after)) joined++
        },
      ),
      seeded(1500),
    )
    expect(joined).toBeGreaterThan(50)
  })
})

describe('spanCount', () => {
  const encodings = [encodingTokenizer('o200k_base'), encodingTokenizer('cl100k_base')]

  /** glue + content, repeated, with the span of every content: what a renderer reports. */
  const spanned = (pieces: ReadonlyArray<readonly [string, string]>): { readonly text: string; readonly spans: ReadonlyArray<Span> } => {
    let text = ''
    const spans: Span[] = []
    pieces.forEach(([glue, content], i) => {
      text += glue
      spans.push({ start: text.length, end: text.length + content.length, packetId: `p${i}`, content })
      text += content
    })
    return { text, spans }
  }

  it('equals a plain count of the whole text, for any placement of the known texts', () => {
    let composed = 0
    fc.assert(
      fc.property(
        fc.constantFrom(...encodings),
        fc.array(fc.tuple(text(8), fc.oneof(text(30), prose(30))), { minLength: 1, maxLength: 25 }),
        fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }),
        (tokenizer, pieces, unknown) => {
          const body = spanned(pieces)
          const whole = body.text.length < 600 ? body.text + ' padding'.repeat(80) : body.text
          // some contents have no known count (a cut item): they are counted with the glue
          const known = new Map(pieces.flatMap(([, content], i) => (unknown[i] ? [] : [[content, tokenizer.count(content)] as const])))
          let tokenized = 0
          const spy = { ...tokenizer, count: (t: string) => ((tokenized += t.length), tokenizer.count(t)) }
          expect(spanCount(spy, whole, body.spans, (t) => known.get(t))).toBe(tokenizer.count(whole))
          if (tokenized !== whole.length) composed++
        },
      ),
      seeded(1500),
    )
    // the property is about the composed path: most texts must have taken it
    expect(composed).toBeGreaterThan(500)
  })

  it('is exact on rendered-looking output with real messages', () => {
    const tokenizer = encodingTokenizer('o200k_base')
    const contents = ['the build fails because the compile script is missing', '构建失败，因为缺少编译脚本。我们需要检查版本', 'const x = await build(config);\nif (!ok) throw new Error(`failed`)', '{"tool":"read","path":"src/a.ts","lines":12,"ok":true}']
    const pieces = Array.from({ length: 8 }, (_, k) => contents.map((c, i) => [`${i === 0 ? `${k === 0 ? '' : '\n\n[Output]\nPlease answer.'}[Context]\nConversation history and background:\n` : '\n'}${i % 2 === 0 ? 'user' : 'assistant'}: `, c] as const)).flat()
    const { text: output, spans } = spanned(pieces)
    expect(spanCount(tokenizer, output, spans, (t) => tokenizer.count(t))).toBe(tokenizer.count(output))
  })

  it('splits at line starts: a text counts as its two sides whenever a line start separates them', () => {
    let split = 0
    fc.assert(
      fc.property(fc.constantFrom(...encodings), fc.oneof(text(12), prose(12)), fc.constantFrom('\n', '\r\n', '\n\n', ' \n', '.\n', '}\n', '\n\r'), fc.oneof(text(12), prose(12)), (tokenizer, a, br, b) => {
        const left = a + br
        if (!isLineStart(left + b, left.length)) return
        split++
        expect(tokenizer.count(left) + tokenizer.count(b)).toBe(tokenizer.count(left + b))
      }),
      seeded(3000),
    )
    expect(split).toBeGreaterThan(1000)
  })

  /** A tokenizer, decorated items and their separator: a layout's history section. */
  const section = [
    fc.constantFrom(...encodings),
    fc.array(fc.tuple(fc.constantFrom('user: ', 'assistant: ', '[Source: a.md] ', '- ', '', 'Note:\n', '/x '), fc.oneof(text(30), prose(30))), { minLength: 1, maxLength: 25 }),
    fc.constantFrom('\n', '\n\n', ' '),
  ] as const

  /** The section laid out under a heading, before fixed text: the output and its spans. */
  const laidOut = (items: ReadonlyArray<readonly [string, string]>, separator: string): { readonly whole: string; readonly spans: ReadonlyArray<Span> } => {
    const body = spanned(items.map(([prefix, content], i) => [i === 0 ? `[Context]\nHistory:\n${prefix}` : `${separator}${prefix}`, content] as const))
    return { whole: `${body.text}${'\n\n[Output]\nanswer briefly'.repeat(body.text.length < 600 ? 30 : 1)}`, spans: body.spans }
  }

  it('counting through a build\'s meter, primed as the selector primes it (each item joined with its decoration), equals a plain count', () => {
    fc.assert(
      fc.property(...section, (tokenizer, items, separator) => {
        const m = meter(tokenizer)
        const count = meterCount(m)
        for (const [prefix, content] of items) joinedCount(count, tokenizer.name, prefix, content, count(content), separator)
        const { whole, spans } = laidOut(items, separator)
        expect(spanCount(tokenizer, whole, spans, m.counted, count)).toBe(tokenizer.count(whole))
      }),
      seeded(1500),
    )
  })

  it("with the meter's word edges and joins (found once per build) gives the same counts, tokenizing the same texts", () => {
    fc.assert(
      fc.property(...section, (tokenizer, items, separator) => {
        // the same build twice: once as before the edges were kept, once keeping them
        const plain = meter(tokenizer)
        const kept = meter(tokenizer)
        const joins = items.map(([prefix, content]) => joinedCount(meterCount(plain), tokenizer.name, prefix, content, plain.once(content), separator))
        expect(items.map(([prefix, content]) => joinedCount(meterCount(kept), tokenizer.name, prefix, content, kept.once(content), separator, kept.edges, kept.join))).toEqual(joins)
        const { whole, spans } = laidOut(items, separator)
        expect(spanCount(tokenizer, whole, spans, kept.counted, meterCount(kept), kept.found, kept.joined)).toBe(tokenizer.count(whole))
        expect(spanCount(tokenizer, whole, spans, plain.counted, meterCount(plain))).toBe(tokenizer.count(whole))
        expect(kept.stats()).toEqual(plain.stats())
      }),
      seeded(1500),
    )
  })

  it('a packet counted laid out (its line in one pass, `Meter.laidOut`) has the count, edges and join counting its parts gives, and outputs count the same', () => {
    let counted = 0
    fc.assert(
      fc.property(...section, (tokenizer, items, separator) => {
        const plain = meter(tokenizer)
        const line = meter(tokenizer)
        items.forEach(([prefix, content], i) => {
          const joined = joinedCount(meterCount(plain), tokenizer.name, prefix, content, plain.once(content), separator, plain.edges, plain.join)
          const p = packet({ id: `p${i}`, type: 'evidence', content }, 0)
          const whole = line.laidOut(p, prefix, separator)
          // not laid out: a content met before, or one without a word end (counted apart, below)
          if (whole === undefined) {
            if (!items.slice(0, i).some(([, c]) => c === content)) expect(wordEnds(content, true)).toBeUndefined()
            return
          }
          counted++
          expect(whole).toBe(tokenizer.count(prefix + content + separator))
          expect(whole).toBe(joined)
          expect(line.packet(p)).toBe(tokenizer.count(content))
          expect(line.found(content)).toEqual(plain.found(content))
          expect(line.joined(content)).toEqual(plain.joined(content))
        })
        // what composes an output's count from them
        const { whole, spans } = laidOut(items, separator)
        expect(spanCount(tokenizer, whole, spans, line.counted, meterCount(line), line.found, line.joined)).toBe(tokenizer.count(whole))
      }),
      seeded(1500),
    )
    expect(counted).toBeGreaterThan(1000)
    // a tokenizer without `countEnds` (spread into another) counts the parts
    expect(meter({ ...encodingTokenizer('o200k_base') }).laidOut(packet({ type: 'evidence', content: 'a b c' }, 0), 'x: ', '\n')).toBeUndefined()
  })

  it('falls back to the tokenizer for other encodings', () => {
    const estimate = estimateTokenizer()
    const text = 'abc def '.repeat(100)
    expect(spanCount(estimate, text, [{ start: 0, end: 7, packetId: 'a', content: 'abc def' }], () => 99)).toBe(estimate.count(text))
  })
})

describe('wordCounter', () => {
  const words = fc.oneof(
    from('abcdefghijklmnopqrstuvwxyz_0123456789').chain((c) => run(from('abcdefghijklmnopqrstuvwxyz'), 0, 9).map((w) => c + w)),
    fc.constantFrom('build', 'builds', 'failed', 'tries', 'compile', 'stopped', 'boxes', 'is', 'a', 'x1', 'node', 'версия', '构建', 'café', 'naïve'),
  )
  const lowerText = fc
    .tuple(fc.array(fc.oneof(words, chunk), { maxLength: 40 }), fc.constantFrom(' ', '', ', '))
    .map(([xs, separator]) => xs.join(separator).toLowerCase())

  it('keywordSearch counts exactly what countWords counts', () => {
    // keywords of 3+ characters (shorter ones are left to wordCounter), some ending in y
    const keyword = fc.oneof(words, fc.constantFrom('fly', 'flaky', 'try', 'tries', 'x1y', 'café', 'версия', 'a_b', '构建x')).filter((w) => stem(w).length >= 3)
    const around = fc.oneof(chunk, fc.constantFrom('构建', '⺀', '฿', '๏', '\u0301', 'é', '𠀋', 'ก', '_', '-', ' '))
    const textWith = fc.tuple(fc.array(fc.oneof(words, around, keyword), { maxLength: 40 }), fc.constantFrom(' ', '', ', ')).map(([xs, sep]) => xs.join(sep).toLowerCase())
    let searched = 0
    fc.assert(
      fc.property(fc.array(textWith, { minLength: 1, maxLength: 6 }), fc.array(keyword, { minLength: 1, maxLength: 8 }), (texts, query) => {
        const wanted = new Set(query.map(stem))
        const search = keywordSearch(wanted)
        if (search === undefined) return
        searched++
        for (const t of texts) expect(search(t)).toBe(countWords(t, wanted))
      }),
      seeded(3000),
    )
    expect(searched).toBeGreaterThan(1000)
  })

  it('counts exactly what countWords counts', () => {
    fc.assert(
      fc.property(fc.array(lowerText, { minLength: 1, maxLength: 6 }), fc.array(words, { maxLength: 8 }), (texts, query) => {
        const wanted = new Set(query.map(stem))
        const counter = wordCounter(wanted)
        for (const t of texts) expect(counter(t)).toBe(countWords(t, wanted))
      }),
      seeded(3000),
    )
  })

  it('agrees on a query extracted the usual way', () => {
    const wanted = new Set([...keywordExtractor()('Why does the build fail after the compile script was renamed? 构建 café')].filter((k) => !/[\u4e00-\u9fff]/.test(k)))
    const counter = wordCounter(wanted)
    for (const t of ['The builds failed after renaming', 'CAFÉ compiled café', 'build构建 fails', 'rename_script renamed scripts'])
      expect(counter(t.toLowerCase())).toBe(countWords(t.toLowerCase(), wanted))
  })
})
