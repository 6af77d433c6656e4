import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compressContent, type ContentCompressor } from '../../../src/compress/content/index.js'
import { gpt4o } from '../../helpers.js'
import { seeded } from '../../prop.js'

const lines = fc.array(fc.oneof(fc.string(), fc.constantFrom('error: boom', '# Heading', 'def f(x):', '    return x', '{', '}', '[1, 2]', '```')), { maxLength: 40 })

describe('compressContent', () => {
  it('always fits the target, whatever the text and however it is sniffed', () => {
    fc.assert(
      fc.property(lines, fc.integer({ min: 0, max: 200 }), fc.constantFrom(undefined, 'a.ts', 'a.py', 'a.md', 'a.json', 'a.log'), (ls, target, path) => {
        const text = ls.join('\n')
        const r = compressContent(text, target, gpt4o, path === undefined ? {} : { path })
        expect(gpt4o.count(r.text)).toBe(r.tokens)
        if (r._tag !== 'Unchanged') expect(r.tokens).toBeLessThanOrEqual(target)
        else expect(r.text).toBe(text)
      }),
      seeded(300),
    )
  })

  it('never trusts a compressor that claims to fit and does not: it cuts instead', () => {
    const liar: ContentCompressor = (text) => ({ _tag: 'Fitted', text, tokens: 0, removed: [] })
    const text = 'error: '.repeat(200)
    const r = compressContent(text, 20, gpt4o, { language: 'log' }, { compressors: { log: () => liar } })
    expect(r._tag).toBe('Cut')
    expect(r._tag === 'Cut' && r.reason).toMatch(/overshot/)
    expect(r.tokens).toBeLessThanOrEqual(20)
  })

  it('leaves a text that fits as it is', () => {
    expect(compressContent('short', 10, gpt4o)).toEqual({ _tag: 'Unchanged', text: 'short', tokens: 1 })
  })
})
