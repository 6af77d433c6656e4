import { describe, expect, it } from 'vitest'
import { contextOf, load, writeSession } from '../helpers.js'

describe('the seed format', () => {
  it('rebuilds each branch from its leaf (the last line by default)', async () => {
    const b = await contextOf('seed.jsonl')
    expect(b.leafId).toBe('7')
    expect(b.path).toEqual(['1', '2', '6', '7'])
    expect(b.messages.map((m) => m.message.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(b.model).toBeNull()
  })

  it('joins a tool call to the assistant turn before it and pairs the result by parentId', async () => {
    const a = await contextOf('seed.jsonl', { leaf: '5' })
    expect(a.path).toEqual(['1', '2', '3', '4', '5'])
    expect(a.messages.map((m) => [m.entryId, m.message.role])).toEqual([
      ['1', 'user'],
      ['2', 'assistant'],
      ['4', 'tool'],
      ['5', 'assistant'],
    ])
    expect(a.messages[1]!.message.parts).toEqual([
      { _tag: 'Text', text: 'Hi! Let me check the build.' },
      { _tag: 'ToolCall', id: '3', name: 'bash', args: { command: 'npm run build' } },
    ])
    expect(a.messages[2]!.message.parts).toEqual([
      { _tag: 'ToolResult', callId: '3', name: '', content: [{ _tag: 'Text', text: 'npm ERR! missing script: compile' }], isError: true },
    ])
    // numbers are epoch ms, strings ISO-8601
    expect(a.messages[0]!.message.timestamp).toBe(1768035600000)
    expect(a.messages[3]!.message.timestamp).toBe(Date.parse('2026-01-10T09:00:04.000Z'))
  })

  it('reports a tool_call whose content is not a call, and lines of other types', async () => {
    const file = writeSession('seed-bad.jsonl', [
        '{"id":"1","parentId":null,"timestamp":1,"type":"user","content":"hi"}',
        '{"id":"2","parentId":"1","timestamp":2,"type":"tool_call","content":"not json"}',
        '{"id":"3","parentId":"2","timestamp":3,"type":"note","content":"?"}',
      ])
    const s = await load(file)
    expect(s.diagnostics.map((d) => [d.line, d.reason])).toEqual([
      [2, 'tool_call content is not JSON with a string "name"; kept in the tree, contributes nothing'],
      [3, 'type "note" is not one of user, assistant, tool_call, tool_result; skipped'],
    ])
  })
})
