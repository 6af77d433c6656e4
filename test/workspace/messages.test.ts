import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ChatCompletionMessage, ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../src/workspace/load.js'
import { addAssistantMessage, addToolResult, buildMessages, buildTurn } from '../../src/workspace/messages.js'
import type { TurnMessage } from '../../src/workspace/openai.js'
import { buildSystemPrompt } from '../../src/workspace/prompt.js'
import { BASIC, LOAD, left, right, RUNTIME, tokenizer } from './helpers.js'

const OPTIONS = { tokenizer, runtime: RUNTIME }
const HISTORY: ReadonlyArray<TurnMessage> = Object.freeze([
  Object.freeze({ role: 'user', content: '你好' } as const),
  Object.freeze({ role: 'assistant', content: '你好！有什么可以帮你？' } as const),
])

describe('buildMessages', () => {
  it('is [system, …history, current], with channel and chat id in the system prompt', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    const turn = right(await buildTurn(ws, { history: HISTORY, currentMessage: 'Write a Python function', channel: 'cli', chatId: 'direct' }, OPTIONS)())
    const system = right(buildSystemPrompt(ws, { ...OPTIONS, channel: 'cli', chatId: 'direct' }))
    expect(turn.messages).toEqual([
      { role: 'system', content: system.prompt },
      { role: 'user', content: '你好' },
      { role: 'assistant', content: '你好！有什么可以帮你？' },
      { role: 'user', content: 'Write a Python function' },
    ])
    expect(turn.messages[1]).toBe(HISTORY[0]) // history is passed through, not rebuilt
    expect(turn.system).toEqual(system)
    expect(turn.system.prompt.endsWith('\n\n## Current Session\nChannel: cli\nChat ID: direct')).toBe(true)
    // the seed's API: the bare array
    const messages = right(await buildMessages(ws, { history: HISTORY, currentMessage: 'Write a Python function', channel: 'cli', chatId: 'direct' }, OPTIONS)())
    expect(messages).toEqual(turn.messages)
  })

  it('puts images first, then the text, as data URLs', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    const turn = right(await buildTurn(ws, { history: [], currentMessage: 'Describe these', media: ['images/chart.png', 'images/dot.gif'] }, OPTIONS)())
    const png = (await readFile(join(BASIC, 'images/chart.png'))).toString('base64')
    const gif = (await readFile(join(BASIC, 'images/dot.gif'))).toString('base64')
    expect(turn.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
        { type: 'image_url', image_url: { url: `data:image/gif;base64,${gif}` } },
        { type: 'text', text: 'Describe these' },
      ],
    })
  })

  it('fails, naming the file, instead of dropping an unusable image', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    expect(left(await buildTurn(ws, { history: [], currentMessage: 'Look', media: ['images/chart.png', 'images/notes.png'] }, OPTIONS)()).message).toMatch(
      /^media "images\/notes\.png": is not a PNG, JPEG, GIF or WebP image/,
    )
    expect(left(await buildTurn(ws, { history: [], currentMessage: 'Look', media: ['images/huge.png'] }, OPTIONS)()).message).toMatch(/file not found/)
  })

  it('loads the skills named for the turn', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    const turn = right(await buildTurn(ws, { history: [], currentMessage: 'Weather?', skillNames: ['weather'] }, OPTIONS)())
    expect(turn.system.prompt).toContain('### Skill: weather\n\n# Weather\n\nUse `curl wttr.in/<city>?format=3` for a one-line forecast.')
    expect(left(await buildTurn(ws, { history: [], currentMessage: 'x', skillNames: ['../secrets'] }, OPTIONS)()).message).toMatch(/^config\.skillNames: is not a skill name/)
  })

  it('gives messages the OpenAI SDK accepts as they are', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    const turn = right(await buildTurn(ws, { history: HISTORY, currentMessage: 'Hi' }, OPTIONS)())
    const withCalls = addToolResult(addAssistantMessage(turn.messages, null, [{ id: 'c1', name: 'read_file', arguments: { path: 'a' } }]), 'c1', 'read_file', 'A')
    // a compile-time check: this file does not type-check if the shapes drift
    const sdk: ChatCompletionMessageParam[] = withCalls
    expect(sdk).toHaveLength(6)
  })

  it("records the SDK's reply as it comes, function and custom tool calls alike", () => {
    const reply: ChatCompletionMessage = {
      role: 'assistant',
      content: null,
      refusal: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.md"}' } },
        { id: 'c2', type: 'custom', custom: { name: 'sql', input: 'select 1' } },
      ],
    }
    const out: ChatCompletionMessageParam[] = addAssistantMessage([], reply.content, reply.tool_calls)
    expect(out).toEqual([{ role: 'assistant', tool_calls: reply.tool_calls }])
  })
})

describe('addAssistantMessage', () => {
  it('adds content only when non-empty, tool calls only when present, reasoning only when truthy', () => {
    const calls = [
      { id: 'call_1', name: 'read_file', arguments: { path: 'skills/weather/SKILL.md' } },
      { id: 'call_2', type: 'function' as const, function: { name: 'exec', arguments: '{"cmd":"date"}' } },
    ]
    expect(addAssistantMessage(HISTORY, '', calls, 'Need the skill first.').at(-1)).toEqual({
      role: 'assistant',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"skills/weather/SKILL.md"}' } },
        { id: 'call_2', type: 'function', function: { name: 'exec', arguments: '{"cmd":"date"}' } },
      ],
      reasoning_content: 'Need the skill first.',
    })
    expect(addAssistantMessage(HISTORY, 'Done.', []).at(-1)).toEqual({ role: 'assistant', content: 'Done.' })
    expect(addAssistantMessage(HISTORY, null, null, '').at(-1)).toEqual({ role: 'assistant' })
    // arguments keep non-ASCII text as is (nanobot: ensure_ascii=False)
    expect(addAssistantMessage([], 'ok', [{ id: 'c', name: 'say', arguments: { text: '你好' } }])[0]).toEqual({
      role: 'assistant',
      content: 'ok',
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'say', arguments: '{"text":"你好"}' } }],
    })
  })

  it('returns a new array and leaves the input alone', () => {
    const out = addAssistantMessage(HISTORY, 'Hi', undefined)
    expect(out).not.toBe(HISTORY)
    expect(HISTORY).toHaveLength(2)
    expect(out).toHaveLength(3)
    expect(out.slice(0, 2)).toEqual(HISTORY)
  })
})

describe('addToolResult', () => {
  it('appends { role: tool, tool_call_id, name, content } to a new array', () => {
    const out = addToolResult(HISTORY, 'call_1', 'read_file', '# Weather\n\nUse curl.')
    expect(out).toEqual([...HISTORY, { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: '# Weather\n\nUse curl.' }])
    expect(HISTORY).toHaveLength(2)
  })

  it('runs a whole tool loop without touching earlier arrays', () => {
    const start = Object.freeze([{ role: 'user', content: 'Weather in Hangzhou?' } as const])
    const asked = addAssistantMessage(start, 'Let me check.', [{ id: 'c1', name: 'exec', arguments: { cmd: 'curl wttr.in/Hangzhou?format=3' } }])
    const answered = addToolResult(asked, 'c1', 'exec', 'Hangzhou: ☀️ +31°C')
    const done = addAssistantMessage(answered, 'It is sunny, 31 °C.', null)
    expect(done.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect([start.length, asked.length, answered.length]).toEqual([1, 2, 3])
  })
})
