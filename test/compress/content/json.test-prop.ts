import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compressContent, compressJson } from '../../../src/compress/content/index.js'
import { gpt4o } from '../../helpers.js'
import { seeded } from '../../prop.js'

const ITEMS = /^\.\.\. \d+ more items?$/
const SUBTREE = /^(?:\[\.\.\. \d+ items\]|\{\.\.\. \d+ keys\})$/
const CHARS = /^([\s\S]*)\.\.\. \[\d+ more chars\]$/

/**
 * Whether `out` is a structural subset of `input` plus the compressor's markers: objects keep
 * some of their members in order (plus a `"..."` member), arrays a subsequence of their items
 * (plus one `"... N more items"`), strings their start, scalars their value, and any
 * container may become a one-string summary.
 */
const subsetOf = (out: unknown, input: unknown): boolean => {
  if (typeof out === 'string' && SUBTREE.test(out) && typeof input === 'object' && input !== null) return true
  if (typeof input === 'string' && typeof out === 'string') {
    if (out === input) return true
    const m = CHARS.exec(out)
    return m !== null && input.startsWith(m[1]!)
  }
  if (Array.isArray(input)) {
    if (!Array.isArray(out)) return false
    let j = 0
    for (const item of out) {
      if (typeof item === 'string' && ITEMS.test(item)) continue
      while (j < input.length && !subsetOf(item, input[j])) j++
      if (j >= input.length) return false
      j++
    }
    return true
  }
  if (typeof input === 'object' && input !== null) {
    if (typeof out !== 'object' || out === null || Array.isArray(out)) return false
    const keys = Object.keys(input)
    return Object.entries(out).every(([k, v]) => (k === '...' && !keys.includes('...') ? typeof v === 'string' : keys.includes(k) && subsetOf(v, (input as Record<string, unknown>)[k])))
  }
  return Object.is(out, input) || out === input
}

describe('compressJson', () => {
  it('fits a target, and the result parses and is a structural subset of the input plus markers', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), fc.integer({ min: 1, max: 400 }), (value, pretty, target) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined)
        const r = compressJson(text, target, gpt4o)
        if (r._tag === 'Declined') return
        expect(r.tokens).toBeLessThanOrEqual(target)
        expect(gpt4o.count(r.text)).toBe(r.tokens)
        const parsed: unknown = JSON.parse(r.text)
        expect(subsetOf(parsed, JSON.parse(text))).toBe(true)
      }),
      seeded(300),
    )
  })

  it('through compressContent, a JSON text always fits, and stays JSON whenever 12 tokens are allowed', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.integer({ min: 0, max: 300 }), (value, target) => {
        const text = JSON.stringify(value, null, 2)
        const r = compressContent(text, target, gpt4o)
        expect(r.tokens).toBeLessThanOrEqual(Math.max(target, r._tag === 'Unchanged' ? r.tokens : 0))
        if (target >= 12 && r._tag !== 'Cut') expect(() => JSON.parse(r.text)).not.toThrow()
        if (target >= 12) expect(r._tag).not.toBe('Cut')
      }),
      seeded(200),
    )
  })

  it('keeps head and tail items around "... N more items", and big integers as written', () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({ id: i, name: `row ${i}` }))
    const text = `{"total": 12345678901234567890, "price": 1.50, "rows": ${JSON.stringify(rows)}}`
    const r = compressJson(text, 60, gpt4o)
    expect(r._tag).toBe('Fitted')
    if (r._tag !== 'Fitted') return
    expect(r.text).toContain('"total":12345678901234567890')
    expect(r.text).toContain('"price":1.50')
    expect(r.text).toMatch(/\{"id":0,"name":"row 0"\}.*"\.\.\. \d+ more items".*\{"id":39,"name":"row 39"\}/)
    expect(r.removed).toContainEqual({ _tag: 'ArrayItems', path: '$.rows', items: expect.any(Number) })
  })

  it('says which string it shortened and by how much', () => {
    const text = JSON.stringify({ log: 'x'.repeat(5000), ok: true })
    const r = compressJson(text, 100, gpt4o)
    expect(r._tag === 'Fitted' && r.removed).toContainEqual({ _tag: 'StringChars', path: '$.log', chars: expect.any(Number) })
    expect(r._tag === 'Fitted' && JSON.parse(r.text).ok).toBe(true)
  })

  it('declines what is not strict JSON (comments, trailing commas, trailing text)', () => {
    for (const text of ['{"a": 1,}', '{"a": 1} // note', '{"a": 1} extra', 'not json'])
      expect(compressJson(text, 1, gpt4o)._tag).toBe('Declined')
  })
})
