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

  it('rejects an unknown model with an error naming it', () => {
    const e = createTokenizer('gpt4o')
    expect(E.isLeft(e) && e.left.message).toMatch(/model.*"gpt4o"/)
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
