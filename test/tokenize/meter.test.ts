import { describe, expect, it } from 'vitest'
import { openaiRenderer } from '../../src/formats.js'
import type { SimpleMessage } from '../../src/phase.js'
import { build } from '../../src/pipeline.js'
import { createTokenCache } from '../../src/tokenize/cache.js'
import { meter } from '../../src/tokenize/meter.js'
import type { Tokenizer } from '../../src/tokenize/tokenizer.js'
import { gpt4o, MINUTE, NOW, run } from '../helpers.js'

/** The real tokenizer, recording every text it is asked to count. */
const spy = (): { readonly tokenizer: Tokenizer; readonly seen: Map<string, number> } => {
  const seen = new Map<string, number>()
  return {
    seen,
    tokenizer: { ...gpt4o, count: (text) => (seen.set(text, (seen.get(text) ?? 0) + 1), gpt4o.count(text)) },
  }
}

const history: SimpleMessage[] = Array.from({ length: 60 }, (_, i) => ({
  role: i % 2 ? 'assistant' : 'user',
  content: `Turn ${i}: the build of module ${i} failed at the compile step; we retried with a clean cache.`,
  timestamp: NOW - (60 - i) * MINUTE,
}))
const packets = Array.from({ length: 40 }, (_, i) => ({ id: `e${i}`, type: 'evidence' as const, content: `Evidence ${i}: compile step logs for module ${i}.`, source: `log-${i}` }))

describe('meter', () => {
  it('counts a text not yet counted with its word edges in one pass, when its tokenizer can, to the numbers counting apart gives', () => {
    // a tokenizer spread into another does not take `countEnds`: its count may be the caller's own
    const apart = { ...gpt4o }
    expect('countEnds' in apart).toBe(false)
    const one = meter(gpt4o)
    const three = meter(apart)
    const texts = [...history.map((h) => h.content as string), 'why does the build fail?', '你好，世界。然后呢', '{"tool":"read","ok":true}', '12345']
    // as the history's walk asks: the edges, then the text's count
    for (const t of texts) {
      expect([t, one.edges(t)]).toEqual([t, three.edges(t)])
      expect([t, one.once(t)]).toEqual([t, three.once(t)])
      expect(one.counted(t)).toBe(gpt4o.count(t))
    }
    // one call a text, where the meter without it counts each text and each of its ends not seen before
    expect(one.stats().tokenizerCalls).toBe(texts.length)
    expect(three.stats().tokenizerCalls).toBeGreaterThan(texts.length)
  })

  it.each(['text', 'openai'] as const)('tokenizes each packet at most once per build (%s)', async (format) => {
    const { tokenizer, seen } = spy()
    const request = { query: 'Why does the compile step fail?', instructions: 'Be brief.', history, packets }
    const options = { tokenizer, now: NOW, config: { maxTokens: 600, maxHistoryMessages: 60 } }
    const r = format === 'text' ? await run(build(request, options)) : await run(build(request, { ...options, renderer: openaiRenderer() }))
    const contents = [...history.map((h) => h.content as string), ...packets.map((p) => p.content)]
    for (const c of contents) expect(seen.get(c) ?? 0).toBeLessThanOrEqual(1)
    // and most of what could not fit was never tokenized at all
    expect(contents.filter((c) => seen.has(c)).length).toBeLessThan(contents.length)
    expect(r.tokenCount).toBeLessThanOrEqual(510)
  })

  it('with a shared cache, a rebuild after one more turn tokenizes only that turn and the output', async () => {
    const cache = createTokenCache()
    const options = { now: NOW, cache, config: { maxTokens: 600, maxHistoryMessages: 100 } }
    await run(build({ query: 'q', history }, { ...options, tokenizer: gpt4o }))
    const { tokenizer, seen } = spy()
    const next = [...history, { role: 'user' as const, content: 'One more question about the cache.' }]
    const r = await run(build({ query: 'q', history: next }, { ...options, tokenizer }))
    // the output is counted (whole or in pieces); no earlier turn is tokenized again
    const counted = [...seen.keys()].filter((t) => !r.output.includes(t) || t === 'One more question about the cache.')
    expect(counted).toEqual(['One more question about the cache.'])
    for (const h of history) expect(seen.has(h.content as string)).toBe(false)
  })
})
