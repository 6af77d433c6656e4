import { describe, expect, it } from 'vitest'
import { cutMiddle } from '../../src/compress/cutText.js'
import { openaiRenderer } from '../../src/formats.js'
import { capMessage } from '../../src/gather/itemCap.js'
import { message, toolCall, toolResult } from '../../src/message.js'
import { build } from '../../src/pipeline.js'
import { countOpenAI } from '../../src/render/count.js'
import type { Tokenizer } from '../../src/tokenize/tokenizer.js'
import { gpt4o, NOW, run } from '../helpers.js'

const hugeLog = Array.from({ length: 12_000 }, (_, i) => `2026-11-24T10:${String(i % 60).padStart(2, '0')}:00 INFO step ${i} finished in ${i % 97} ms`).join('\n')
const hugeJson = JSON.stringify({ items: Array.from({ length: 5_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'] })), total: 5_000 })

/** A tokenizer that records the longest text it was asked to count. */
const spy = (): { readonly tokenizer: Tokenizer; readonly longest: () => number } => {
  let longest = 0
  return {
    tokenizer: { ...gpt4o, count: (t) => ((longest = Math.max(longest, t.length)), gpt4o.count(t)), prefixEnd: (t, n) => ((longest = Math.max(longest, t.length)), gpt4o.prefixEnd(t, n)) },
    longest: () => longest,
  }
}

describe('cutMiddle', () => {
  it('keeps head and tail within the limit, says what was cut, and tokenizes windows only', () => {
    const s = spy()
    const r = cutMiddle(hugeLog, 500, s.tokenizer)!
    expect(r.tokens).toBe(gpt4o.count(r.text))
    expect(r.tokens).toBeLessThanOrEqual(500)
    expect(r.text.startsWith('2026-11-24T10:00:00 INFO step 0 finished')).toBe(true)
    expect(r.text.endsWith('step 11999 finished in 68 ms')).toBe(true)
    expect(r.text).toMatch(/\n\[… cut to fit: kept [\d,]+ of ~[\d,]+ tokens …\]\n/)
    expect(s.longest()).toBeLessThan(hugeLog.length / 10)
    expect(cutMiddle('short text', 500, gpt4o)).toBeUndefined()
  })
})

describe('the per-item cap', () => {
  it('cuts an oversized tool result; a JSON one stays valid JSON', () => {
    const m = message('tool', [toolResult('c1', 'list', hugeJson)])
    const r = capMessage(m, 400, gpt4o)!
    const part = r.message.parts[0]
    const text = part?._tag === 'ToolResult' && part.content[0]?._tag === 'Text' ? part.content[0].text : ''
    expect(() => JSON.parse(text)).not.toThrow()
    expect(text).toMatch(/more items/)
    expect(gpt4o.count(text)).toBeLessThanOrEqual(400)
    expect(r.originalTokens).toBeGreaterThan(10_000)
    expect(m.parts[0]).toEqual(toolResult('c1', 'list', hugeJson)) // the input is untouched
    expect(capMessage(message('user', 'hello'), 400, gpt4o)).toBeUndefined()
  })

  it('one 120k-token tool result in the newest turn no longer wipes out the history under a 4,000-token budget', async () => {
    const huge = `${hugeLog}\n${hugeLog}\n${hugeLog}`
    expect(huge.length).toBeGreaterThan(400_000)
    const history = [
      ...Array.from({ length: 8 }, (_, i) => message(i % 2 === 0 ? 'user' : 'assistant', `turn ${i} about the failing deploy step`)),
      message('assistant', [toolCall('c1', 'logs', { service: 'api' })]),
      message('tool', [toolResult('c1', 'logs', huge)]),
    ]
    const r = await run(build({ query: 'What went wrong?', history }, { tokenizer: gpt4o, now: NOW, config: { maxTokens: 4000 }, renderer: openaiRenderer() }))
    expect(r.tokenCount).toBeLessThanOrEqual(r.budget.available)
    expect(r.tokenCount).toBe(countOpenAI(r.output, gpt4o))
    // the older turns survive, the call keeps its (cut) result, and the report says what was cut
    expect(r.included).toEqual(expect.arrayContaining(['history:0', 'history:7', 'history:8', 'history:9']))
    const cut = r.truncated.find((t) => t.id === 'history:9')!
    expect(cut.keptTokens).toBeLessThanOrEqual(Math.floor(r.budget.available / 4))
    expect(cut.originalTokens).toBeGreaterThan(100_000)
    expect(r.packets.find((p) => p.id === 'history:9')?.status).toBe('truncated')
    const tool = r.output.find((m) => m.role === 'tool')
    expect(tool?.content).toMatch(/\[… cut to fit: kept [\d,]+ of ~[\d,]+ tokens …\]/)
  })

  it('is off at maxItemShare 1', async () => {
    const history = [message('user', hugeLog.slice(0, 20_000))]
    const r = await run(build({ query: 'q', history }, { tokenizer: gpt4o, now: NOW, config: { maxTokens: 4000, maxItemShare: 1 } }))
    expect(r.truncated).toEqual([])
  })
})
