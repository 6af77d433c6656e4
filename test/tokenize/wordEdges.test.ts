/**
 * The word edges a build's meter keeps: where a text's count splits into the counts of its
 * sides (the identity itself is proved over random texts in test/bench/perfChanges).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encodingTokenizer } from '../../src/tokenize/tokenizer.js'
import { edgesOf, isLineStart, isWordEnd, wordEnds } from '../../src/tokenize/wordEdges.js'
import { seeded } from '../prop.js'

const o200k = encodingTokenizer('o200k_base')

describe('wordEnds', () => {
  it('finds word ends only between a letter and a non-letter', () => {
    expect(isWordEnd('ab cd', 2)).toBe(true)
    expect(isWordEnd('ab cd', 1)).toBe(false)
    expect(isWordEnd("it's", 2)).toBe(false)
    expect(isWordEnd('失败，', 2)).toBe(true)
    expect(isWordEnd('ab', 2)).toBe(false)
  })
  it('gives the first and last word ends, or one for both when asked', () => {
    expect(wordEnds('ab cd ef')).toEqual([2, 5])
    expect(wordEnds('ab cd')).toBeUndefined()
    expect(wordEnds('ab cd', true)).toEqual([2, 2])
    expect(wordEnds('   ')).toBeUndefined()
    expect(wordEnds('构建失败，脚本缺失。')).toEqual([4, 9])
  })
})

describe('isLineStart', () => {
  it('is a printable character other than / after a line break', () => {
    expect(isLineStart('a\nb', 2)).toBe(true)
    expect(isLineStart('a\r\nb', 3)).toBe(true)
    expect(isLineStart('a\n/b', 2)).toBe(false)
    expect(isLineStart('a\n b', 2)).toBe(false)
    expect(isLineStart('a\nb', 3)).toBe(false)
  })
})

describe('edgesOf', () => {
  it('counts the text before the first word end and from the last', () => {
    const t = 'The build fails, because the script is missing.'
    const e = edgesOf(o200k.count, t)!
    expect([e.first, e.last]).toEqual(wordEnds(t, true))
    expect(e.head).toBe(o200k.count(t.slice(0, e.first)))
    expect(e.tail).toBe(o200k.count(t.slice(e.last)))
    expect(edgesOf(o200k.count, '12 34')).toBeUndefined()
  })

  it('splits a text into head, middle and tail whose counts add up to its own', () => {
    const word = fc.stringMatching(/^[a-zA-Z]{1,8}$/)
    const gap = fc.constantFrom(' ', ', ', '. ', '\n', ' 42 ', '：', '、', ' (', ') ')
    const text = fc.array(fc.tuple(word, gap), { minLength: 1, maxLength: 12 }).map((ps) => ps.map(([w, g]) => w + g).join(''))
    fc.assert(
      fc.property(text, (t) => {
        const e = edgesOf(o200k.count, t)
        if (e === undefined) return
        expect(e.head + o200k.count(t.slice(e.first, e.last)) + e.tail).toBe(o200k.count(t))
      }),
      seeded(300),
    )
  })
})
