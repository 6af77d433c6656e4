import { describe, expect, it } from 'vitest'
import { defaultSelector } from '../../src/select/selector.js'
import type { SimpleMessage } from '../../src/phase.js'
import { gpt4o, MINUTE, NOW } from '../helpers.js'
import { gathered } from './fixtures.js'

const ids = (s: { selected: ReadonlyArray<{ packet: { id: string } }> }) => s.selected.map((x) => x.packet.id)
const reason = (s: { excluded: ReadonlyArray<{ id: string; reason: string }> }, id: string) => s.excluded.find((e) => e.id === id)?.reason

describe('defaultSelector', () => {
  it('always keeps P0 and the task, even over budget', async () => {
    const g = await gathered({ query: 'q', instructions: 'word '.repeat(400) }, { maxTokens: 100, reserveRatio: 0 })
    const s = defaultSelector()(g)
    expect(ids(s)).toEqual(['instructions', 'task'])
  })

  it('drops gated packets below min relevance, with the score in the reason', async () => {
    const g = await gathered({
      query: 'Why does the build fail?',
      packets: [
        { id: 'hit', type: 'evidence', content: 'The build fails when the compile script is missing.' },
        { id: 'miss', type: 'evidence', content: 'Paris is sunny today.' },
      ],
    })
    const s = defaultSelector()(g)
    expect(ids(s)).toContain('hit')
    expect(reason(s, 'miss')).toBe('below_min_relevance')
    expect(s.excluded.find((e) => e.id === 'miss')?.detail).toBe('relevance 0 < 0.3')
  })

  it('names each gated packet\'s own relevance, however many share a value', async () => {
    const rels = [0.1, 0.25, 0.1, 0, 0.25, 0.125]
    const g = await gathered({ query: 'Why does the build fail?', packets: rels.map((relevance, i) => ({ id: `p${i}`, type: 'evidence', content: `passage ${i}`, relevance })) })
    const s = defaultSelector()(g)
    expect(rels.map((_, i) => s.excluded.find((e) => e.id === `p${i}`)?.detail)).toEqual([
      'relevance 0.1 < 0.3',
      'relevance 0.25 < 0.3',
      'relevance 0.1 < 0.3',
      'relevance 0 < 0.3',
      'relevance 0.25 < 0.3',
      'relevance 0.125 < 0.3',
    ])
  })

  it('does not gate history: a keyword-free follow-up keeps the recent turns', async () => {
    const history: SimpleMessage[] = [
      { role: 'user', content: 'Our deploy to staging broke after the upgrade.', timestamp: NOW - 2 * MINUTE },
      { role: 'assistant', content: 'The new TLS settings reject the old certificate.', timestamp: NOW - MINUTE },
    ]
    const g = await gathered({ query: 'and why?', history })
    const s = defaultSelector()(g)
    expect(ids(s)).toEqual(['task', 'history:1', 'history:0'])
    expect(s.scores.get('history:0')?.relevance).toBeUndefined()
  })

  it('orders by priority then composite score and fills greedily', async () => {
    const g = await gathered(
      {
        query: 'build failure',
        packets: [
          { id: 'low', type: 'evidence', content: 'build notes', relevance: 0.4 },
          { id: 'high', type: 'evidence', content: 'build failure analysis', relevance: 0.9 },
          { id: 'state', type: 'task_state', content: 'build failure: reproduced locally', relevance: 0.5 },
        ],
      },
      {},
    )
    const s = defaultSelector()(g)
    expect(ids(s)).toEqual(['task', 'state', 'high', 'low'])
  })

  it('skips an evidence packet that does not fit and takes a smaller one after it', async () => {
    const g = await gathered(
      {
        query: 'build',
        packets: [
          { id: 'big', type: 'evidence', content: 'build '.repeat(200), relevance: 0.9 },
          { id: 'small', type: 'evidence', content: 'build ok', relevance: 0.5 },
        ],
      },
      { maxTokens: 60, reserveRatio: 0 },
    )
    const s = defaultSelector()(g)
    expect(ids(s)).toEqual(['task', 'small'])
    expect(reason(s, 'big')).toBe('over_budget')
    expect(s.excluded.find((e) => e.id === 'big')?.detail).toMatch(/^needs at least \d+ tokens, \d+ left$/)
  })

  it('takes history newest first as one contiguous window', async () => {
    // one unbroken word: a small lower bound, so the gatherer passes it on, but many tokens
    const history: SimpleMessage[] = [
      { role: 'user', content: 'short one' },
      { role: 'assistant', content: 'antidisestablishmentarianism'.repeat(20) },
      { role: 'user', content: 'short two' },
      { role: 'assistant', content: 'short three' },
    ]
    const g = await gathered({ query: 'q', history }, { maxTokens: 40, reserveRatio: 0 })
    const s = defaultSelector()(g)
    // history:0 would fit, but it sits behind the long turn: no holes in the conversation
    expect(ids(s)).toEqual(['task', 'history:3', 'history:2'])
    expect(reason(s, 'history:1')).toBe('over_budget')
    expect(reason(s, 'history:0')).toBe('over_budget')
  })

  it('keeps a tool call and its result together', async () => {
    const history = [
      { role: 'user' as const, content: 'read the file' },
      { role: 'assistant' as const, content: [{ _tag: 'ToolCall' as const, id: 'c1', name: 'read', args: { path: 'a.txt' } }] },
      { role: 'tool' as const, content: [{ _tag: 'ToolResult' as const, callId: 'c1', name: 'read', content: [{ _tag: 'Text' as const, text: 'abcdefghij'.repeat(60) }], isError: false }] },
      { role: 'assistant' as const, content: 'done' },
    ]
    const g = await gathered({ query: 'q', history }, { maxTokens: 60, reserveRatio: 0 })
    const s = defaultSelector()(g)
    expect(ids(s)).toEqual(['task', 'history:3'])
    expect(reason(s, 'history:1')).toBe('over_budget')
    expect(reason(s, 'history:2')).toBe('over_budget')
  })

  it('never tokenizes packets once the budget is full', async () => {
    // one long unbroken word per turn: a lower bound of one token, so the gatherer passes on
    // more turns than fit, and the selector must stop counting them
    const history = Array.from({ length: 500 }, (_, i): SimpleMessage => ({ role: i % 2 ? 'assistant' : 'user', content: 'abcdefghij'.repeat(4 + (i % 5)) }))
    const g = await gathered({ query: 'q', history }, { maxTokens: 300, reserveRatio: 0, maxHistoryMessages: Infinity })
    const s = defaultSelector()(g)
    const calls = g.env.meter.stats().tokenizerCalls
    expect(s.selected.length).toBeGreaterThan(3)
    expect(calls).toBeLessThan(s.selected.length + 3)
    const neverCounted = g.packets.filter((p) => g.env.meter.known(p) === undefined)
    expect(neverCounted.length).toBeGreaterThan(5)
    expect(neverCounted.every((p) => s.excluded.some((e) => e.id === p.id && e.reason === 'over_budget'))).toBe(true)
    // the rest never became packets at all: at a bound of 1 + 1 per turn, 150 turns at most
    expect(g.packets.length).toBeLessThanOrEqual(151)
    expect(g.excluded).toContainEqual(expect.objectContaining({ id: expect.stringMatching(/^history:0\.\.\d+$/), reason: 'over_budget' }))
  })

  it('with MMR, prefers a diverse passage over a near-duplicate', async () => {
    const packets = [
      { id: 'a', type: 'evidence' as const, content: 'build fails compile script missing package json', relevance: 0.9 },
      { id: 'a2', type: 'evidence' as const, content: 'build fails compile script missing package json again', relevance: 0.88 },
      { id: 'b', type: 'evidence' as const, content: 'node version mismatch in ci runner', relevance: 0.8 },
    ]
    const budget = { maxTokens: 17, reserveRatio: 0 }
    const plain = defaultSelector()(await gathered({ query: 'build', packets }, budget))
    const diverse = defaultSelector()(await gathered({ query: 'build', packets }, { ...budget, enableMMR: true, mmrLambda: 0.5 }))
    expect(ids(plain)).toEqual(['task', 'a', 'a2'])
    expect(ids(diverse)).toEqual(['task', 'a', 'b'])
  })

  it('counts each packet at most once, and reports its tokens', async () => {
    const g = await gathered({ query: 'build', packets: [{ id: 'e', type: 'evidence', content: 'build log line' }] })
    const s = defaultSelector()(g)
    expect(s.selected.find((x) => x.packet.id === 'e')?.tokens).toBe(gpt4o.count('build log line'))
    const before = g.env.meter.stats().tokenizerCalls
    defaultSelector()(g)
    expect(g.env.meter.stats().tokenizerCalls).toBe(before)
  })
})
