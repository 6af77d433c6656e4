import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import { chatTurns, pairResults, type ChatTurn } from '../../src/inspect/chat.js'
import { anthropicOutput, openaiOutput, PNG } from './chatFixtures.js'

const some = (o: O.Option<ReadonlyArray<ChatTurn>>): ReadonlyArray<ChatTurn> => {
  if (O.isNone(o)) throw new Error('expected chat turns')
  return o.value
}

describe('chatTurns', () => {
  it('reads OpenAI Chat Completions messages, tool calls and results included', () => {
    const turns = some(chatTurns('openai', openaiOutput))
    expect(turns.map((t) => t.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user'])
    expect(turns[2]!.blocks).toEqual([
      { _tag: 'Text', text: 'Let me read the CI log.' },
      { _tag: 'ToolCall', id: 'call_1', name: 'read_file', args: '{\n  "path": "ci.log"\n}' },
    ])
    expect(turns[3]!.blocks).toEqual([{ _tag: 'ToolResult', callId: 'call_1', content: [{ _tag: 'Text', text: 'npm ERR! Missing script: "compile"' }], isError: false }])
    expect(turns[5]!.blocks.map((b) => b._tag)).toEqual(['Text', 'Image', 'Image'])
  })

  it('reads an Anthropic Messages request: system, thinking, tool use, tool result, images', () => {
    const turns = some(chatTurns('anthropic', anthropicOutput))
    expect(turns.map((t) => t.role)).toEqual(['system', 'user', 'assistant', 'user'])
    expect(turns[2]!.blocks).toEqual([
      { _tag: 'Thinking', text: 'Check the log first.', redacted: false },
      { _tag: 'Text', text: 'Reading the log.' },
      { _tag: 'ToolCall', id: 'toolu_1', name: 'read_file', args: '{\n  "path": "ci.log"\n}' },
    ])
    expect(turns[3]!.blocks[0]).toEqual({ _tag: 'ToolResult', callId: 'toolu_1', content: [{ _tag: 'Text', text: 'npm ERR! Missing script: "compile"' }], isError: true })
    expect(turns[3]!.blocks[1]).toEqual({ _tag: 'Image', url: `data:image/png;base64,${PNG}` })
    // a block it does not know is kept, as JSON
    expect(turns[3]!.blocks[2]).toMatchObject({ _tag: 'Unknown' })
    expect(turns[3]!.blocks[2]!._tag === 'Unknown' && JSON.parse(turns[3]!.blocks[2]!.json)).toMatchObject({ type: 'server_tool_use' })
  })

  it('accepts a system prompt given as a string', () => {
    expect(some(chatTurns('anthropic', { system: 'Be brief.', messages: [] }))).toEqual([{ role: 'system', blocks: [{ _tag: 'Text', text: 'Be brief.' }] }])
  })

  it('is none for text output, and reads an unknown format by its shape', () => {
    expect(O.isNone(chatTurns('text', 'hello'))).toBe(true)
    expect(O.isNone(chatTurns('custom', 42))).toBe(true)
    expect(some(chatTurns('custom', [{ role: 'user', content: 'hi' }]))).toHaveLength(1)
    expect(some(chatTurns('custom', { messages: [{ role: 'user', content: 'hi' }] }))).toHaveLength(1)
    expect(some(chatTurns('openai', [null]))[0]).toMatchObject({ role: 'unknown', blocks: [{ _tag: 'Unknown', json: 'null' }] })
  })
})

describe('pairResults', () => {
  it('pairs each result with its call, and leaves a result without a call alone', () => {
    const pairs = pairResults(some(chatTurns('openai', openaiOutput)))
    expect([...pairs.keys()]).toEqual(['call_1'])
    expect(pairResults(some(chatTurns('anthropic', anthropicOutput))).get('toolu_1')?.isError).toBe(true)
  })
})
