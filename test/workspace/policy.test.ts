import { describe, expect, it } from 'vitest'
import { applyCaps, fitDocument } from '../../src/compress/engine.js'
import { decorationOf, renderText, sectionsOf, type Item as LayoutItem } from '../../src/structure/document.js'
import { meter } from '../../src/tokenize/meter.js'
import type { Tokenizer } from '../../src/tokenize/tokenizer.js'
import { resolveSettings } from '../../src/workspace/options.js'
import { promptDocument, promptPolicy } from '../../src/workspace/policy.js'
import type { Item, Section } from '../../src/workspace/sections.js'
import { right, RUNTIME, tokenizer } from './helpers.js'

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
  bytes: Buffer.byteLength(body),
  ...extra,
})

const section = (i: Item): Section => ({ id: 'memory', joiner: '', head: '', sep: '\n\n', tail: '', items: [i] })

/** The part as its per-file cap leaves it (the prompt's own policy), or undefined when the cap removes it. */
const capped = (i: Item, cap: number, minCutTokens: number, t: Tokenizer = tokenizer): LayoutItem | undefined => {
  const s = right(resolveSettings({ tokenizer: t, runtime: RUNTIME, maxFileTokens: cap, minCutTokens }))
  const m = meter(t)
  return sectionsOf(applyCaps(promptDocument([section(i)], s, m), promptPolicy(s), m))[0]!.items[0]
}

const shown = (i: LayoutItem): string => i.prefix + i.text
const tokensOf = (i: LayoutItem): number => decorationOf(i, meter(tokenizer)) + i.tokens

describe('promptDocument: a part under its per-file cap', () => {
  const lines = Array.from({ length: 40 }, (_, i) => `- Fact number ${i + 1} about the user.`).join('\n')

  it('keeps a part that fits whole, counted once, heading and text together', () => {
    const counted: string[] = []
    const spy: Tokenizer = { ...tokenizer, count: (t) => (counted.push(t), tokenizer.count(t)) }
    const kept = capped(item('- Likes tea.\n'), 100, 8, spy)!
    expect(shown(kept)).toBe('## Long-term Memory\n- Likes tea.\n')
    expect(kept.cut).toBeUndefined()
    expect(tokensOf(kept)).toBe(9)
    expect(tokensOf(kept)).toBe(tokenizer.count('## Long-term Memory\n- Likes tea.\n'))
    expect(counted.filter((t) => t.includes('Likes tea'))).toEqual(['## Long-term Memory\n- Likes tea.\n'])
  })

  it('cuts at a line end and appends the marker on its own line', () => {
    const cut = capped(item(lines), 60, 8)!
    expect(cut.cut).toBeDefined()
    expect(tokensOf(cut)).toBeLessThanOrEqual(60)
    expect(tokensOf(cut)).toBe(tokenizer.count(shown(cut)))
    // 1,270 characters is more than this cap's window, so the total is estimated (it is 365)
    expect(shown(cut)).toBe(
      '## Long-term Memory\n- Fact number 1 about the user.\n- Fact number 2 about the user.\n- Fact number 3 about the user.\n… [truncated: memory/MEMORY.md, kept 32 of ~375 tokens]',
    )
    expect(tokenizer.count(`## Long-term Memory\n${lines}`)).toBe(365)
    // counted whole when short enough
    expect(shown(capped(item(lines), 200, 8)!)).toMatch(/kept \d+ of 365 tokens\]$/)
  })

  it('cuts CJK text after a full stop, not inside a character', () => {
    const text = '他喜欢喝茶。'.repeat(60)
    const cut = capped(item(text), 40, 8)!
    const kept = cut.text.slice(0, cut.text.indexOf('\n… [truncated'))
    expect(kept.endsWith('。')).toBe(true)
    expect(text.startsWith(kept)).toBe(true)
  })

  it('removes what cannot keep its heading and minCutTokens tokens', () => {
    expect(capped(item(lines), 20, 8)).toBeUndefined()
  })

  it('keeps an all-or-nothing part whole or leaves it out, never cut', () => {
    const fitted = (i: Item, maxTokens: number) => {
      const s = right(resolveSettings({ tokenizer, runtime: RUNTIME, maxTokens, minCutTokens: 8 }))
      const m = meter(tokenizer)
      const doc = promptDocument([section(i)], s, m)
      return fitDocument(doc, promptPolicy(s), { available: maxTokens, meter: m, measure: (d) => tokenizer.count(renderText(d)), cost: (x) => decorationOf(x, m) + x.tokens })
    }
    expect(renderText(fitted(item(lines, { cuttable: false }), 100).doc)).toBe('')
    expect(renderText(fitted(item('short', { cuttable: false }), 100).doc)).toBe('## Long-term Memory\nshort')
  })

  it('tokenizes only a window of a huge file, and estimates its total from its size on disk', () => {
    const huge = '- A fact that repeats itself many times over.\n'.repeat(50_000)
    const counted: number[] = []
    const spy: Tokenizer = { ...tokenizer, count: (t) => (counted.push(t.length), tokenizer.count(t)), prefixEnd: (t, n) => (counted.push(t.length), tokenizer.prefixEnd(t, n)) }
    const cut = capped(item(huge), 500, 8, spy)!
    expect(cut.text).toMatch(/kept \d{3} of ~\d{1,3},\d{3} tokens\]$/)
    expect(Math.max(...counted)).toBeLessThan(10_000) // of 2,300,000 characters
    // only the first tenth of the file was read: the total is the whole file's
    const read = capped(item(huge.slice(0, huge.length / 10), { bytes: huge.length }), 500, 8)!
    expect(read.text.slice(read.text.lastIndexOf('\n') + 1)).toBe(cut.text.slice(cut.text.lastIndexOf('\n') + 1))
  })
})
