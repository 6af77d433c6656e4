import * as lc from '@langchain/core/messages'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { fromLangChain } from '../../src/adapters/langchainIn.js'
import { toLangChain } from '../../src/adapters/langchainOut.js'
import { message, text, toolCall, toolResult } from '../../src/message.js'
import { left, right } from '../helpers.js'

const history = [
  new lc.SystemMessage('Be brief.'),
  new lc.HumanMessage('Weather in Paris?'),
  new lc.AIMessage({ content: '', tool_calls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Paris' }, type: 'tool_call' }] }),
  new lc.ToolMessage({ content: 'rain', tool_call_id: 'call_1', status: 'error' }),
  new lc.AIMessage('It rains in Paris.'),
]

describe('fromLangChain', () => {
  it('reads AIMessage tool_calls and ToolMessages: the call and its result are both there', () => {
    const { messages, shape } = right(fromLangChain(history))
    expect(shape).toBe('langchain')
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant'])
    expect(messages[2]!.parts[1]).toMatchObject({ _tag: 'ToolCall', id: 'call_1', name: 'get_weather', args: { city: 'Paris' } })
    expect(messages[3]!.parts).toEqual([{ _tag: 'ToolResult', callId: 'call_1', name: 'get_weather', content: [{ _tag: 'Text', text: 'rain' }], isError: true, native: { shape: 'langchain', form: { name: 'absent' } } }])
  })

  it('builds real instances of the classes passed in, equal to the ones read', () => {
    const out = right(toLangChain(right(fromLangChain(history)).messages, lc))
    expect(out).toStrictEqual(history)
    expect(out[2]).toBeInstanceOf(lc.AIMessage)
    expect(lc.AIMessage.isInstance(out[2])).toBe(true)
    expectTypeOf(out).toExtend<lc.BaseMessage[]>()
    // @ts-expect-error LangChain messages are not strings
    const wrong: string[] = out
    void wrong
  })

  it("reads LangChain's escaped user objects in serialized forms as they were given (deep property run, seed 434352473)", () => {
    const messages = [
      new lc.AIMessage({ content: '', tool_calls: [{ id: 'call_0', name: 'read', args: { path: { lc: '' } }, type: 'tool_call' }] }),
      new lc.ToolMessage({ content: 'ok', tool_call_id: 'call_0' }),
    ]
    for (const serialized of [messages.map((m) => m.toDict()), JSON.parse(JSON.stringify(messages)) as unknown[]]) {
      const decoded = right(fromLangChain(serialized)).messages
      expect(decoded[0]!.parts).toContainEqual(expect.objectContaining({ _tag: 'ToolCall', args: { path: { lc: '' } } }))
      expect(right(toLangChain(decoded, lc)).map((m) => m.toDict())).toStrictEqual(messages.map((m) => m.toDict()))
    }
  })

  it('writes messages from elsewhere as the standard message classes', () => {
    const out = right(
      toLangChain(
        [message('system', 'rules'), message('assistant', [text('Reading.'), toolCall('toolu_1', 'read', { path: 'a' })]), message('user', [toolResult('toolu_1', 'read', 'A'), text('thanks')])],
        lc,
      ),
    )
    expect(out.map((m) => m.type)).toEqual(['system', 'ai', 'tool', 'human'])
    expect((out[1] as lc.AIMessage).tool_calls).toEqual([{ id: 'toolu_1', name: 'read', args: { path: 'a' } }])
    expect(out[2]).toMatchObject({ tool_call_id: 'toolu_1', content: 'A', name: 'read' })
  })

  it('names the index and path of anything it cannot carry', () => {
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [[new lc.HumanMessage('hi'), { role: 'user' }], 'messages[1]: must be a LangChain message: an instance, message.toDict() or its JSON (got {"role":"user"})'],
      [[new lc.ChatMessage('x', 'critic')], 'messages[0]: must be a system, human, ai or tool message (got "generic"); other message types cannot be carried'],
      [[new lc.AIMessage({ content: '', invalid_tool_calls: [{ id: 'c', name: 'f', args: '{oops', type: 'invalid_tool_call' }] })], 'messages[0].invalid_tool_calls: tool calls whose arguments are not valid JSON cannot be carried (gssc carries an arguments object)'],
      [[new lc.AIMessage({ content: '', tool_calls: [{ name: 'f', args: {} }] })], 'messages[0].tool_calls[0].id: must be a string (got undefined); gssc pairs calls with results by id'],
      [[new lc.HumanMessage({ content: [{ type: 'file', url: 'https://x.test/a.pdf', mimeType: 'application/pdf' }] })], 'messages[0].content[0].type: must be text, image_url, image, thinking, redacted_thinking or reasoning (got "file"); other blocks cannot be carried'],
      [[new lc.AIMessage({ content: [{ type: 'tool_use', id: 'x', name: 'f', input: {} }] })], 'messages[0].content[0]: a tool_use block must repeat one of the message\'s tool_calls (got id "x")'],
    ]
    for (const [input, expected] of cases) expect(left(fromLangChain(input)).message).toBe(expected)
  })
})
