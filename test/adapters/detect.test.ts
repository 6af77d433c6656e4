import * as lc from '@langchain/core/messages'
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { ModelMessage } from 'ai'
import type { ResponseInputItem } from 'openai/resources/responses/responses'
import { describe, expect, it } from 'vitest'
import { detect, fromAny, readHistory } from '../../src/adapters/detect.js'
import { anthropicRenderer, openaiRenderer } from '../../src/formats.js'
import { message } from '../../src/message.js'
import { build } from '../../src/pipeline.js'
import { gpt4o, left, NOW, right, run } from '../helpers.js'

const openai: ChatCompletionMessageParam[] = [
  { role: 'user', content: 'Weather in Paris?' },
  { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: '18°C and sunny' },
  { role: 'assistant', content: 'It is 18°C and sunny.' },
]
const anthropic: MessageParam[] = [
  { role: 'user', content: 'Weather in Paris?' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C and sunny' }] },
]
const aiSdk: ModelMessage[] = [
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Paris' } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'get_weather', output: { type: 'text', value: '18°C' } }] },
]
const responses: ResponseInputItem[] = [
  { role: 'user', content: 'Weather in Paris?' },
  { type: 'function_call', call_id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' },
  { type: 'function_call_output', call_id: 'c1', output: '18°C' },
]
const langchain = [new lc.HumanMessage('Weather?'), new lc.AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'get_weather', args: {} }] }), new lc.ToolMessage({ content: '18°C', tool_call_id: 'c1' })]

describe('detect', () => {
  it('tells each SDK shape by what its messages hold', () => {
    expect(right(detect(openai))).toBe('openai-chat')
    expect(right(detect(anthropic))).toBe('anthropic')
    expect(right(detect({ system: 'Be brief.', messages: [] }))).toBe('anthropic')
    expect(right(detect(aiSdk))).toBe('ai-sdk')
    expect(right(detect(responses))).toBe('openai-responses')
    expect(right(detect(langchain))).toBe('langchain')
    expect(right(detect(langchain.map((m) => m.toDict())))).toBe('langchain')
    expect(right(detect([message('user', 'hi')]))).toBe('gssc')
    expect(right(detect([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello', name: 'bot' }]))).toBe('plain')
    // text parts are common to three shapes; the first of them is taken, and they read alike
    expect(right(detect([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]))).toBe('openai-chat')
  })

  it('tells a shape by each message field only it has', () => {
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [{ role: 'assistant', content: null, tool_calls: [] }, 'openai-chat'],
      [{ role: 'tool', content: 'x', tool_call_id: 'c' }, 'openai-chat'],
      [{ role: 'assistant', content: 'x', refusal: 'no' }, 'openai-chat'],
      [{ role: 'assistant', content: 'x', audio: { id: 'a' } }, 'openai-chat'],
      [{ role: 'assistant', content: 'x', function_call: { name: 'f', arguments: '{}' } }, 'openai-chat'],
      [{ role: 'user', content: 'x', providerOptions: {} }, 'ai-sdk'],
      [{ role: 'assistant', content: 'x', phase: 'final_answer' }, 'openai-responses'],
      [{ role: 'user', parts: [] }, 'gssc'],
    ]
    for (const [m, shape] of cases) expect(right(detect([{ role: 'user', content: 'hi' }, m]))).toBe(shape)
    // fields of two shapes in one message
    expect(left(detect([{ role: 'user', content: 'x', providerOptions: {}, phase: 'final_answer' }])).message).toBe('messages[0]: is in no known message shape')
    expect(left(detect([{ role: 'tool', content: 'x', tool_call_id: 'c', parts: [] }])).message).toBe('messages[0]: is in no known message shape')
  })

  it('names two messages of different shapes in one list', () => {
    expect(left(detect([...openai, ...aiSdk])).message).toBe('messages[4]: looks like ai-sdk, but messages[1] looks like openai-chat; one list must be in one shape')
    expect(left(detect([{ role: 'assistant', content: [{ type: 'tool_use' }, { type: 'tool-call' }] }])).message).toBe('messages[0]: is in no known message shape')
  })
})

describe('fromAny', () => {
  it('reads every shape, and says which it read', () => {
    for (const [input, shape] of [[openai, 'openai-chat'], [anthropic, 'anthropic'], [aiSdk, 'ai-sdk'], [responses, 'openai-responses'], [langchain, 'langchain']] as const) {
      const decoded = right(fromAny(input))
      expect(decoded.shape).toBe(shape)
      expect(decoded.messages.flatMap((m) => m.parts).filter((p) => p._tag === 'ToolCall' || p._tag === 'ToolResult')).toHaveLength(2)
    }
    expect(right(fromAny([{ role: 'user', content: 'hi' }])).shape).toBe('openai-chat')
    expect(left(fromAny([message('user', 'hi')])).message).toBe('messages: holds gssc messages already ({ role, parts }); no adapter is needed')
  })

  it('reads a history with errors named under history', () => {
    expect(right(readHistory([{ role: 'user', content: 'hi' }]))).toBeUndefined()
    expect(left(readHistory([{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: 'x' } }] }])).input).toBe('history[0].tool_calls[0].function.arguments')
  })
})

describe('build with an SDK-shaped history (issue 11)', () => {
  it('keeps the tool call and its result of an OpenAI history: nothing vanishes', async () => {
    const r = await run(build({ query: 'And tomorrow?', history: openai }, { tokenizer: gpt4o, now: NOW, renderer: openaiRenderer() }))
    const call = r.output.find((m) => m.role === 'assistant' && m.tool_calls !== undefined)
    expect(call).toMatchObject({ tool_calls: [{ id: 'call_1', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] })
    expect(r.output).toContainEqual({ role: 'tool', tool_call_id: 'call_1', content: '18°C and sunny' })
  })

  it('reads an Anthropic history, results in user turns, into the Anthropic request', async () => {
    const r = await run(build({ query: 'And tomorrow?', history: anthropic }, { tokenizer: gpt4o, now: NOW, renderer: anthropicRenderer() }))
    const blocks: ReadonlyArray<unknown> = r.output.messages.flatMap((m): ReadonlyArray<unknown> => (typeof m.content === 'string' ? [] : m.content))
    expect(blocks).toContainEqual({ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } })
    expect(blocks).toContainEqual(expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_1' }))
  })

  it('rejects a history it cannot read, naming history[i]', async () => {
    const bad = [{ role: 'assistant', content: [{ type: 'tool-approval-request', approvalId: 'a', toolCallId: 'c' }] }]
    const r = await build({ query: 'x', history: bad }, { tokenizer: gpt4o, now: NOW })()
    expect(r).toMatchObject({ _tag: 'Left', left: { input: 'history[0].content[0].type' } })
  })
})
