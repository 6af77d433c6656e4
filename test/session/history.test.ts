import { describe, expect, it } from 'vitest'
import { message, text, toolCall, toolResult, type ChatMessage } from '../../src/message.js'
import { historyOf, NO_RESULT, toHistory } from '../../src/session/history.js'
import { messageCost } from '../../src/render/cost.js'
import { createTokenCache } from '../../src/tokenize/cache.js'
import { contextOf, tokenizer } from './helpers.js'

const a = (parts: ChatMessage['parts'], extra: Partial<ChatMessage> = {}): ChatMessage => message('assistant', parts, extra)
const result = (id: string, out = 'ok', name = ''): ChatMessage => message('tool', [toolResult(id, name, out)])

describe('toHistory on a pi session', () => {
  it('drops the aborted turn, keeps thinking for the same model, and counts each turn once', async () => {
    const c = await contextOf('pi-v3-branches.jsonl', { leaf: 'a000000f' })
    const h = toHistory({ tokenizer, target: { provider: 'anthropic', model: 'claude-sonnet-4-5' } })(c.messages)
    expect(h.items.map((i) => i.id)).toEqual(['a000000a', 'a0000008', 'a0000009', 'a0000013', 'a0000015', 'a000000c', 'a000000f'])
    expect(h.repairs).toEqual([{ _tag: 'DroppedFailedTurn', itemId: 'a0000014', stopReason: 'aborted', toolCalls: 1 }])
    for (const i of h.items) expect(i.tokens).toBe(messageCost(i.message, tokenizer))
  })

  it('turns thinking into text for another model and reports it', async () => {
    const c = await contextOf('pi-v3-branches.jsonl', { leaf: 'a0000010' })
    const same = toHistory({ tokenizer, target: { provider: 'anthropic', model: 'claude-sonnet-4-5' } })(c.messages)
    const other = toHistory({ tokenizer, target: { provider: 'openai', model: 'gpt-5' } })(c.messages)
    expect(same.items[1]!.message.parts[0]).toMatchObject({ _tag: 'Thinking' })
    expect(other.items[1]!.message.parts[0]).toEqual(text('Check the build script first.'))
    expect(other.repairs).toEqual([{ _tag: 'ThinkingConverted', itemId: 'a0000004', toText: 1, dropped: 0 }])
    // kept thinking is sent, so it is counted
    const withThinking = same.items[1]!.message
    expect(same.items[1]!.tokens).toBe(messageCost(withThinking, tokenizer))
    expect(same.items[1]!.tokens).toBe(messageCost({ ...withThinking, parts: withThinking.parts.slice(1) }, tokenizer) + tokenizer.count('Check the build script first.'))
    // the call and its result share a group
    expect(other.items[1]!.group).toBe('turn:a0000004')
    expect(other.items[2]!.group).toBe('turn:a0000004')
  })

  it('fills tool names on Claude Code results from their calls', async () => {
    const c = await contextOf('claude-code.jsonl', { leaf: '6f1b2c3d-0000-4000-8000-000000000011' })
    const h = toHistory({ tokenizer })(c.messages)
    const results = h.items.flatMap((i) => i.message.parts.flatMap((p) => (p._tag === 'ToolResult' ? [[p.callId, p.name]] : [])))
    expect(results).toEqual([
      ['toolu_01ABC', 'Read'],
      ['toolu_02DEF', 'Grep'],
    ])
  })
})

describe('toHistory repairs', () => {
  it('answers a call that got no result, before the next turn and at the end', () => {
    const h = historyOf({ tokenizer })([
      message('user', 'go'),
      a([toolCall('c1', 'read', {}), toolCall('c2', 'ls', {})], { timestamp: 5 }),
      result('c2'),
      message('user', 'next'),
      a([toolCall('c3', 'bash', { command: 'make' })]),
    ])
    expect(h.items.map((i) => [i.id, i.kind, i.group ?? null])).toEqual([
      ['h0', 'message', null],
      ['h1', 'message', 'turn:h1'],
      ['h2', 'message', 'turn:h1'],
      ['h1:no-result:c1', 'syntheticResult', 'turn:h1'],
      ['h3', 'message', null],
      ['h4', 'message', 'turn:h4'],
      ['h4:no-result:c3', 'syntheticResult', 'turn:h4'],
    ])
    expect(h.items[3]!.message).toEqual({ role: 'tool', parts: [toolResult('c1', 'read', NO_RESULT, true)], timestamp: 5 })
    expect(h.items[2]!.message.parts[0]).toMatchObject({ name: 'ls' })
    expect(h.repairs).toEqual([
      { _tag: 'SyntheticResult', itemId: 'h1:no-result:c1', callId: 'c1', name: 'read' },
      { _tag: 'SyntheticResult', itemId: 'h4:no-result:c3', callId: 'c3', name: 'bash' },
    ])
  })

  it('drops results with no call, duplicate results, failed turns and empty turns', () => {
    const h = historyOf({ tokenizer })([
      result('ghost'),
      a([toolCall('c1', 'read', {})]),
      result('c1', 'first'),
      result('c1', 'again'),
      message('user', '   '),
      a([text('half'), toolCall('c2', 'x', {})], { stopReason: 'error' }),
      result('c2'),
      a([text('')]),
    ])
    expect(h.items.map((i) => i.id)).toEqual(['h1', 'h2'])
    expect(h.repairs).toEqual([
      { _tag: 'DroppedOrphanResult', itemId: 'h0', callId: 'ghost' },
      { _tag: 'DroppedDuplicateResult', itemId: 'h3', callId: 'c1' },
      { _tag: 'DroppedEmptyTurn', itemId: 'h4', role: 'user' },
      { _tag: 'DroppedFailedTurn', itemId: 'h5', stopReason: 'error', toolCalls: 1 },
      { _tag: 'DroppedOrphanResult', itemId: 'h6', callId: 'c2' },
      { _tag: 'DroppedEmptyTurn', itemId: 'h7', role: 'assistant' },
    ])
  })

  it('numbers the several turns of one entry and never changes its input', () => {
    const messages = [
      { entryId: 'e1', kind: 'message' as const, message: a([toolCall('c1', 'read', {}), toolCall('c2', 'read', {})]) },
      { entryId: 'e2', kind: 'message' as const, message: result('c1') },
      { entryId: 'e2', kind: 'message' as const, message: result('c2') },
    ]
    const frozen = JSON.stringify(messages)
    const h = toHistory({ tokenizer })(messages)
    expect(h.items.map((i) => i.id)).toEqual(['e1', 'e2', 'e2#1'])
    expect(JSON.stringify(messages)).toBe(frozen)
  })

  it('counts through a shared token cache', () => {
    const cache = createTokenCache()
    const turns = [message('user', 'a question about the build'), message('assistant', 'an answer about the build')]
    const first = historyOf({ tokenizer, cache })(turns)
    // each turn's text and its role (a message's cost charges the role, `messageCost`)
    expect(cache.size()).toBe(4)
    const again = historyOf({ tokenizer, cache })(turns)
    expect(again.items.map((i) => i.tokens)).toEqual(first.items.map((i) => i.tokens))
    expect(cache.size()).toBe(4)
  })
})
