import type { ResponseCreateParamsNonStreaming, ResponseInputItem } from 'openai/resources/responses/responses'
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { fromOpenAIResponses } from '../../src/adapters/responsesIn.js'
import { toOpenAIResponses } from '../../src/adapters/responsesOut.js'
import { message, text, toolCall, toolResult } from '../../src/message.js'
import { left, right } from '../helpers.js'

const input: ResponseInputItem[] = [
  { role: 'developer', content: 'Be brief.' },
  { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }, { type: 'input_image', detail: 'low', image_url: 'https://example.test/map.png' }] },
  { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Need the weather tool.' }], encrypted_content: 'gAAAAB-enc' },
  { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city": "Paris"}', status: 'completed' },
  { type: 'function_call_output', call_id: 'call_1', output: '18°C' },
  { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '18°C in Paris.', annotations: [] }] },
]

describe('fromOpenAIResponses', () => {
  it('reads messages, reasoning, calls and outputs one item to one message', () => {
    const { messages, sources } = right(fromOpenAIResponses(input))
    expect(sources).toEqual([0, 1, 2, 3, 4, 5])
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'assistant', 'tool', 'assistant'])
    expect(messages[2]!.parts).toEqual([
      { _tag: 'Thinking', text: 'Need the weather tool.' },
      { _tag: 'Thinking', text: '', signature: 'gAAAAB-enc', redacted: true },
    ])
    expect(messages[3]!.parts[0]).toMatchObject({ _tag: 'ToolCall', id: 'call_1', name: 'get_weather', args: { city: 'Paris' }, argsText: '{"city": "Paris"}' })
    expect(messages[4]!.parts[0]).toMatchObject({ _tag: 'ToolResult', callId: 'call_1', name: 'get_weather', content: [{ _tag: 'Text', text: '18°C' }] })
  })

  it('writes the input back exactly, as a mutable array the SDK takes as it is', () => {
    const out = right(toOpenAIResponses(right(fromOpenAIResponses(input)).messages))
    expect(out).toStrictEqual(input)
    const params: ResponseCreateParamsNonStreaming = { model: 'gpt-5', input: out }
    expectTypeOf(out).toExtend<ResponseInputItem[]>()
    // @ts-expect-error Responses items are not Chat Completions messages
    const wrong: ChatCompletionMessageParam[] = out
    expect(params.input).toBe(out)
    void wrong
  })

  it('names the index and path of anything it cannot carry', () => {
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [[{ type: 'web_search_call', id: 'ws', status: 'completed' }], 'input[0].type: must be message, function_call, function_call_output or reasoning (got "web_search_call"); other items cannot be carried'],
      [[{ type: 'item_reference', id: 'x' }], 'input[0].type: must be message, function_call, function_call_output or reasoning (got "item_reference"); other items cannot be carried'],
      [[{ role: 'user', content: [{ type: 'input_image', detail: 'auto', file_id: 'file-1' }] }], 'input[0].content[0].image_url: must be a URL or data: URL; images by file id cannot be carried (got undefined)'],
      [[{ type: 'function_call_output', call_id: 'c', output: [{ type: 'input_file', file_id: 'f' }] }], 'input[0].output[0].type: must be input_text or input_image in a function output (got "input_file"); files there cannot be carried'],
      [[{ type: 'function_call', call_id: 'c', name: 'f', arguments: 'not json' }], 'input[0].arguments: must be the JSON text of an object: gssc\'s tool calls carry an arguments object (got "not json")'],
      [[{ role: 'user', content: 'hi' }, { role: 'critic', content: 'x' }], 'input[1].role: must be one of user, assistant, system, developer (got "critic")'],
      [[{ type: 'reasoning', id: 'r', summary: [{ type: 'reasoning_text', text: 'x' }] }], 'input[0].summary[0].type: must be "summary_text" (got "reasoning_text")'],
    ]
    for (const [items, expected] of cases) expect(left(fromOpenAIResponses(items)).message).toBe(expected)
  })
})

describe('toOpenAIResponses', () => {
  it('writes messages from elsewhere as items: results of a user turn first, each text and call its own item', () => {
    const out = right(
      toOpenAIResponses([
        message('system', 'rules'),
        message('assistant', [text('Reading.'), toolCall('toolu_1', 'read', { path: 'a' })]),
        message('user', [toolResult('toolu_1', 'read', 'A'), text('thanks')]),
      ]),
    )
    expect(out).toEqual([
      { role: 'system', content: 'rules' },
      { role: 'assistant', content: 'Reading.' },
      { type: 'function_call', call_id: 'toolu_1', name: 'read', arguments: '{"path":"a"}' },
      { type: 'function_call_output', call_id: 'toolu_1', output: 'A' },
      { role: 'user', content: 'thanks' },
    ])
  })

  it('names what Responses cannot express: reasoning from elsewhere, error results', () => {
    expect(left(toOpenAIResponses([message('assistant', [{ _tag: 'Thinking', text: 'hmm', signature: 'anthropic-sig' }])])).input).toBe('messages[0].parts[0]')
    expect(left(toOpenAIResponses([message('tool', [toolResult('c', 'f', 'boom', true)])])).input).toBe('messages[0].parts[0].isError')
  })
})
