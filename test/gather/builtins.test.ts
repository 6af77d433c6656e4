import { describe, expect, it } from 'vitest'
import { makeConfig } from '../../src/config.js'
import { history, instructions, memory, rag, task, toChatMessage } from '../../src/gather/builtins.js'
import type { GatherInput } from '../../src/gather/gatherer.js'
import type { Request } from '../../src/phase.js'
import { build } from '../../src/pipeline.js'
import { gpt4o, NOW, right, run } from '../helpers.js'

const input = (request: Request, config = {}): GatherInput => ({
  request,
  config: right(makeConfig(config)),
  now: NOW,
  tokenizer: gpt4o,
  signal: new AbortController().signal,
})

describe('instructions and task', () => {
  it('make P0 and P1 packets with stable ids', async () => {
    const i = right(await instructions()(input({ query: 'q', instructions: ['a', 'b'] }))())
    expect(i.packets.map((p) => [p.id, p.priority])).toEqual([
      ['instructions:0', 0],
      ['instructions:1', 0],
    ])
    const t = right(await task()(input({ query: 'What now?' }))())
    expect(t.packets.map((p) => [p.id, p.type, p.priority, p.content])).toEqual([['task', 'task', 1, 'What now?']])
  })
})

describe('history', () => {
  const turns = Array.from({ length: 15 }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', content: `turn ${i}` }))

  it('keeps the last maxHistoryMessages turns with ids from their position', async () => {
    const h = right(await history()(input({ query: 'q', history: turns }))())
    expect(h.packets.map((p) => p.id)).toEqual(Array.from({ length: 10 }, (_, i) => `history:${i + 5}`))
    expect(h.packets[0]?.message?.role).toBe('assistant')
  })

  it('never starts on a tool result whose call fell outside the window, and groups call with result', async () => {
    const msgs = [
      { role: 'user' as const, content: 'go' },
      { role: 'assistant' as const, content: [{ _tag: 'ToolCall' as const, id: 'c1', name: 'ls', args: {} }] },
      { role: 'tool' as const, content: [{ _tag: 'ToolResult' as const, callId: 'c1', name: 'ls', content: [{ _tag: 'Text' as const, text: 'a b' }], isError: false }] },
      { role: 'assistant' as const, content: [{ _tag: 'ToolCall' as const, id: 'c2', name: 'cat', args: { f: 'a' } }] },
      { role: 'tool' as const, content: [{ _tag: 'ToolResult' as const, callId: 'c2', name: 'cat', content: [{ _tag: 'Text' as const, text: 'hi' }], isError: false }] },
    ]
    const h = right(await history(3)(input({ query: 'q', history: msgs }))())
    expect(h.packets.map((p) => [p.id, p.group])).toEqual([
      ['history:3', 'tools:3'],
      ['history:4', 'tools:3'],
    ])
  })

  it('never makes packets of turns that cannot fit, and reports them as one range', async () => {
    const long = Array.from({ length: 5000 }, () => ({ role: 'user' as const, content: 'this turn has exactly seven words here' }))
    const h = right(await history()(input({ query: 'q', history: long }, { maxTokens: 1000, reserveRatio: 0, maxHistoryMessages: Infinity }))())
    // each turn is at least 7 tokens + 1: at most 125 turns can be in a 1000-token budget
    expect(h.packets.length).toBe(125)
    expect(h.packets[0]?.id).toBe('history:4875')
    expect(h.excluded).toEqual([
      { id: 'history:0..4874', reason: 'over_budget', detail: '4875 older turn(s) cannot fit: the newer turns alone need at least 1000 tokens; not counted' },
    ])
  })

  it('reports the turns before the window as one history_limit range (60 turns in: 10 kept, 50 reported)', async () => {
    const sixty = Array.from({ length: 60 }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', content: `turn ${i}` }))
    const h = right(await history()(input({ query: 'q', history: sixty }))())
    expect(h.packets.map((p) => p.id)).toEqual(Array.from({ length: 10 }, (_, i) => `history:${i + 50}`))
    expect(h.excluded).toEqual([{ id: 'history:0..49', reason: 'history_limit', detail: '50 older turn(s) before the last 10 (maxHistoryMessages); not counted' }])
    const one = right(await history(14)(input({ query: 'q', history: turns }))())
    expect(one.excluded).toEqual([{ id: 'history:0', reason: 'history_limit', detail: "1 older turn(s) before the last 14 (the history gatherer's limit); not counted" }])
    const all = right(await history()(input({ query: 'q', history: sixty }, { maxHistoryMessages: Infinity }))())
    expect([all.packets.length, all.excluded]).toEqual([60, []])
  })

  it('reports tool results left out at the window start with the turns before it', async () => {
    const msgs = [
      { role: 'assistant' as const, content: [{ _tag: 'ToolCall' as const, id: 'c1', name: 'ls', args: {} }] },
      { role: 'tool' as const, content: [{ _tag: 'ToolResult' as const, callId: 'c1', name: 'ls', content: [{ _tag: 'Text' as const, text: 'a b' }], isError: false }] },
      { role: 'user' as const, content: 'thanks' },
    ]
    const h = right(await history(2)(input({ query: 'q', history: msgs }))())
    expect(h.packets.map((p) => p.id)).toEqual(['history:2'])
    expect(h.excluded?.map((x) => [x.id, x.reason])).toEqual([['history:0..1', 'history_limit']])
    // a history that opens on a result (no call anywhere) keeps it: nothing before it to go with
    const orphan = right(await history()(input({ query: 'q', history: msgs.slice(1) }))())
    expect([orphan.packets.map((p) => p.id), orphan.excluded]).toEqual([['history:0', 'history:1'], []])
  })

  it('reads ISO timestamps', () => {
    expect(toChatMessage({ role: 'user', content: 'x', timestamp: '2026-01-01T00:00:00Z' }).timestamp).toBe(Date.parse('2026-01-01T00:00:00Z'))
  })
})

describe('memory and rag', () => {
  it('pass the query and limit, respect the limit, and rank hits in the retriever\'s order (scores are ranks, not probabilities)', async () => {
    const calls: Array<[string, number]> = []
    const m = memory(async (q, limit) => {
      calls.push([q, limit])
      return [
        { content: 'likes tea', score: 0.8, kind: 'task_state' as const },
        { content: 'lives in Berlin', score: 7.5 },
        { content: 'extra' },
      ]
    }, { limit: 2 })
    const r = right(await m(input({ query: 'drinks' }))())
    expect(calls).toEqual([['drinks', 2]])
    expect(r.packets.map((p) => [p.type, p.source, p.relevance, p.metadata['rank']])).toEqual([
      ['task_state', 'memory', 1, 1],
      ['evidence', 'memory', 0.5, 2],
    ])
    expect(r.packets.map((p) => p.metadata['score'])).toEqual([0.8, 7.5])
  })

  it('keep a retriever\'s best hit whatever its scale: a cosine 0.25 or a BM25 12.3 is not gated by minRelevance', async () => {
    const hits = (scores: ReadonlyArray<number>) => async () => scores.map((score, i) => ({ content: `passage ${i} about zebras`, source: `doc${i}`, score }))
    for (const scores of [[0.25, 0.21], [12.3, 8.1]]) {
      const result = await run(build({ query: 'Why does the build fail?' }, { tokenizer: gpt4o, now: NOW, rag: { retrieve: hits(scores) } }))
      expect(result.included).toEqual(expect.arrayContaining(['rag:doc0#0', 'rag:doc1#1']))
      expect(result.excluded.filter((x) => x.reason === 'below_min_relevance')).toEqual([])
    }
  })

  it('drop hits under minScore by their raw score, and say so', async () => {
    const g = rag(async () => [{ content: 'a', source: 's', id: 'a', score: 0.9 }, { content: 'b', source: 's', id: 'b', score: 0.1 }, { content: 'c', source: 's', id: 'c' }], { minScore: 0.2 })
    const r = right(await g(input({ query: 'q' }))())
    expect(r.packets.map((p) => p.id)).toEqual(['rag:a'])
    expect(r.excluded).toEqual([
      { id: 'rag:b', reason: 'below_min_relevance', detail: 'retriever score 0.1 < minScore 0.2' },
      { id: 'rag:c', reason: 'below_min_relevance', detail: 'retriever score undefined < minScore 0.2' },
    ])
  })

  it('rag keeps the source of each passage', async () => {
    const g = rag(async () => [{ content: 'Paris is in France.', source: 'wiki/Paris', id: 'p1' }])
    const r = right(await g(input({ query: 'Paris' }))())
    expect(r.packets.map((p) => [p.id, p.type, p.source])).toEqual([['rag:p1', 'evidence', 'wiki/Paris']])
  })

  it('a result without string content is a failure naming it, not a crash', async () => {
    const g = rag(async () => [{ content: 42 as unknown as string, source: 's', id: 'x' }])
    const r = await g(input({ query: 'q' }))()
    expect(r._tag === 'Left' && r.left.message).toBe('packets[0].content: must be a string (got 42)')
  })

  it('a retriever answering with something other than an array of objects is a failure saying so', async () => {
    const notArray = await rag(async () => ({ hits: [] }) as never)(input({ query: 'q' }))()
    expect(notArray._tag === 'Left' && notArray.left).toMatchObject({ gatherer: 'rag', message: 'must resolve to an array of results (got {"hits":[]})' })
    const nullHit = await memory(async () => [{ content: 'a' }, null as never])(input({ query: 'q' }))()
    expect(nullHit._tag === 'Left' && nullHit.left.message).toBe('results[1]: must be an object with content (got null)')
  })

  it('reads ISO timestamps of results, and refuses unreadable ones naming the packet', async () => {
    const ok = right(await rag(async () => [{ content: 'a', source: 's', timestamp: '2026-11-22T06:00:00Z' }])(input({ query: 'q' }))())
    expect(ok.packets[0]?.timestamp).toBe(Date.UTC(2026, 10, 22, 6))
    const bad = await rag(async () => [{ content: 'a', source: 's', timestamp: 'last tuesday' }])(input({ query: 'q' }))()
    expect(bad._tag === 'Left' && bad.left.message).toMatch(/^packets\[0\]\.timestamp: must be epoch milliseconds .* \(got "last tuesday"\)$/)
  })
})
