import type { generateText, ModelMessage } from 'ai'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { fromAISDK } from '../../src/adapters/aiSdkIn.js'
import { toAISDK } from '../../src/adapters/aiSdkOut.js'
import { message, text, toolCall, toolResult } from '../../src/message.js'
import { left, right } from '../helpers.js'
import { PNG } from './arbitraries.js'

const bytes = Uint8Array.from([0x25, 0x50, 0x44, 0x46])
const prompt: ModelMessage[] = [
  { role: 'system', content: 'Be brief.', providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in these?' },
      { type: 'image', image: new URL('https://example.test/cat.png') },
      { type: 'file', data: bytes, mediaType: 'application/pdf', filename: 'a.pdf' },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Look at both.', providerOptions: { anthropic: { signature: 'EqQB' } } },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'ocr', input: { page: 1 } },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'ocr', output: { type: 'json', value: { text: 'Invoice', pages: 2 } } }] },
]

describe('fromAISDK', () => {
  it('reads every part, with the form its data came in, and writes the prompt back unchanged', () => {
    const { messages } = right(fromAISDK(prompt))
    expect(messages[1]!.parts.map((p) => p._tag)).toEqual(['Text', 'Image', 'Document'])
    expect(messages[1]!.parts[2]).toMatchObject({ _tag: 'Document', source: { _tag: 'Base64', mimeType: 'application/pdf', data: 'JVBERg==' }, name: 'a.pdf' })
    expect(messages[3]!.parts[0]).toMatchObject({ _tag: 'ToolResult', callId: 'call_1', name: 'ocr', content: [{ _tag: 'Text', text: '{"text":"Invoice","pages":2}' }], isError: false })
    const out = right(toAISDK(messages))
    expect(out).toStrictEqual(prompt)
    const image = (out[1]!.content as ReadonlyArray<{ image?: unknown }>)[1]!.image
    expect(image).toBeInstanceOf(URL)
    expect((image as URL).href).toBe('https://example.test/cat.png')
    expect((out[1]!.content as ReadonlyArray<{ data?: unknown }>)[2]!.data).toEqual(bytes)
  })

  it('gives the SDK a plain mutable array that generateText takes as it is', () => {
    const out = right(toAISDK(right(fromAISDK(prompt)).messages))
    expectTypeOf(out).toExtend<ModelMessage[]>()
    const call: Parameters<typeof generateText>[0] = { model: 'openai/gpt-4o', messages: out }
    // @ts-expect-error AI SDK messages are not Anthropic turns
    const wrong: MessageParam[] = out
    expect(call.messages).toBe(out)
    void wrong
  })

  it('reads an image without a media type by its bytes, and an ArrayBuffer back as one', () => {
    const buffer = Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0)).buffer
    const { messages } = right(fromAISDK([{ role: 'user', content: [{ type: 'image', image: buffer }] }]))
    expect(messages[0]!.parts[0]).toMatchObject({ _tag: 'Image', source: { _tag: 'Base64', mimeType: 'image/png', data: PNG } })
    const back = (right(toAISDK(messages))[0]!.content as ReadonlyArray<{ image: unknown }>)[0]!.image
    expect(back).toBeInstanceOf(ArrayBuffer)
    expect(new Uint8Array(back as ArrayBuffer)).toEqual(new Uint8Array(buffer))
  })

  it('adds nothing the caller left out and keeps what JSON text cannot (regressions found by the deep property run, seed 684943136)', () => {
    const given: ModelMessage[] = [
      { role: 'user', content: [{ type: 'image', image: PNG }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'read', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 'read', output: { type: 'json', value: { n: -0 } } }] },
    ]
    const { messages } = right(fromAISDK(given))
    expect(messages[0]!.parts[0]).toMatchObject({ _tag: 'Image', source: { mimeType: 'image/png' } })
    const out = right(toAISDK(messages))
    expect(out).toStrictEqual(given)
    expect(Object.is((out[2]!.content[0] as unknown as { output: { value: { n: number } } }).output.value.n, -0)).toBe(true)
  })

  it('names the index and path of anything it cannot carry', () => {
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [[{ role: 'assistant', content: [{ type: 'tool-approval-request', approvalId: 'a', toolCallId: 'c' }] }], 'messages[0].content[0].type: must be one of text, file, reasoning, tool-call, tool-result in an assistant message (got "tool-approval-request"); tool approvals cannot be carried'],
      [[{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 't', output: { type: 'content', value: [{ type: 'file-id', fileId: 'f' }] } }] }], 'messages[0].content[0].output.value[0].type: must be text, image-data or image-url (got "file-id"); files and custom parts in a tool result cannot be carried'],
      [[{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: [1, 2] }] }], 'messages[0].content[0].input: must be an object: gssc\'s tool calls carry an arguments object (got [1,2])'],
      [[{ role: 'user', content: [{ type: 'image', image: 42 }] }], 'messages[0].content[0].image: must be base64 text, a URL, a Uint8Array or an ArrayBuffer (got 42)'],
      [[{ role: 'system', content: [{ type: 'text', text: 'x' }] }], 'messages[0].content: must be a string (got [{"type":"text","text":"x"}])'],
      [[{ role: 'user', content: [{ type: 'reasoning', text: 'x' }] }], 'messages[0].content[0].type: must be one of text, image, file in a user message (got "reasoning")'],
    ]
    for (const [input, expected] of cases) expect(left(fromAISDK(input)).message).toBe(expected)
  })
})

describe('toAISDK', () => {
  it('writes messages from elsewhere: results of a user turn as a tool message, errors as error-text', () => {
    const out = right(
      toAISDK([
        message('assistant', [text('Reading.'), toolCall('toolu_1', 'read', { path: 'a' })]),
        message('user', [toolResult('toolu_1', 'read', 'no such file', true), text('and?')]),
      ]),
    )
    expect(out).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'read', input: { path: 'a' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'read', output: { type: 'error-text', value: 'no such file' } }] },
      { role: 'user', content: [{ type: 'text', text: 'and?' }] },
    ])
  })

  it('names what the SDK cannot take: signed reasoning from another provider', () => {
    expect(left(toAISDK([message('assistant', [{ _tag: 'Thinking', text: 'hmm', signature: 'anthropic-sig' }])])).input).toBe('messages[0].parts[0]')
  })
})
