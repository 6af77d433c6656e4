import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { buildChunkContext, type ChunkBuildOptions, type ChunkBuildResult } from '../../src/chunks/build.js'
import type { MemoryState } from '../../src/chunks/model.js'
import type { ChunkRenderer } from '../../src/chunks/renderers.js'
import { toAnthropic } from '../../src/render/anthropic.js'
import { checkAnthropic } from '../../src/render/checkAnthropic.js'
import { checkOpenAI } from '../../src/render/checkOpenAI.js'
import { countAnthropic, countOpenAI } from '../../src/render/count.js'
import { toOpenAI } from '../../src/render/openai.js'
import { createTokenizer } from '../../src/tokenize/tokenizer.js'
import { gpt4o } from '../render/fixtures.js'
import { chunk, exampleState, right, stateOf } from './helpers.js'

const build = (state: MemoryState, options: ChunkBuildOptions = {}): ChunkBuildResult => right(buildChunkContext(state, { tokenizer: gpt4o, ...options }))
const texts = (r: ChunkBuildResult) => r.messages.map((m) => `${m.role}:${m.parts.map((p) => (p._tag === 'Text' ? /id="(\w+)"/.exec(p.text)?.[1] ?? p.text : 'img')).join(',')}`)
const T = (text: string, fields: Record<string, unknown> = {}) => ({ type: 'TEXT', text, ...fields })

const user = (id: string, text = `ask ${id}`) => chunk(id, 'AGENT', T(text, { role: 'user' }))
const answer = (id: string, text = `answer ${id}`) => chunk(id, 'AGENT', T(text, { role: 'assistant' }))
const call = (id: string, callId: string) => chunk(id, 'WORKFLOW', { type: 'TEXT', action: 'tool_call', toolName: 'ls', callId, arguments: { dir: id } })
const result = (id: string, callId: string, text = `listing for ${id}`) => chunk(id, 'ENVIRONMENT', T(text, { source: 'tool', toolName: 'ls', callId }))
const system = (id: string, text = `rule ${id}`) => chunk(id, 'SYSTEM', T(text))

describe('buildChunkContext', () => {
  it('reports chunks held in chunks but missing from chunkIds (unlisted), never dropping them without a word', () => {
    const all = stateOf(user('c1'), answer('c2'), user('c3'))
    const r = build({ ...all, chunkIds: ['c1', 'c3'] })
    expect(r.includedChunkIds).toEqual(['c1', 'c3'])
    expect(r.excludedChunkIds).toEqual([])
    expect(r.exclusions).toEqual([{ id: 'c2', reason: 'unlisted', detail: 'in chunks but not in chunkIds: not part of the context' }])
  })

  it('merges consecutive chunks of one role into one message (the seed\'s grouping diagram)', () => {
    const r = build(stateOf(user('c1'), user('c2'), answer('c3'), user('c4'), user('c5')))
    expect(texts(r)).toEqual(['user:c1,c2', 'assistant:c3', 'user:c4,c5'])
    expect(r.placements).toEqual([
      { chunkId: 'c1', messageIndex: 0, partIndexes: [0] },
      { chunkId: 'c2', messageIndex: 0, partIndexes: [1] },
      { chunkId: 'c3', messageIndex: 1, partIndexes: [0] },
      { chunkId: 'c4', messageIndex: 2, partIndexes: [0] },
      { chunkId: 'c5', messageIndex: 2, partIndexes: [1] },
    ])
  })

  it('builds the example agent loop with every chunk, and its tokenCount is the rendered request\'s count', () => {
    const state = exampleState()
    const r = build(state, { systemPrompt: 'You are a careful agent.' })
    expect(r.includedChunkIds).toEqual(state.chunkIds)
    expect(r.excludedChunkIds).toEqual([])
    expect(r.tokenCountExact).toBe(true)
    expect(r.systemPromptIncluded).toBe(true)
    expect(r.messages[0]).toEqual({ role: 'system', parts: [{ _tag: 'Text', text: 'You are a careful agent.' }] })
    expect(r.messages[1]!.role).toBe('system') // the SYSTEM chunk: never merged into the prompt
    const { messages, findings } = toOpenAI(r.messages)
    expect(findings).toEqual([])
    expect(checkOpenAI(messages)).toEqual([])
    expect(r.tokenCount).toBe(countOpenAI(messages, gpt4o))
  })

  it('counts for Anthropic with the same exactness, including alternation and system blocks', () => {
    const r = build(exampleState(), { format: 'anthropic', systemPrompt: 'Be careful.' })
    const { request, findings } = toAnthropic(r.messages)
    expect(findings).toEqual([])
    expect(checkAnthropic(request)).toEqual([])
    expect(r.tokenCount).toBe(countAnthropic(request, gpt4o))
  })

  it('keeps the newest chunks when the budget is short, and stops at the first that does not fit', () => {
    const state = stateOf(user('u1'), answer('a1'), user('u2'), answer('a2'), user('u3'))
    const full = build(state).tokenCount
    const r = build(state, { maxTokens: full - 1 })
    expect(r.includedChunkIds).toEqual(['a1', 'u2', 'a2', 'u3'])
    expect(r.exclusions).toEqual([{ id: 'u1', reason: 'over_budget' }])
    expect(r.tokenCount).toBeLessThanOrEqual(full - 1)
    expect(r.tokenCount).toBe(countOpenAI(toOpenAI(r.messages).messages, gpt4o))
  })

  it('never keeps a tool result without its call: the pair goes as one', () => {
    const state = stateOf(user('u1'), call('k1', 'call_1'), result('r1', 'call_1', 'x '.repeat(50)), answer('a1'))
    const withPair = build(stateOf(call('k1', 'call_1'), result('r1', 'call_1', 'x '.repeat(50)), answer('a1'))).tokenCount
    const withoutCall = build(stateOf(result('r1', 'call_1', 'x '.repeat(50)), answer('a1'))).tokenCount
    // room for the result and the answer, but not for the call as well
    const r = build(state, { maxTokens: Math.floor((withPair + withoutCall) / 2) })
    expect(withoutCall).toBeLessThan(withPair)
    expect(r.includedChunkIds).toEqual(['a1'])
    expect(r.excludedChunkIds).toEqual(['u1', 'k1', 'r1'])
  })

  it('keeps a call and its result together even with other chunks between them', () => {
    const state = stateOf(user('u1'), call('k1', 'call_1'), answer('a1'), user('u2'), result('r1', 'call_1'), answer('a2'))
    const tail = build(stateOf(user('u2'), result('r1', 'call_1'), answer('a2'))).tokenCount
    const r = build(state, { maxTokens: tail + 5 })
    // u2 … a2 would fit, but r1 needs k1, and k1 … a2 does not fit: only a2 is kept
    expect(r.includedChunkIds).toEqual(['a2'])
  })

  it('budgets the system prompt and SYSTEM chunks first, wherever they are', () => {
    const [s1, u1, a1, s2, u2] = [system('s1'), user('u1', 'x '.repeat(40)), answer('a1'), system('s2'), user('u2')]
    const budget = build(stateOf(s1, a1, s2, u2), { systemPrompt: 'Prompt.' }).tokenCount
    const r = build(stateOf(s1, u1, a1, s2, u2), { systemPrompt: 'Prompt.', maxTokens: budget })
    expect(r.systemPromptIncluded).toBe(true)
    expect(r.includedChunkIds).toEqual(['s1', 'a1', 's2', 'u2'])
    expect(texts(r)).toEqual(['system:Prompt.', 'system:s1', 'assistant:a1', 'system:s2', 'user:u2'])
    expect(r.tokenCount).toBe(countOpenAI(toOpenAI(r.messages).messages, gpt4o))
    expect(r.tokenCount).toBe(budget)
    // a budget one token short loses the oldest non-system chunk first, never a SYSTEM chunk
    expect(build(stateOf(s1, u1, a1, s2, u2), { systemPrompt: 'Prompt.', maxTokens: budget - 1 }).includedChunkIds).toEqual(['s1', 's2', 'u2'])
  })

  it('leaves a SYSTEM chunk that did not fit out for good, and keeps the history around it (found by the property test)', () => {
    const [s1, u1, s2, a1] = [system('s1', 'rule '.repeat(30)), user('u1'), system('s2', 'long rule '.repeat(40)), answer('a1')]
    const budget = build(stateOf(s1, u1, a1)).tokenCount
    const r = build(stateOf(s1, u1, s2, a1), { maxTokens: budget })
    expect(r.includedChunkIds).toEqual(['s1', 'u1', 'a1'])
    expect(r.exclusions).toEqual([{ id: 's2', reason: 'over_budget' }])
    expect(r.tokenCount).toBe(budget)
  })

  it('budgets CRITICAL chunks with the SYSTEM chunks, unless keepCritical is false', () => {
    const task = chunk('t1', 'AGENT', T('the task', { role: 'user' }), { retentionStrategy: 'CRITICAL' })
    const [a1, u2, a2] = [answer('a1', 'x '.repeat(30)), user('u2'), answer('a2')]
    const budget = build(stateOf(task, u2, a2)).tokenCount
    const pinned = build(stateOf(task, a1, u2, a2), { maxTokens: budget })
    expect(pinned.includedChunkIds).toEqual(['t1', 'u2', 'a2'])
    expect(pinned.tokenCount).toBe(budget)
    const plain = build(stateOf(task, a1, u2, a2), { maxTokens: budget, keepCritical: false })
    expect(plain.includedChunkIds).toEqual(['u2', 'a2'])
  })

  it('pins a CRITICAL result together with its call', () => {
    const critical = chunk('r1', 'ENVIRONMENT', T('important output', { source: 'tool', toolName: 'ls', callId: 'call_1' }), { retentionStrategy: 'CRITICAL' })
    const r = build(stateOf(call('k1', 'call_1'), user('u1', 'x '.repeat(40)), critical, answer('a1', 'x '.repeat(40))), { maxTokens: 120 })
    expect(r.includedChunkIds.includes('k1')).toBe(r.includedChunkIds.includes('r1'))
    expect(r.includedChunkIds).toContain('r1')
  })

  it('leaves out a system prompt larger than the budget, and says so', () => {
    const r = build(stateOf(user('u1')), { systemPrompt: 'long '.repeat(100), maxTokens: 40 })
    expect(r.systemPromptIncluded).toBe(false)
    expect(r.includedChunkIds).toEqual(['u1'])
  })

  it('returns no messages and a count of 0 when nothing fits', () => {
    const r = build(stateOf(user('u1', 'x '.repeat(100))), { maxTokens: 5 })
    expect(r.messages).toEqual([])
    expect(r.tokenCount).toBe(0)
    expect(r.exclusions).toEqual([{ id: 'u1', reason: 'over_budget' }])
  })

  it('applies includeSystem, includeEnvironment, excludeTypes and includeOnlyChunkIds, with a reason for each', () => {
    const state = stateOf(system('s1'), user('u1'), call('k1', 'c'), result('r1', 'c'), chunk('o1', 'OUTPUT', T('done', { action: 'task_completed' })))
    expect(build(state, { includeSystem: false }).exclusions).toEqual([{ id: 's1', reason: 'system_excluded' }])
    expect(build(state, { includeEnvironment: false }).exclusions).toEqual([{ id: 'r1', reason: 'environment_excluded' }])
    expect(build(state, { excludeTypes: ['OUTPUT', 'WORKFLOW'] }).exclusions).toEqual([
      { id: 'k1', reason: 'excluded_type' },
      { id: 'o1', reason: 'excluded_type' },
    ])
    const only = build(state, { includeOnlyChunkIds: ['u1', 'o1'] })
    expect(only.includedChunkIds).toEqual(['u1', 'o1'])
    expect(only.excludedChunkIds).toEqual(['s1', 'k1', 'r1'])
    expect(only.exclusions.every((x) => x.reason === 'not_in_include_list')).toBe(true)
  })

  it('estimates without a tokenizer, and reports a Claude count as not exact', () => {
    const state = stateOf(user('u1'))
    const estimated = right(buildChunkContext(state, {}))
    expect(estimated.tokenCountExact).toBe(false)
    const text = '<user_message id="u1" role="user">\nask u1\n</user_message>'
    expect(estimated.tokenCount).toBe(3 + 3 + Math.ceil('user'.length / 4) + Math.ceil(text.length / 4))
    const claude = right(createTokenizer('claude-sonnet-4-5'))
    expect(build(state, { tokenizer: claude }).tokenCountExact).toBe(false)
  })

  it('rejects a maxTokens that is not a positive integer', () => {
    const r = buildChunkContext(stateOf(user('u1')), { maxTokens: 0 })
    expect(E.isLeft(r) && r.left.message).toBe('config.maxTokens: must be a positive integer (got 0)')
  })

  it('uses a user\'s renderer before the defaults, and reports a chunk that renders to nothing', () => {
    const quiet: ChunkRenderer = { canRender: (c) => c.id === 'u1', getRole: () => 'user', render: () => '   ' }
    const loud: ChunkRenderer = { canRender: (c) => c.id === 'a1', getRole: () => 'assistant', render: (c) => `[${c.id}]` }
    const r = build(stateOf(user('u1'), answer('a1')), { renderers: [quiet, loud] })
    expect(r.messages).toEqual([{ role: 'assistant', parts: [{ _tag: 'Text', text: '[a1]' }] }])
    expect(r.exclusions).toEqual([{ id: 'u1', reason: 'empty' }])
    expect(r.findings).toEqual([{ _tag: 'DroppedEmptyText', index: 0, id: 'u1', count: 1 }])
  })

  it('renders a WORKING_FLOW container child by child, in the children\'s roles, and places each child', () => {
    const container = chunk('w1', 'WORKING_FLOW', T(''), {
      children: [
        { id: 'w1a', subType: 'THINKING', content: T('plan'), createdAt: 1 },
        { id: 'w1b', subType: 'USER', content: T('stop that'), createdAt: 2 },
        { id: 'w1c', subType: 'RESPONSE', content: T('ok'), createdAt: 3 },
      ],
    })
    const r = build(stateOf(user('u1'), container))
    expect(texts(r)).toEqual(['user:u1', 'assistant:w1a', 'user:w1b', 'assistant:w1c'])
    expect(r.placements.filter((p) => p.chunkId === 'w1').map((p) => p.messageIndex)).toEqual([1, 2, 3])
    expect(r.includedChunkIds).toEqual(['u1', 'w1'])
  })

  it('counts Anthropic\'s inserted first user turn when the kept history starts with an assistant turn', () => {
    const state = stateOf(answer('a1'), user('u1'))
    const r = build(state, { format: 'anthropic', leadingUserText: '(earlier turns omitted)' })
    const { request, findings } = toAnthropic(r.messages, { leadingUserText: '(earlier turns omitted)' })
    expect(findings.map((f) => f._tag)).toEqual(['SyntheticUserTurn'])
    expect(r.tokenCount).toBe(countAnthropic(request, gpt4o))
    // with a budget that fits the two chunks but not the inserted turn, the older chunk goes
    const tight = build(state, { format: 'anthropic', maxTokens: r.tokenCount - 1 })
    expect(tight.includedChunkIds).toEqual(['u1'])
  })

  it('drops images where the format has no place for them, and says so', () => {
    const custom: ChunkRenderer = {
      canRender: () => true,
      getRole: () => 'assistant',
      render: (c) => [{ _tag: 'Text', text: c.id }, { _tag: 'Image', source: { _tag: 'Base64', mimeType: 'image/png', data: 'AAAA' } }],
    }
    const r = build(stateOf(user('u1')), { renderers: [custom] })
    expect(r.messages).toEqual([{ role: 'assistant', parts: [{ _tag: 'Text', text: 'u1' }] }])
    expect(r.findings).toEqual([{ _tag: 'DroppedImage', index: 0, id: 'u1', reason: 'assistant' }])
  })
})
