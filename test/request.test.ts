import { describe, expect, it } from 'vitest'
import { build } from '../src/pipeline.js'
import { validateRequest } from '../src/request.js'
import { gpt4o, left, NOW } from './helpers.js'

const message = (request: unknown): string => left(validateRequest(request)).message

describe('validateRequest', () => {
  it('names the part of a history turn at fault, however deep', () => {
    const history = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: [42, { type: 'hologram' }] },
    ]
    expect(message({ query: 'q', history })).toBe(
      "history[2].content[0]: must be a part: { _tag: 'Text', text } or an Image, Document, Thinking, ToolCall or ToolResult part (got 42)",
    )
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [{ role: 'user', content: [{ _tag: 'Text', text: 'a' }, { type: 'hologram' }] }, 'history[0].content[1]: must be a part'],
      [{ role: 'user', content: [{ _tag: 'Image', source: { _tag: 'Base64', data: 'x' } }] }, 'history[0].content[0].source.mimeType: must be a string (got undefined)'],
      [{ role: 'user', content: [{ _tag: 'Image', source: { _tag: 'File' } }] }, 'history[0].content[0].source._tag: must be "Base64" or "Url" (got "File")'],
      [{ role: 'assistant', content: [{ _tag: 'ToolCall', id: 'c', name: 'ls', args: '{}' }] }, 'history[0].content[0].args: must be an object (got "{}")'],
      [{ role: 'tool', content: [{ _tag: 'ToolResult', callId: 'c', name: 'ls', isError: false, content: [{ _tag: 'ToolCall' }] }] }, 'history[0].content[0].content[0]: must be a Text or Image part'],
      [{ role: 'user', parts: [{ _tag: 'Thinking', text: 1 }] }, 'history[0].parts[0].text: must be a string (got 1)'],
      [{ role: 'user', parts: 'hi' }, 'history[0].parts: must be an array of parts (got "hi")'],
      [{ role: 'user', content: 'x', timestamp: 'yesterday' }, 'history[0].timestamp: must be epoch milliseconds'],
      [{ role: 'user', content: 'x', timestamp: '2026-02-30' }, 'history[0].timestamp: must be epoch milliseconds'],
      [{ role: 'user', content: 'x', name: 7 }, 'history[0].name: must be a string (got 7)'],
    ]
    for (const [turn, expected] of cases) expect(message({ query: 'q', history: [turn] })).toContain(expected)
  })

  it('names the packet field, the instruction and the image at fault', () => {
    expect(message({ query: 'q', instructions: ['a', 3] })).toBe('instructions[1]: must be a string (got 3)')
    expect(message({ query: 'q', packets: [{ type: 'evidence', content: 'x', message: { role: 'bot', parts: [] } }] })).toBe(
      'packets[0].message.role: must be one of system, user, assistant, tool (got "bot")',
    )
    expect(message({ query: 'q', packets: [{ type: 'evidence', content: 'x', tokens: -1 }] })).toBe('packets[0].tokens: must be a non-negative integer (got -1)')
    expect(message({ query: 'q', media: [{ _tag: 'Image', source: { _tag: 'Url' } }] })).toBe('media[0].source.url: must be a string (got undefined)')
  })

  it('accepts timestamps as people write them: epoch milliseconds and ISO 8601', () => {
    for (const timestamp of [NOW, '2026-11-22T06:00:00Z', '2026-11-22T06:00:00.123+08:00', '2026-11-22 06:00', '2026-11-22'])
      expect(validateRequest({ query: 'q', history: [{ role: 'user', content: 'x', timestamp }], packets: [{ type: 'custom', content: 'x', timestamp }] })._tag).toBe('Right')
  })
})

describe('a bad history turn through build', () => {
  it('is an error naming history[2].content[0], not a history that silently vanishes', async () => {
    const history = [
      { role: 'user' as const, content: 'hi' },
      { role: 'assistant' as const, content: 'hello' },
      { role: 'user' as const, content: [42, { type: 'hologram' }] as never },
    ]
    const r = await build({ query: 'q', history }, { tokenizer: gpt4o, now: NOW })()
    expect(left(r)).toMatchObject({ _tag: 'InputError', input: 'history[2].content[0]' })
  })
})
