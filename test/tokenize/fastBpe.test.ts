import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { referenceBpe, type Bpe, type EncodingName } from '../../src/tokenize/bpe.js'
import { fastBpe } from '../../src/tokenize/fastBpe.js'
import { fixture } from '../shared.js'

// The oracle is js-tiktoken itself: referenceBpe's encode is `new Tiktoken(ranks).encode(text, [], [])`.

const ENCODINGS: ReadonlyArray<EncodingName> = ['o200k_base', 'cl100k_base']

const EXAMPLES: ReadonlyArray<readonly [string, string]> = [
  ['empty', ''],
  ['ascii', 'Hello, world! The quick brown fox jumps over the lazy dog. It\'s 5 o\'clock; we\'ve won.'],
  ['chinese', '人工智能正在改变我们的生活方式。在过去的十年里，深度学习技术取得了突破性进展！你觉得呢？'],
  ['chinese run', '中华人民共和国国务院办公厅关于进一步加强城市规划建设管理工作的若干意见实施细则说明'],
  ['japanese', 'こんにちは、世界。今日は良い天気ですね！カタカナとひらがなと漢字を混ぜて書きます。'],
  ['korean', '안녕하세요, 세계! 한국어 텍스트도 토큰화합니다.'],
  ['mixed scripts', 'Привет мир, γειά σου κόσμε, مرحبا بالعالم, नमस्ते दुनिया, გამარჯობა, สวัสดีชาวโลก'],
  ['emoji', 'Launch 🚀🚀 done ✅ 😀😃😄 👍🏽👍🏿 🇯🇵🇫🇷 ❤️'],
  ['zwj sequences', '👨‍👩‍👧‍👦 family, 👩🏽‍💻 coder, 🏳️‍🌈 flag, 🧑‍🤝‍🧑'],
  ['combining marks', 'e\u0301 a\u0308 n\u0303 Z\u0351\u0360\u0361 \u0915\u094d\u0937 o\u0302\u0323'],
  ['crlf', 'line one\r\nline two\r\n\r\n  indented\r\n\ttabbed\r'],
  ['whitespace runs', '   \t\t  \n\n\n   x    y\u00a0\u00a0z\u3000\u3000w   \n \n  '],
  ['digits', '1234567890 3.14159 1,000,000 2024-05-13 0x1F ١٢٣٤ ४५६'],
  ['code', 'export const add = (a: number, b: number): number => {\n  return a + b // sum\n}\nif (x !== null && y?.z) { arr.push([1, 2, 3]) }\n'],
  ['json', JSON.stringify({ id: 'call_01', ok: true, n: 42, tags: ['a', 'b'], nested: { path: 'src/x.ts', score: 0.93 } }, null, 2)],
  ['special tokens', '<|endoftext|> text <|fim_prefix|><|fim_middle|><|fim_suffix|><|endofprompt|><|im_start|>'],
  ['lone high surrogate', 'a\uD800b \uD83D end \uDBFF'],
  ['lone low surrogate', '\uDC00x\uDFFF y \uDE00'],
  ['reversed pair', '\uDC00\uD800 \uDE00\uD83D'],
  ['surrogate next to han', '中\uD800文\uDC00字'],
  ['contractions', "I'm you're they've he'll she'd IT'S WE'RE don't"],
  ['long word', 'a'.repeat(300) + ' ' + 'ab'.repeat(150) + ' ' + '的'.repeat(200)],
]

// Deterministic Chinese prose: real sentences, shuffled by a seeded generator.
const SENTENCES = [
  '春天来了，公园里的花都开了，孩子们在草地上快乐地奔跑。',
  '随着经济的快速发展，越来越多的人开始关注环境保护和可持续发展的问题。',
  '这项研究表明，适当的体育锻炼可以显著提高学生的学习效率和身体素质。',
  '他说：“我们必须坚持创新，才能在激烈的市场竞争中立于不败之地。”',
  '会议讨论了人工智能、大数据、云计算等新技术在医疗健康领域的应用前景。',
  '据统计，二〇二三年全国共有一千一百五十八万名高校毕业生进入就业市场。',
  '老师耐心地解释了每一道题的解题思路，同学们都听得非常认真',
  '《红楼梦》是中国古典小说的巅峰之作，描写了贾、史、王、薛四大家族的兴衰。',
  '如果你有任何问题，请随时联系我们的客服团队；我们将在二十四小时内回复。',
  '城市的夜晚灯火通明，街道两旁的小吃摊散发出诱人的香味',
]

const chineseText = (bytes: number): string => {
  let seed = 20240513
  const parts: string[] = []
  let size = 0
  while (size < bytes) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    const s = SENTENCES[seed % SENTENCES.length]!
    parts.push(s)
    size += Buffer.byteLength(s)
    if (seed % 7 === 0) parts.push('\n\n')
  }
  return parts.join('')
}

// Every distinct string inside the messages (and summaries) of the real pi session files.
const fixtureTexts = (): ReadonlyArray<string> => {
  const out = new Set<string>()
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.add(v)
    else if (Array.isArray(v)) v.forEach(walk)
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk)
  }
  for (const file of ['before-compaction.jsonl', 'large-session.jsonl'])
    for (const line of readFileSync(fixture('pi', file), 'utf8').split('\n')) {
      if (line.trim() === '') continue
      const entry = JSON.parse(line) as { message?: unknown; summary?: unknown }
      walk(entry.message)
      walk(entry.summary)
    }
  return [...out]
}

const same = (fast: Bpe, reference: Bpe, text: string): void => {
  const ids = reference.encode(text)
  expect(fast.encode(text)).toEqual(ids)
  expect(fast.count(text)).toBe(ids.length)
}

describe.each(ENCODINGS)('fastBpe(%s)', (encoding) => {
  const fast = fastBpe(encoding)
  const reference = referenceBpe(encoding)

  it.each(EXAMPLES)('encodes %s exactly as js-tiktoken', (_, text) => {
    same(fast, reference, text)
  })

  it.each(EXAMPLES)('puts token ends of %s where the reference does', (_, text) => {
    expect(Array.from(fast.tokenEnds(text))).toEqual(Array.from(reference.tokenEnds(text)))
  })

  it('marks a token ending inside a character with −1', () => {
    // a rare CJK character and an emoji split into byte-level tokens
    const text = '𠀋😀'
    const ends = fast.tokenEnds(text)
    expect(ends.length).toBeGreaterThan(2)
    expect(Array.from(ends)).toContain(-1)
    expect(ends[ends.length - 1]).toBe(text.length)
  })

  it('encodes 100 KB of Chinese prose exactly', () => {
    const text = chineseText(100_000)
    expect(Buffer.byteLength(text)).toBeGreaterThanOrEqual(100_000)
    same(fast, reference, text)
    const ends = fast.tokenEnds(text)
    expect(ends.length).toBe(fast.count(text))
    expect(ends[ends.length - 1]).toBe(text.length)
  })

  it('encodes all message text of the pi session fixtures exactly', () => {
    const texts = fixtureTexts()
    expect(texts.length).toBeGreaterThan(3000)
    const wrong = texts.filter((t) => {
      const ids = reference.encode(t)
      const got = fast.encode(t)
      return fast.count(t) !== ids.length || got.length !== ids.length || got.some((id, i) => id !== ids[i])
    })
    expect(wrong).toEqual([])
  })

  it('gives the same answers before and after it builds its character table', () => {
    // An engine builds its character table once 64 KiB of non-ASCII text has been merged.
    const used = fastBpe(encoding)
    used.count(chineseText(70_000))
    const text = chineseText(3000) + EXAMPLES.map(([, t]) => t).join('\n')
    const fresh = fastBpe(encoding)
    expect(fresh.encode(text)).toEqual(used.encode(text))
    expect(fresh.count(text)).toBe(used.count(text))
    expect(Array.from(fresh.tokenEnds(text))).toEqual(Array.from(used.tokenEnds(text)))
  })

  it('reports its encoding; the empty string has no tokens', () => {
    const bpe = fastBpe(encoding)
    expect(bpe.encoding).toBe(encoding)
    expect(bpe.count('')).toBe(0)
    expect(bpe.encode('')).toEqual([])
    expect(bpe.tokenEnds('').length).toBe(0)
  })
})
