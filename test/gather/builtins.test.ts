import { describe, expect, it } from 'vitest'
import { makeConfig } from '../../src/config.js'
import { history, instructions, memory, rag, task, toChatMessage } from '../../src/gather/builtins.js'
import type { GatherInput } from '../../src/gather/gatherer.js'
import type { Request } from '../../src/phase.js'
import { gpt4o, NOW, right } from '../helpers.js'

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

  it('reads ISO timestamps', () => {
    expect(toChatMessage({ role: 'user', content: 'x', timestamp: '2026-01-01T00:00:00Z' }).timestamp).toBe(Date.parse('2026-01-01T00:00:00Z'))
  })
})

describe('memory and rag', () => {
  it('pass the query and limit, respect the limit, and use scores in [0, 1] as relevance', async () => {
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
    expect(r.packets.map((p) => [p.type, p.source, p.relevance])).toEqual([
      ['task_state', 'memory', 0.8],
      ['evidence', 'memory', undefined],
    ])
    expect(r.packets[1]?.metadata['score']).toBe(7.5)
  })

  it('rag keeps the source of each passage', async () => {
    const g = rag(async () => [{ content: 'Paris is in France.', source: 'wiki/Paris', id: 'p1' }])
    const r = right(await g(input({ query: 'Paris' }))())
    expect(r.packets.map((p) => [p.id, p.type, p.source])).toEqual([['rag:p1', 'evidence', 'wiki/Paris']])
  })

  it('a result without string content is a failure naming it, not a crash', async () => {
    const g = rag(async () => [{ content: 42 as unknown as string, source: 's', id: 'x' }])
    const r = await g(input({ query: 'q' }))()
    expect(r._tag === 'Left' && r.left.message).toMatch(/result rag:x: content must be a string/)
  })
})
