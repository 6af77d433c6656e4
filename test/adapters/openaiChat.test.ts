import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { fromOpenAIChat } from '../../src/adapters/openaiChatIn.js'
import { toOpenAIChat } from '../../src/adapters/openaiChatOut.js'
import { message, text, toolCall, toolResult, type ChatMessage } from '../../src/message.js'
import { left, right } from '../helpers.js'

const history: ChatCompletionMessageParam[] = [
  { role: 'developer', content: 'Be brief.' },
  { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } }], name: 'ada' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } },
      { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
  { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '24°C' }] },
  { role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot book flights.' }], refusal: null },
]

describe('fromOpenAIChat', () => {
  it('reads every message, call and result; nothing vanishes', () => {
    const { messages, sources, shape } = right(fromOpenAIChat(history))
    expect(shape).toBe('openai-chat')
    expect(sources).toEqual([0, 1, 2, 3, 4, 5])
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant'])
    expect(messages[1]!.parts[1]).toMatchObject({ _tag: 'Image', source: { _tag: 'Base64', mimeType: 'image/png', data: 'iVBORw0KGgo=' } })
    expect(messages[2]!.parts).toEqual([
      expect.objectContaining({ _tag: 'ToolCall', id: 'call_1', name: 'get_weather', args: { city: 'Paris' }, argsText: '{"city": "Paris"}' }),
      expect.objectContaining({ _tag: 'ToolCall', id: 'call_2', args: { city: 'Rome' } }),
    ])
    expect(messages[3]!.parts).toEqual([{ _tag: 'ToolResult', callId: 'call_1', name: 'get_weather', content: [{ _tag: 'Text', text: '18°C' }], isError: false }])
    expect(messages[5]!.parts[0]).toMatchObject({ _tag: 'Text', text: 'I cannot book flights.', refusal: true })
  })

  it('writes the history back exactly, as a mutable array the SDK takes as it is', () => {
    const out = right(toOpenAIChat(right(fromOpenAIChat(history)).messages))
    expect(out).toStrictEqual(history)
    const params: ChatCompletionCreateParamsNonStreaming = { model: 'gpt-4o', messages: out }
    expectTypeOf(out).toExtend<ChatCompletionMessageParam[]>()
    // @ts-expect-error Chat Completions messages are not Anthropic turns
    const wrong: MessageParam[] = out
    expect(params.messages).toBe(out)
    void wrong
  })

  it('names the index and path of anything it cannot carry', () => {
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      ['nope', 'messages: must be an array (got "nope")'],
      [[{ role: 'user', content: 'hi' }, 7], 'messages[1]: must be a message (got 7)'],
      [[{ role: 'bot', content: 'x' }], 'messages[0].role: must be one of system, developer, user, assistant, tool (got "bot")'],
      [[{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: '', format: 'wav' } }] }], 'messages[0].content[0].type: must be one of text, image_url, file here (got "input_audio"); audio input cannot be carried'],
      [[{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'x' } }] }], 'messages[0].content[0].type: must be one of text here (got "image_url")'],
      [[{ role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } }], 'messages[0].function_call: the deprecated function_call cannot be carried; send it as tool_calls'],
      [[{ role: 'function', name: 'f', content: 'x' }], 'messages[0].role: deprecated function messages cannot be carried; send tool messages'],
      [[{ role: 'assistant', tool_calls: [{ id: 'c', type: 'custom', custom: { name: 'f', input: 'x' } }] }], 'messages[0].tool_calls[0].type: must be "function"; custom tool calls cannot be carried (got "custom")'],
      [[{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '[1]' } }] }], 'messages[0].tool_calls[0].function.arguments: must be the JSON text of an object: gssc\'s tool calls carry an arguments object (got "[1]")'],
      [[{ role: 'tool', content: 'x' }], 'messages[0].tool_call_id: must be a string (got undefined)'],
      [[{ role: 'user', content: [{ type: 'file', file: {} }] }], 'messages[0].content[0].file: must have one of file_data and file_id (got {})'],
    ]
    for (const [input, expected] of cases) expect(left(fromOpenAIChat(input)).message).toBe(expected)
    expect(left(fromOpenAIChat([{ role: 'user', content: 1 }], { path: 'history' })).input).toBe('history[0].content')
  })
})

describe('toOpenAIChat', () => {
  it('writes messages from elsewhere the plain way, tool results of a user turn first', () => {
    const messages: ReadonlyArray<ChatMessage> = [
      message('system', 'rules'),
      message('assistant', [text('Reading.'), toolCall('toolu_1', 'read', { path: 'a' })]),
      message('user', [toolResult('toolu_1', 'read', 'contents'), text('thanks')]),
    ]
    expect(right(toOpenAIChat(messages))).toEqual([
      { role: 'system', content: 'rules' },
      { role: 'assistant', content: 'Reading.', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } }] },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'contents' },
      { role: 'user', content: 'thanks' },
    ])
  })

  it('names the part that Chat Completions cannot express', () => {
    const thinking = message('assistant', [{ _tag: 'Thinking', text: 'hmm', signature: 's' }])
    expect(left(toOpenAIChat([message('user', 'hi'), thinking])).input).toBe('messages[1].parts[0]')
    expect(left(toOpenAIChat([message('tool', [toolResult('c', 'f', 'boom', true)])])).input).toBe('messages[0].parts[0].isError')
  })
})
