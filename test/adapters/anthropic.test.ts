import { readFileSync } from 'node:fs'
import type { MessageCreateParamsNonStreaming, MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { fromAnthropicMessages } from '../../src/adapters/anthropicIn.js'
import { toAnthropicMessages } from '../../src/adapters/anthropicOut.js'
import { message, text, toolCall, toolResult } from '../../src/message.js'
import { left, right } from '../helpers.js'
import { fixture } from '../shared.js'

const recorded = (name: string): ReadonlyArray<MessageParam> =>
  (JSON.parse(readFileSync(fixture('claude-code', 'expected', name), 'utf8')) as { messages: ReadonlyArray<MessageParam> }).messages

describe('fromAnthropicMessages', () => {
  it('reads what Claude Code really sends (cache_control, caller, thinking, parallel calls) and writes it back unchanged', () => {
    for (const name of ['short.cc-2.1.330.messages.json', 'tool_heavy.cc-2.1.330.messages.json']) {
      const messages = recorded(name)
      const decoded = right(fromAnthropicMessages({ messages }))
      expect(decoded.messages).toHaveLength(messages.length)
      const calls = messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((b) => b.type === 'tool_use')))
      expect(decoded.messages.flatMap((m) => m.parts.filter((p) => p._tag === 'ToolCall'))).toHaveLength(calls.length)
      expect(right(toAnthropicMessages(decoded.messages))).toStrictEqual({ messages })
    }
  })

  it('reads the system prompt as the first message, from "system", with its cache breakpoint', () => {
    const request: MessageCreateParamsNonStreaming = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      messages: [
        { role: 'user', content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' }, title: 'Notes' }, { type: 'text', text: 'Summarise.' }] },
        { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'EmwKAhgB' }, { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'boom' }], is_error: true }] },
      ],
    }
    const { messages, sources } = right(fromAnthropicMessages(request))
    expect(sources).toEqual(['system', 0, 1, 2])
    expect(messages[0]).toEqual({ role: 'system', parts: [{ _tag: 'Text', text: 'You are terse.', cacheControl: { type: 'ephemeral', ttl: '1h' } }] })
    expect(messages[1]!.parts[0]).toEqual({ _tag: 'Document', source: { _tag: 'Text', mimeType: 'text/plain', text: 'notes' }, name: 'Notes' })
    expect(messages[2]!.parts[0]).toEqual({ _tag: 'Thinking', text: '', signature: 'EmwKAhgB', redacted: true })
    expect(messages[3]!.parts[0]).toEqual({ _tag: 'ToolResult', callId: 'toolu_1', name: 'read', content: [{ _tag: 'Text', text: 'boom' }], isError: true })
    const { system, messages: turns } = request
    const out = right(toAnthropicMessages(messages))
    expect(out).toStrictEqual({ system, messages: turns })
    // the SDK takes it as it is
    const params: MessageCreateParamsNonStreaming = { model: 'claude-sonnet-4-5', max_tokens: 1024, ...out }
    expectTypeOf(out.messages).toExtend<MessageParam[]>()
    // @ts-expect-error Anthropic turns are not Chat Completions messages
    const wrong: ChatCompletionMessageParam[] = out.messages
    expect(params.messages).toBe(out.messages)
    void wrong
  })

  it('names the index and block of anything it cannot carry', () => {
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [{ messages: [{ role: 'system', content: 'x' }] }, 'messages[0].role: must be "user" or "assistant" (got "system")'],
      [{ messages: [{ role: 'assistant', content: [{ type: 'server_tool_use', id: 's', name: 'web_search', input: {} }] }] }, 'messages[0].content[0].type: must be text, image, document, tool_use, tool_result, thinking or redacted_thinking (got "server_tool_use"); other blocks cannot be carried'],
      [[{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'f' } }] }], 'messages[0].content[0].source.type: must be one of base64, url (got "file"); other sources cannot be carried'],
      [[{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'tool_result', tool_use_id: 't', content: [{ type: 'document', source: {} }] }] }], 'messages[0].content[1].content[0].type: must be "text" or "image" inside a tool_result (got "document"); other blocks cannot be carried there'],
      [[{ role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm' }] }], 'messages[0].content[0].signature: must be a string (got undefined)'],
      [[{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: 'x' }] }], 'messages[0].content[0].input: must be an object: gssc\'s tool calls carry an arguments object (got "x")'],
      [{ system: [{ type: 'image' }], messages: [] }, 'system[0].type: must be "text" (got "image")'],
      [{ messages: 'x' }, 'messages: must be an array (got "x")'],
    ]
    for (const [input, expected] of cases) expect(left(fromAnthropicMessages(input)).message).toBe(expected)
  })
})

describe('toAnthropicMessages', () => {
  it('writes a run of tool messages as one user turn of results, and system messages as system', () => {
    const out = right(
      toAnthropicMessages([
        message('system', 'rules'),
        message('user', 'hi'),
        message('assistant', [toolCall('c1', 'read', { path: 'a' }), toolCall('c2', 'read', { path: 'b' })]),
        message('tool', [toolResult('c1', 'read', 'A')]),
        message('tool', [toolResult('c2', 'read', 'B', true)]),
      ]),
    )
    expect(out).toEqual({
      system: [{ type: 'text', text: 'rules' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'read', input: { path: 'a' } }, { type: 'tool_use', id: 'c2', name: 'read', input: { path: 'b' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: 'A' }] },
            { type: 'tool_result', tool_use_id: 'c2', content: [{ type: 'text', text: 'B' }], is_error: true },
          ],
        },
      ],
    })
  })

  it('names what Anthropic cannot express', () => {
    expect(left(toAnthropicMessages([message('user', 'hi'), message('system', 'late')])).input).toBe('messages[1]')
    expect(left(toAnthropicMessages([message('assistant', [{ _tag: 'Thinking', text: 'hmm' }])])).input).toBe('messages[0].parts[0]')
    expect(left(toAnthropicMessages([message('user', [text('see'), { _tag: 'Image', source: { _tag: 'Base64', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' } }])])).input).toBe('messages[0].parts[1]')
  })
})
