import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { image, message, messageText, text, toolCall, toolResult } from '../../src/message.js'
import { checkOpenAI } from '../../src/render/checkOpenAI.js'
import { countOpenAI } from '../../src/render/count.js'
import { ATTACHED_IMAGES, SEE_ATTACHED_IMAGE, toOpenAI } from '../../src/render/openai.js'
import { EXCHANGE, gpt4o, piMessages, pngBase64 } from './fixtures.js'

const exchange = EXCHANGE

describe('toOpenAI', () => {
  it('renders the exchange of formats.md §5.4 exactly', () => {
    const { messages, findings } = toOpenAI(exchange)
    expect(findings).toEqual([])
    expect(messages).toEqual([
      { role: 'system', content: 'You are a build assistant.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Why does the build fail?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
      {
        role: 'assistant',
        content: 'Reading the build script.',
        tool_calls: [{ id: 'toolu_01', type: 'function', function: { name: 'read', arguments: '{"path":"build.sh"}' } }],
      },
      { role: 'tool', tool_call_id: 'toolu_01', content: '#!/bin/sh\nnpm run compile\n' },
      { role: 'assistant', content: 'build.sh calls a missing npm script `compile`.' },
    ])
  })

  it('is assignable to the SDK type ChatCompletionMessageParam[]', () => {
    const sdk: ChatCompletionMessageParam[] = toOpenAI(exchange).messages
    expect(sdk).toHaveLength(5)
  })

  it('sends system messages as developer messages on request, and sets image detail', () => {
    const { messages } = toOpenAI(exchange, { systemRole: 'developer', imageDetail: 'low' })
    expect(messages[0]).toEqual({ role: 'developer', content: 'You are a build assistant.' })
    expect(messages[1]).toMatchObject({ content: [{}, { image_url: { detail: 'low' } }] })
  })

  it('keeps several text parts as an array, and an URL image as its URL', () => {
    const { messages } = toOpenAI([
      message('user', [text('a'), text('b'), { _tag: 'Image', source: { _tag: 'Url', url: 'https://x.test/a.png' } }]),
    ])
    expect(messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
        { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
      ],
    })
  })

  it('leaves content out of an assistant turn that only calls tools', () => {
    const { messages } = toOpenAI([message('user', 'go'), message('assistant', [toolCall('c1', 'ls', {})]), message('tool', [toolResult('c1', 'ls', 'a b')])])
    expect(messages[1]).toEqual({ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }] })
  })

  it('moves tool-result images into one user message after the whole block of tool messages', () => {
    const png = pngBase64(4, 4)
    const { messages, findings } = toOpenAI([
      message('user', 'screenshots please'),
      message('assistant', [toolCall('c1', 'shot', {}), toolCall('c2', 'shot', {})]),
      message('tool', [toolResult('c1', 'shot', [image('image/png', png)])]),
      message('tool', [toolResult('c2', 'shot', [text('second'), image('image/png', png)])]),
      message('user', 'thanks'),
    ])
    expect(findings).toEqual([])
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user', 'user', 'user'])
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: SEE_ATTACHED_IMAGE })
    expect(messages[3]).toEqual({ role: 'tool', tool_call_id: 'c2', content: 'second' })
    expect(messages[4]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: ATTACHED_IMAGES }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }],
    })
    expect(checkOpenAI(messages)).toEqual([])
  })

  it('inserts pi\'s synthetic error result for a call without a result, and reports it', () => {
    const { messages, findings } = toOpenAI([message('user', 'go'), message('assistant', [toolCall('c1', 'ls', {})]), message('user', 'stop')])
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'No result provided' })
    expect(findings).toEqual([{ _tag: 'SyntheticResult', index: 1, callId: 'c1' }])
  })

  it('drops a result without a call, and a second result for one call', () => {
    const { messages, findings } = toOpenAI([
      message('tool', [toolResult('ghost', 'ls', 'x')]),
      message('user', 'go'),
      message('assistant', [toolCall('c1', 'ls', {})]),
      message('tool', [toolResult('c1', 'ls', 'first')]),
      message('tool', [toolResult('c1', 'ls', 'again')]),
    ])
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
    expect(findings).toEqual([
      { _tag: 'DroppedOrphanResult', index: 0, callId: 'ghost' },
      { _tag: 'DroppedOrphanResult', index: 4, callId: 'c1' },
    ])
  })

  it('moves a result that arrived late up to its call instead of inventing one', () => {
    const { messages, findings } = toOpenAI([
      message('user', 'go'),
      message('assistant', [toolCall('c1', 'ls', {})]),
      message('user', 'still there?'),
      message('tool', [toolResult('c1', 'ls', 'a b')]),
    ])
    expect(messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'a b' },
      { role: 'user', content: 'still there?' },
    ])
    expect(findings).toEqual([{ _tag: 'MovedResult', index: 3, callId: 'c1', to: 1 }])
  })

  it('takes tool results out of user turns (Claude Code keeps them there)', () => {
    const { messages, findings } = toOpenAI([
      message('assistant', [toolCall('c1', 'ls', {})]),
      message('user', [toolResult('c1', 'ls', 'a b'), text('and now?')]),
    ])
    expect(findings).toEqual([])
    expect(messages).toEqual([
      { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'a b' },
      { role: 'user', content: 'and now?' },
    ])
  })

  it('rewrites ids the API rejects, and reused ids, in the call and its result alike', () => {
    const long = 'call_abc|fc_0123456789abcdef0123456789abcdef'
    const { messages, findings } = toOpenAI([
      message('assistant', [toolCall(long, 'ls', {})]),
      message('tool', [toolResult(long, 'ls', 'one')]),
      message('assistant', [toolCall('dup', 'ls', {})]),
      message('tool', [toolResult('dup', 'ls', 'two')]),
      message('assistant', [toolCall('dup', 'ls', {})]),
      message('tool', [toolResult('dup', 'ls', 'three')]),
    ])
    expect(checkOpenAI(messages)).toEqual([])
    const ids = messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []))
    expect(new Set(ids).size).toBe(3)
    expect(ids[1]).toBe('dup')
    expect(findings.map((f) => f._tag)).toEqual(['RewroteCallId', 'RewroteCallId'])
    expect(messages[5]).toMatchObject({ content: 'three' })
  })

  it('drops failed turns, empty text and empty messages, and says so', () => {
    const { messages, findings } = toOpenAI([
      message('user', [text('  '), text('hi')]),
      message('assistant', [text('half an ans')], { stopReason: 'aborted' }),
      message('assistant', '   '),
      message('assistant', 'done'),
    ])
    expect(messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'done' },
    ])
    expect(findings).toEqual([
      { _tag: 'DroppedEmptyText', index: 0, count: 1 },
      { _tag: 'DroppedFailedTurn', index: 1, stopReason: 'aborted' },
      { _tag: 'DroppedEmptyText', index: 2, count: 1 },
      { _tag: 'DroppedEmpty', index: 2 },
    ])
  })

  it('sends foreign reasoning as text by default, drops it on request, and drops the target model\'s own', () => {
    const turn = message('assistant', [{ _tag: 'Thinking', text: 'let me think', signature: 'sig' }, text('answer')], {
      origin: { provider: 'anthropic', model: 'claude-opus-4-5' },
    })
    expect(toOpenAI([message('user', 'q'), turn]).messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'let me think' },
        { type: 'text', text: 'answer' },
      ],
    })
    expect(toOpenAI([message('user', 'q'), turn], { thinking: 'drop' }).findings).toEqual([{ _tag: 'DroppedThinking', index: 1, reason: 'policy' }])
    expect(toOpenAI([message('user', 'q'), turn], { target: { model: 'claude-opus-4-5' } }).findings).toEqual([
      { _tag: 'DroppedThinking', index: 1, reason: 'not_replayable' },
    ])
  })

  it("sends the target's own reasoning back as reasoning_content when asked (DeepSeek, Kimi), as pi does, and counts it", () => {
    const origin = { provider: 'deepseek', model: 'deepseek-reasoner' }
    const turn = message('assistant', [{ _tag: 'Thinking', text: 'first' }, { _tag: 'Thinking', text: ' ' }, { _tag: 'Thinking', text: 'second' }, text('answer'), toolCall('c1', 'ls', {})], { origin })
    const history = [message('user', 'q'), turn, message('tool', [toolResult('c1', 'ls', 'a.txt')])]
    const { messages, findings } = toOpenAI(history, { target: { model: 'deepseek-reasoner' }, reasoningContent: true })
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: 'answer',
      reasoning_content: 'first\nsecond',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
    })
    expect(findings).toEqual([{ _tag: 'DroppedThinking', index: 1, reason: 'not_replayable' }])
    expect(checkOpenAI(messages)).toEqual([])
    // another model's reasoning never goes into reasoning_content
    expect(toOpenAI(history, { target: { model: 'kimi-k2-thinking' }, reasoningContent: true }).messages[1]).not.toHaveProperty('reasoning_content')
    const counter = gpt4o
    const withField = countOpenAI(messages, counter)
    const without = countOpenAI(toOpenAI(history, { target: { model: 'deepseek-reasoner' } }).messages, counter)
    expect(withField - without).toBe(counter.count('first\nsecond'))
  })

  it('drops a reasoning-only assistant turn and images where OpenAI has no place for them', () => {
    const { messages, findings } = toOpenAI(
      [
        message('system', [text('rules'), image('image/png', 'AAAA')]),
        message('assistant', [{ _tag: 'Thinking', text: 'hmm', redacted: true, signature: 'xyz' }]),
        message('assistant', [text('look'), image('image/png', 'AAAA')]),
      ],
      {},
    )
    expect(messages).toEqual([
      { role: 'system', content: 'rules' },
      { role: 'assistant', content: 'look' },
    ])
    expect(findings.map((f) => f._tag)).toEqual(['DroppedImage', 'DroppedThinking', 'DroppedEmpty', 'DroppedImage'])
  })

  it('sends a call\'s arguments exactly as the provider wrote them, and drops documents with a finding', () => {
    const call = { ...toolCall('c1', 'read', { path: 'a' }), argsText: '{ "path": "a" }' }
    const pdf = { _tag: 'Document' as const, source: { _tag: 'Base64' as const, mimeType: 'application/pdf', data: 'JVBERi0=' }, name: 'a.pdf' }
    const { messages, findings } = toOpenAI([message('user', [text('read this'), pdf]), message('assistant', [call]), message('tool', [toolResult('c1', 'read', 'x')])])
    expect(messages[0]).toEqual({ role: 'user', content: 'read this' })
    expect(messages[1]).toMatchObject({ tool_calls: [{ function: { arguments: '{ "path": "a" }' } }] })
    expect(findings).toEqual([{ _tag: 'DroppedDocument', index: 0 }])
    expect(messageText(message('user', [pdf, call]))).toBe('[document: a.pdf]\nread({ "path": "a" })')
  })

  it('sanitises names to ^[a-zA-Z0-9_-]{1,64}$', () => {
    const { messages, findings } = toOpenAI([message('user', 'hi', { name: 'Ada Lovelace' })])
    expect(messages[0]).toEqual({ role: 'user', content: 'hi', name: 'Ada_Lovelace' })
    expect(findings).toEqual([{ _tag: 'RewroteName', index: 0, from: 'Ada Lovelace', to: 'Ada_Lovelace' }])
  })

  it('renders real pi sessions into messages the validator accepts, reporting each repair', () => {
    const large = toOpenAI(piMessages('large-session.jsonl'))
    expect(checkOpenAI(large.messages)).toEqual([])
    // 21 aborted turns and 1 error turn; the one thinking block is from another model
    expect(large.findings.map((f) => f._tag).sort()).toEqual([...Array(22).fill('DroppedFailedTurn'), 'ThinkingAsText'])
    const compaction = toOpenAI(piMessages('before-compaction.jsonl'))
    expect(checkOpenAI(compaction.messages)).toEqual([])
    expect(compaction.findings.filter((f) => f._tag === 'DroppedFailedTurn')).toHaveLength(19)
    expect(compaction.findings.filter((f) => f._tag === 'SyntheticResult')).toHaveLength(1)
  })
})
