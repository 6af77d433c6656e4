import { describe, expect, it } from 'vitest'
import { cutMiddle } from '../../src/compress/cutText.js'
import { openaiRenderer } from '../../src/formats.js'
import { capMessage, capPacket } from '../../src/gather/itemCap.js'
import type { ContentCut } from '../../src/phase.js'
import { sniff } from '../../src/compress/content/index.js'
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

  it('one 120k-token tool log in the newest turn no longer wipes out the history under a 4,000-token budget, and is cut as a log', async () => {
    // a deploy log: 36,000 routine lines of one shape, three distinct errors among them, and the outcome last
    const errors = ['ERROR db pool exhausted: 50 of 50 connections busy', 'ERROR health check /ready timed out after 30 s', 'FATAL rollout aborted: 3 of 5 pods unready']
    const huge = [hugeLog, errors[0], hugeLog, errors[1], hugeLog, errors[2], 'deploy failed: exit code 1'].join('\n')
    expect(huge.length).toBeGreaterThan(400_000)
    const history = [
      ...Array.from({ length: 8 }, (_, i) => message(i % 2 === 0 ? 'user' : 'assistant', `turn ${i} about the failing deploy step`)),
      message('assistant', [toolCall('c1', 'logs', { service: 'api' })]),
      message('tool', [toolResult('c1', 'logs', huge)]),
    ]
    const s = spy()
    const r = await run(build({ query: 'What went wrong?', history }, { tokenizer: s.tokenizer, now: NOW, config: { maxTokens: 4000 }, renderer: openaiRenderer() }))
    // the budget holds, exactly, and the huge text was never tokenized in full
    expect(r.tokenCount).toBeLessThanOrEqual(r.budget.available)
    expect(r.tokenCount).toBe(countOpenAI(r.output, gpt4o))
    expect(s.longest()).toBeLessThan(huge.length / 10)
    // the older turns survive, the call keeps its (cut) result, and the report says what was cut
    expect(r.included).toEqual(expect.arrayContaining(['history:0', 'history:7', 'history:8', 'history:9']))
    const cut = r.truncated.find((t) => t.id === 'history:9')!
    expect(cut.keptTokens).toBeLessThanOrEqual(Math.floor(r.budget.available / 4))
    expect(cut.originalTokens).toBeGreaterThan(100_000)
    expect(r.packets.find((p) => p.id === 'history:9')?.status).toBe('truncated')
    const tool = String(r.output.find((m) => m.role === 'tool')?.content)
    // cut as a log: every error line and the outcome are kept, the routine lines fold with their counts
    for (const e of [...errors, 'deploy failed: exit code 1']) expect(tool).toContain(e)
    const folds = [...tool.matchAll(/\.\.\. (\d+) more similar lines/g)].map((m) => Number(m[1]))
    expect(folds.length).toBeGreaterThan(0)
    expect(cut.content).toHaveLength(1)
    expect(cut.content![0]!.kind).toBe('log')
    const removed = cut.content![0]!.removed
    const repeated = removed.flatMap((x) => (x._tag === 'RepeatedLines' ? [x.lines] : []))
    expect(repeated).toEqual(folds)
    // every input line is either shown, folded or omitted, and the report counts it
    const omitted = removed.flatMap((x) => (x._tag === 'Lines' ? [x.lines] : []))
    const shown = tool.split('\n').filter((l) => !/^\.\.\. \d+ (?:more similar lines?|lines? omitted)$/.test(l)).length
    expect(shown + repeated.reduce((a, b) => a + b, 0) + omitted.reduce((a, b) => a + b, 0)).toBe(huge.split('\n').length)
  })

  it('cuts a text of no known kind to head and tail, and says so', async () => {
    const prose = Array.from({ length: 4000 }, (_, i) => `Sentence ${i} of a long story that goes on.`).join(' ')
    const r = capMessage(message('user', prose), 300, gpt4o)!
    const text = r.message.parts[0]?._tag === 'Text' ? r.message.parts[0].text : ''
    expect(text).toMatch(/\[… cut to fit: kept [\d,]+ of ~[\d,]+ tokens …\]/)
    expect(text.startsWith('Sentence 0 ')).toBe(true)
    expect(text.endsWith('Sentence 3999 of a long story that goes on.')).toBe(true)
    expect(r.content).toEqual([{ kind: 'text', removed: [{ _tag: 'Cut', keptTokens: r.keptTokens, originalTokens: r.originalTokens }] }])
  })

  it("takes a packet's metadata as the hint: a path names the language", () => {
    // one long Python function, whose text alone passes for a log: the path says what it is
    const body = Array.from({ length: 400 }, (_, k) => `    y = y * ${k} + x`).join('\n')
    const source = `import math\n\ndef step(x):\n    y = 0\n${body}\n    return math.floor(y)\n`
    expect(sniff(source).kind).toBe('log')
    const p = { id: 'read:1', type: 'history' as const, content: source, metadata: { path: 'pipeline/steps.py' }, message: message('tool', [toolResult('c1', 'read', source)]) }
    const r = capPacket(p, 300, gpt4o)
    const capped = r.metadata?.['capped'] as { readonly content: ReadonlyArray<ContentCut> }
    expect(capped.content.map((c) => c.kind)).toEqual(['code'])
    expect(capped.content[0]!.removed.filter((x) => x._tag === 'Body').length).toBeGreaterThan(0)
    expect(r.content).toContain('def step(x):')
    expect(gpt4o.count(r.content)).toBeLessThanOrEqual(300)
    expect(r.metadata?.['path']).toBe('pipeline/steps.py')
  })

  it('is off at maxItemShare 1', async () => {
    const history = [message('user', hugeLog.slice(0, 20_000))]
    const r = await run(build({ query: 'q', history }, { tokenizer: gpt4o, now: NOW, config: { maxTokens: 4000, maxItemShare: 1 } }))
    expect(r.truncated).toEqual([])
  })
})
