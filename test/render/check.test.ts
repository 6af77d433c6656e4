import { describe, expect, it } from 'vitest'
import { checkAnthropic } from '../../src/render/checkAnthropic.js'
import { checkOpenAI } from '../../src/render/checkOpenAI.js'
import type { AnthropicMessage, AnthropicRequest, OpenAIMessage } from '../../src/render/wire.js'

const call = (id: string, args = '{}') => ({ id, type: 'function' as const, function: { name: 'ls', arguments: args } })
const rules = (v: ReadonlyArray<{ _tag: string }>) => v.map((x) => x._tag)

describe('checkOpenAI', () => {
  it('accepts a well-formed conversation', () => {
    const ok: Array<OpenAIMessage> = [
      { role: 'system', content: 'rules' },
      { role: 'user', content: 'hi', name: 'ada' },
      { role: 'assistant', tool_calls: [call('c1'), call('c2')] },
      { role: 'tool', tool_call_id: 'c2', content: 'two' },
      { role: 'tool', tool_call_id: 'c1', content: '' },
      { role: 'assistant', content: 'done' },
    ]
    expect(checkOpenAI(ok)).toEqual([])
  })

  it.each<[string, Array<OpenAIMessage>, ReadonlyArray<string>, string]>([
    ['a call answered after another role', [{ role: 'assistant', tool_calls: [call('c1')] }, { role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'c1', content: 'r' }], ['UnansweredToolCall', 'OrphanToolResult'], 'messages[0].tool_calls[0]'],
    ['a call never answered', [{ role: 'assistant', tool_calls: [call('c1')] }], ['UnansweredToolCall'], 'messages[0].tool_calls[0]'],
    ['a tool message without a call', [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'c9', content: 'r' }], ['OrphanToolResult'], 'messages[1].tool_call_id'],
    ['a call answered twice', [{ role: 'assistant', tool_calls: [call('c1')] }, { role: 'tool', tool_call_id: 'c1', content: 'r' }, { role: 'tool', tool_call_id: 'c1', content: 'r' }], ['OrphanToolResult'], 'messages[2].tool_call_id'],
    ['an id used twice', [{ role: 'assistant', tool_calls: [call('c1')] }, { role: 'tool', tool_call_id: 'c1', content: 'r' }, { role: 'assistant', tool_calls: [call('c1')] }, { role: 'tool', tool_call_id: 'c1', content: 'r' }], ['DuplicateToolCallId'], 'messages[2].tool_calls[0].id'],
    ['an id with a bar', [{ role: 'assistant', tool_calls: [call('a|b')] }, { role: 'tool', tool_call_id: 'a|b', content: 'r' }], ['InvalidToolCallId'], 'messages[0].tool_calls[0].id'],
    ['arguments that are not a JSON object', [{ role: 'assistant', tool_calls: [call('c1', '[1]')] }, { role: 'tool', tool_call_id: 'c1', content: 'r' }], ['InvalidArguments'], 'messages[0].tool_calls[0].function.arguments'],
    ['an assistant turn with nothing', [{ role: 'assistant' }], ['EmptyContent'], 'messages[0]'],
    ['whitespace text', [{ role: 'user', content: [{ type: 'text', text: ' \n' }] }], ['EmptyText'], 'messages[0].content[0]'],
    ['an empty content array', [{ role: 'user', content: [] }], ['EmptyContent'], 'messages[0].content'],
    ['an empty system prompt', [{ role: 'system', content: '' }], ['EmptyText'], 'messages[0].content'],
    ['a name with a space', [{ role: 'user', content: 'x', name: 'Ada L' }], ['InvalidName'], 'messages[0].name'],
    ['an unknown role', [{ role: 'function', content: 'x' } as unknown as OpenAIMessage], ['UnknownRole'], 'messages[0].role'],
  ])('reports %s', (_, messages, expected, path) => {
    const v = checkOpenAI(messages)
    expect(rules(v)).toEqual(expected)
    expect(v[0]!.path).toBe(path)
    expect(v[0]!.message.length).toBeGreaterThan(10)
  })
})

const user = (...content: AnthropicMessage['content']): AnthropicMessage => ({ role: 'user', content }) as AnthropicMessage
const assistant = (...content: AnthropicMessage['content']): AnthropicMessage => ({ role: 'assistant', content }) as AnthropicMessage
const t = (text: string) => ({ type: 'text' as const, text })
const use = (id: string) => ({ type: 'tool_use' as const, id, name: 'ls', input: {} })
const result = (id: string) => ({ type: 'tool_result' as const, tool_use_id: id })

describe('checkAnthropic', () => {
  it('accepts a well-formed request', () => {
    const ok: AnthropicRequest = {
      system: [{ type: 'text', text: 'rules', cache_control: { type: 'ephemeral' } }],
      messages: [user(t('hi')), assistant({ type: 'thinking', thinking: 'hm', signature: 's' }, use('a'), use('b')), user(result('b'), result('a'), t('more')), assistant(t('done'))],
    }
    expect(checkAnthropic(ok)).toEqual([])
  })

  it.each<[string, AnthropicRequest, ReadonlyArray<string>, string]>([
    ['no messages', { messages: [] }, ['NoMessages'], 'messages'],
    ['an assistant turn first', { messages: [assistant(t('hi'))] }, ['FirstNotUser'], 'messages[0].role'],
    ['two user turns in a row', { messages: [user(t('a')), user(t('b'))] }, ['RolesNotAlternating'], 'messages[1].role'],
    ['an unknown role', { messages: [{ role: 'system', content: [t('x')] } as unknown as AnthropicMessage] }, ['FirstNotUser', 'UnknownRole'], 'messages[0].role'],
    ['an empty turn', { messages: [user()] }, ['EmptyContent'], 'messages[0].content'],
    ['whitespace text', { messages: [user(t('  '))] }, ['EmptyText'], 'messages[0].content[0].text'],
    ['an empty system block', { system: [t('')], messages: [user(t('a'))] }, ['EmptyText'], 'system[0].text'],
    ['a tool_use without result', { messages: [user(t('a')), assistant(use('x')), user(t('b'))] }, ['UnansweredToolCall'], 'messages[1].content[0]'],
    ['a final tool_use', { messages: [user(t('a')), assistant(use('x'))] }, ['UnansweredToolCall'], 'messages[1].content[0]'],
    ['a tool_result without tool_use', { messages: [user(result('x'))] }, ['OrphanToolResult'], 'messages[0].content[0].tool_use_id'],
    ['a result after text', { messages: [user(t('a')), assistant(use('x')), user(t('b'), result('x'))] }, ['ResultsNotFirst'], 'messages[2].content[1]'],
    ['a reused tool id', { messages: [user(t('a')), assistant(use('x')), user(result('x')), assistant(use('x')), user(result('x'))] }, ['DuplicateToolCallId'], 'messages[3].content[0].id'],
    ['a tool id with a bar', { messages: [user(t('a')), assistant(use('x|y')), user(result('x|y'))] }, ['InvalidToolCallId'], 'messages[1].content[0].id'],
    ['a tool_use in a user turn', { messages: [user(use('x'))] }, ['MisplacedBlock'], 'messages[0].content[0]'],
    ['an image in an assistant turn', { messages: [user(t('a')), assistant({ type: 'image', source: { type: 'url', url: 'https://x' } })] }, ['MisplacedBlock'], 'messages[1].content[0]'],
    ['an svg image', { messages: [user({ type: 'image', source: { type: 'base64', media_type: 'image/svg+xml' as 'image/png', data: 'x' } })] }, ['UnsupportedMediaType'], 'messages[0].content[0].source.media_type'],
    ['unsigned thinking', { messages: [user(t('a')), assistant({ type: 'thinking', thinking: 'x', signature: '' }, t('b'))] }, ['ThinkingWithoutSignature'], 'messages[1].content[0].signature'],
    ['a reasoning-only turn', { messages: [user(t('a')), assistant({ type: 'redacted_thinking', data: 'x' }), user(t('b'))] }, ['ReasoningOnly'], 'messages[1].content'],
    ['a final assistant turn ending in a space', { messages: [user(t('a')), assistant(t('b '))] }, ['TrailingWhitespace'], 'messages[1].content[0].text'],
    [
      'five cache breakpoints',
      { system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral' } }], messages: [user(...['a', 'b', 'c', 'd'].map((x) => ({ ...t(x), cache_control: { type: 'ephemeral' as const } })))] },
      ['TooManyCacheBreakpoints'],
      'messages',
    ],
    [
      'a 1h cache breakpoint after a 5m one',
      { system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral' } }], messages: [user({ ...t('a'), cache_control: { type: 'ephemeral' as const, ttl: '1h' as const } })] },
      ['CacheTtlOrder'],
      'messages[0].content[0].cache_control',
    ],
  ])('reports %s', (_, request, expected, path) => {
    const v = checkAnthropic(request)
    expect(rules(v)).toEqual(expected)
    expect(v.map((x) => x.path)).toContain(path)
  })
})
