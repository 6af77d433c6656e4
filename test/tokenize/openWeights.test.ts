/**
 * Exact counts for open-weight models, checked against the reference implementation: Hugging
 * Face's Rust `tokenizers` (its Node binding, a devDependency) loading the same published
 * `tokenizer.json`, on a mixed corpus (English, Chinese, code, JSON, real tool outputs).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import fc from 'fast-check'
import { Tokenizer as Reference } from 'tokenizers'
import { beforeAll, describe, expect, it } from 'vitest'
import { OPEN_WEIGHT_PACKAGES, openWeightFamily, openWeightTokenizer, type OpenWeightFamily } from '../../src/tokenize/openWeights.js'
import type { Tokenizer } from '../../src/tokenize/tokenizer.js'
import { fixture } from '../shared.js'
import { left, run } from '../helpers.js'
import { seeded } from '../prop.js'

const require = createRequire(import.meta.url)

const CORPUS: ReadonlyArray<string> = [
  'The quick brown fox jumps over the lazy dog. It\'s 3.14159 o\'clock — isn\'t it?',
  '构建失败的原因是缺少编译脚本。人工智能正在改变世界，我们去公园散步吧！',
  '日本語のテキスト、カタカナとひらがな。한국어 문장도 있습니다. Ünïcödé café naïve 😀 👨‍👩‍👧',
  'export const add = (a: number, b: number): number => {\n\treturn a + b // sum\n}\n\n    if (x) {\n        y()\n    }\n',
  'def load(path: str) -> dict:\n    """Load it."""\n    with open(path) as f:\n        return json.load(f)\n',
  JSON.stringify({ id: 12345678901, name: 'gssc', tags: ['a', 'b'], nested: { 'ключ': 'значение', ok: true, n: null } }, null, 2),
  '  leading and trailing spaces   \n\n\n\t\ttabs\r\nCRLF line\r\n',
  'Special-looking text: <|begin_of_text|> <think>x</think> <start_of_turn>user a> </b',
  '1234567890 12 345 6789 0.5 -7e10 0x1F',
]

const realOutputs = (): ReadonlyArray<string> =>
  readFileSync(fixture('pi', 'large-session.jsonl'), 'utf8')
    .split('\n')
    .slice(0, 60)
    .filter((l) => l.includes('"toolResult"'))
    .map((l) => JSON.stringify(JSON.parse(l).message.content))

const FAMILIES: ReadonlyArray<[OpenWeightFamily, string]> = [
  ['llama3', 'meta-llama/Llama-3.1-8B-Instruct'],
  ['qwen3', 'Qwen/Qwen3-8B'],
  ['deepseek_v3', 'deepseek-v3'],
  ['gemma3', 'google/gemma-3-4b-it'],
]

describe('openWeightFamily', () => {
  it('reads model names as users write them', () => {
    expect(openWeightFamily('llama3.3')).toBe('llama3')
    expect(openWeightFamily('meta-llama/Meta-Llama-3-70B')).toBe('llama3')
    expect(openWeightFamily('Qwen/Qwen3-235B-A22B')).toBe('qwen3')
    expect(openWeightFamily('deepseek-r1')).toBe('deepseek_v3')
    expect(openWeightFamily('gemma-3-27b-it')).toBe('gemma3')
    expect(openWeightFamily('llama-2-7b')).toBeUndefined()
    expect(openWeightFamily('gpt-4o')).toBeUndefined()
  })

  it('an unknown model is an error that says which models are known', async () => {
    expect(left(await openWeightTokenizer('mistral-7b')()).message).toMatch(/Llama 3, Qwen 3, DeepSeek V3, Gemma 3/)
  })
})

describe.each(FAMILIES)('%s', (family, model) => {
  let tokenizer: Tokenizer
  let reference: Reference
  beforeAll(async () => {
    tokenizer = await run(openWeightTokenizer(model))
    reference = Reference.fromFile(require.resolve(`${OPEN_WEIGHT_PACKAGES[family]}/models/tokenizer.json`))
  }, 120_000)

  it('counts exactly as the reference implementation on a mixed corpus and real tool outputs', async () => {
    expect(tokenizer.exact).toBe(true)
    for (const text of [...CORPUS, ...realOutputs()]) {
      const expected = (await reference.encode(text, null, { addSpecialTokens: false })).getIds().length
      expect(tokenizer.count(text), JSON.stringify(text.slice(0, 60))).toBe(expected)
    }
  })

  it('lower bound never exceeds the count', () => {
    for (const text of CORPUS) expect(tokenizer.lowerBound(text)).toBeLessThanOrEqual(tokenizer.count(text))
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'Z', '1', ' ', '\n', '\t', '.', '<', '>', '/', '中', 'é', '😀', "'", '_', '-') , maxLength: 60 }), (text) => {
        expect(tokenizer.lowerBound(text)).toBeLessThanOrEqual(tokenizer.count(text))
      }),
      seeded(300),
    )
    // spellings of added tokens join what the pre-tokenizer would split; Gemma's '>▁</' spans two runs
    const pieces = ['<think>', '</think>', '<|begin_of_text|>', '<|eot_id|>', '<start_of_turn>', '<｜User｜>', '<tool_call>', '> </', '12', 'ab', '.', ' ', '\n']
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const text = parts.join('')
        expect(tokenizer.lowerBound(text)).toBeLessThanOrEqual(tokenizer.count(text))
      }),
      seeded(300),
    )
  })

  it('prefix end: a prefix of the text, on a character boundary, holding about the tokens asked', () => {
    for (const text of CORPUS) {
      const n = tokenizer.count(text)
      for (const k of [1, Math.floor(n / 3), n - 1, n]) {
        const end = tokenizer.prefixEnd(text, k)
        expect(end).toBeLessThanOrEqual(text.length)
        expect(text.charCodeAt(end - 1) >= 0xd800 && text.charCodeAt(end - 1) <= 0xdbff).toBe(false)
        expect(tokenizer.count(text.slice(0, end))).toBeLessThanOrEqual(k + 1)
      }
      expect(tokenizer.prefixEnd(text, n)).toBe(text.length)
    }
  })
})
