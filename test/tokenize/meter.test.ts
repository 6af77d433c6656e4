import { describe, expect, it } from 'vitest'
import { openaiRenderer } from '../../src/formats.js'
import type { SimpleMessage } from '../../src/phase.js'
import { build } from '../../src/pipeline.js'
import { createTokenCache } from '../../src/tokenize/cache.js'
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
