import { describe, expect, it } from 'vitest'
import { fitItem, marker } from '../../src/workspace/fit.js'
import type { Item } from '../../src/workspace/sections.js'
import { tokenizer } from './helpers.js'

const item = (body: string, extra: Partial<Item> = {}): Item => ({
  id: 'memory',
  kind: 'memory',
  name: 'Long-term Memory',
  file: 'memory/MEMORY.md',
  head: '## Long-term Memory\n',
  body,
  cuttable: true,
  type: 'task_state',
  priority: 1,
  rank: 0,
  bytes: Buffer.byteLength(body),
  ...extra,
})

describe('marker', () => {
  it('says what was cut, with an exact or an estimated total', () => {
    expect(marker('memory/MEMORY.md', 1987, 9000, false)).toBe('… [truncated: memory/MEMORY.md, kept 1,987 of 9,000 tokens]')
    expect(marker('memory/MEMORY.md', 1987, 524_288, true)).toBe('… [truncated: memory/MEMORY.md, kept 1,987 of ~524,000 tokens]')
  })
})

describe('fitItem', () => {
  const lines = Array.from({ length: 40 }, (_, i) => `- Fact number ${i + 1} about the user.`).join('\n')

  it('keeps an item that fits whole, counted once', () => {
    const fitted = fitItem(item('- Likes tea.\n'), 100, tokenizer, 8)
    expect(fitted).toEqual({ text: '## Long-term Memory\n- Likes tea.\n', tokens: tokenizer.count('## Long-term Memory\n- Likes tea.\n'), truncated: false, wholeTokens: 9 })
  })

  it('cuts at a line end and appends the marker on its own line', () => {
    const fitted = fitItem(item(lines), 60, tokenizer, 8)!
    expect(fitted.truncated).toBe(true)
    expect(fitted.tokens).toBeLessThanOrEqual(60)
    // 1,250 characters is more than this limit's window, so the total is estimated (it is 365)
    expect(fitted.text).toBe(
      '## Long-term Memory\n- Fact number 1 about the user.\n- Fact number 2 about the user.\n- Fact number 3 about the user.\n… [truncated: memory/MEMORY.md, kept 32 of ~361 tokens]',
    )
    expect(tokenizer.count(`## Long-term Memory\n${lines}`)).toBe(365)
    // counted whole when short enough
    expect(fitItem(item(lines), 200, tokenizer, 8)!.text).toMatch(/kept \d+ of 365 tokens\]$/)
  })

  it('cuts CJK text after a full stop, not inside a character', () => {
    const text = '他喜欢喝茶。'.repeat(60)
    const fitted = fitItem(item(text), 40, tokenizer, 8)!
    const kept = fitted.text.slice('## Long-term Memory\n'.length, fitted.text.indexOf('\n… [truncated'))
    expect(kept.endsWith('。')).toBe(true)
    expect(text.startsWith(kept)).toBe(true)
  })

  it('drops what cannot keep its head and minCut tokens, and all-or-nothing items that do not fit', () => {
    expect(fitItem(item(lines), 20, tokenizer, 8)).toBeUndefined()
    expect(fitItem(item(lines, { cuttable: false }), 100, tokenizer, 8)).toBeUndefined()
    expect(fitItem(item('short', { cuttable: false }), 100, tokenizer, 8)?.truncated).toBe(false)
  })

  it('tokenizes only a window of a huge text and estimates its total', () => {
    const huge = `${'- A fact that repeats itself many times over.\n'.repeat(50_000)}`
    const counted: number[] = []
    const spy = { ...tokenizer, count: (t: string) => (counted.push(t.length), tokenizer.count(t)), prefixEnd: (t: string, n: number) => (counted.push(t.length), tokenizer.prefixEnd(t, n)) }
    const fitted = fitItem(item(huge), 500, spy, 8)!
    expect(fitted.text).toMatch(/kept \d{3} of ~\d{1,3},\d{3} tokens\]$/)
    expect(Math.max(...counted)).toBeLessThan(10_000) // of 2,300,000 characters
  })
})
