import * as E from 'fp-ts/lib/Either.js'
import { Tiktoken } from 'js-tiktoken/lite'
import { describe, expect, it } from 'vitest'
import { loadRanks } from '../../src/tokenize/bpe.js'
import { createTokenizer, estimateTokenizer } from '../../src/tokenize/tokenizer.js'

const right = <A>(e: E.Either<unknown, A>): A => {
  if (E.isLeft(e)) throw new Error(JSON.stringify(e.left))
  return e.right
}

describe('createTokenizer', () => {
  it('maps model families to encodings, Claude as a non-exact approximation', () => {
    expect(right(createTokenizer('gpt-4o-mini')).name).toBe('o200k_base')
    expect(right(createTokenizer('gpt-5.1')).name).toBe('o200k_base')
    expect(right(createTokenizer('o3-mini')).name).toBe('o200k_base')
    expect(right(createTokenizer('gpt-4-turbo')).name).toBe('cl100k_base')
    expect(right(createTokenizer('gpt-3.5-turbo')).name).toBe('cl100k_base')
    const claude = right(createTokenizer('claude-3-5-sonnet-20241022'))
    expect(claude.name).toBe('cl100k_base')
    expect(claude.exact).toBe(false)
    expect(right(createTokenizer('gpt-4o')).exact).toBe(true)
    expect(right(createTokenizer('estimate')).exact).toBe(false)
  })

  it('rejects an unknown model with an error naming it and saying how to choose', () => {
    const e = createTokenizer('gpt4o')
    expect(E.isLeft(e) && e.left.message).toMatch(/model.*"gpt4o"/)
    for (const m of ['llama-3.1-70b', 'gemini-2.5-pro', '', 'gpt']) {
      const u = createTokenizer(m)
      expect(E.isLeft(u) && u.left.message).toMatch(/choose the encoding yourself: o200k_base .* cl100k_base .* or estimate/)
    }
    expect(E.isLeft(createTokenizer(42 as never))).toBe(true)
  })

  it('maps the model names users write: provider prefixes, fine-tunes, every o-series and GPT-4.1/4.5/5 family', () => {
    const cases: ReadonlyArray<readonly [string, string, boolean]> = [
      ['openai/gpt-4o', 'o200k_base', true],
      ['openrouter/openai/gpt-4.1-mini', 'o200k_base', true],
      ['azure:gpt-4o-2024-08-06', 'o200k_base', true],
      ['ft:gpt-4o-mini:org::id', 'o200k_base', true],
      ['ft:gpt-4o-mini-2024-07-18:acme:support:9abc', 'o200k_base', true],
      ['ft:gpt-3.5-turbo-0125:acme::x1', 'cl100k_base', true],
      ['ft:davinci-002:acme::x1', 'cl100k_base', true],
      ['o1', 'o200k_base', true],
      ['o1-preview', 'o200k_base', true],
      ['o3', 'o200k_base', true],
      ['o4-mini', 'o200k_base', true],
      ['gpt-4.1', 'o200k_base', true],
      ['gpt-4.1-nano', 'o200k_base', true],
      ['gpt-4.5-preview', 'o200k_base', true],
      ['gpt-5', 'o200k_base', true],
      ['GPT-5-mini', 'o200k_base', true],
      ['chatgpt-4o-latest', 'o200k_base', true],
      ['gpt-4', 'cl100k_base', true],
      ['gpt-35-turbo', 'cl100k_base', true],
      ['anthropic/claude-sonnet-4-5', 'cl100k_base', false],
      ['us.anthropic.claude-3-5-sonnet-20240620-v1:0', 'cl100k_base', false],
    ]
    for (const [model, encoding, exact] of cases) {
      const t = right(createTokenizer(model))
      expect([model, t.name, t.exact]).toEqual([model, encoding, exact])
    }
  })

  it('counts exactly as js-tiktoken, treating special-token text as plain text', () => {
    const text = 'Hello 世界! 🎉 <|endoftext|> done.'
    const oracle = new Tiktoken(loadRanks('o200k_base')).encode(text, [], []).length
    expect(right(createTokenizer('gpt-4o')).count(text)).toBe(oracle)
  })

  it('cuts by tokens on a code point boundary', () => {
    const t = right(createTokenizer('cl100k_base'))
    const text = 'Hello 世界! 🎉 done.'
    for (let k = 0; k <= t.count(text); k++) {
      const end = t.prefixEnd(text, k)
      const prefix = text.slice(0, end)
      expect(prefix).toBe(Array.from(prefix).join('')) // no lone surrogate
      expect(prefix).not.toMatch(/[\uD800-\uDBFF]$/)
      expect(t.count(prefix)).toBeLessThanOrEqual(k)
    }
  })
})

describe('estimateTokenizer', () => {
  it('is chars / 4 rounded up', () => {
    expect(estimateTokenizer().count('abcdefghi')).toBe(3)
    expect(estimateTokenizer().count('')).toBe(0)
  })
})
