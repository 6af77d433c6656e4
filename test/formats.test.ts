import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { describe, expect, it } from 'vitest'
import { anthropicRenderer, openaiRenderer } from '../src/formats.js'
import { image, message, toolCall, toolResult } from '../src/message.js'
import { build } from '../src/pipeline.js'
import { describeWarning } from '../src/report.js'
import { checkAnthropic } from '../src/render/checkAnthropic.js'
import { checkOpenAI } from '../src/render/checkOpenAI.js'
import { countAnthropic, countOpenAI } from '../src/render/count.js'
import { sectioned } from '../src/structure/sectioned.js'
import { xml } from '../src/structure/xml.js'
import { gpt4o, NOW, run } from './helpers.js'

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

const history = [
  message('user', 'Why does the build fail?'),
  message('assistant', [{ _tag: 'Text', text: 'Reading the script.' }, toolCall('call_1', 'read', { path: 'build.sh' })]),
  message('tool', [toolResult('call_1', 'read', '#!/bin/sh\nnpm run compile\n')]),
  message('assistant', 'build.sh calls a missing npm script `compile`.'),
]
const request = {
  query: 'And how do I fix it?',
  instructions: 'You are a build assistant.',
  history,
  packets: [{ type: 'evidence' as const, content: 'The compile script was renamed to build in v2.', source: 'CHANGELOG.md', relevance: 0.9 }],
}

describe('openaiRenderer', () => {
  it('sends the system prompt, the turns with tool calls paired, and the query last (the seed layout, one option away)', async () => {
    const r = await run(build(request, { tokenizer: gpt4o, now: NOW, structurer: sectioned(), renderer: openaiRenderer() }))
    const messages: ReadonlyArray<ChatCompletionMessageParam> = r.output
    // the SDK takes the output as it is: a plain mutable array (issue 11: TS2769 without a spread)
    const params: ChatCompletionCreateParamsNonStreaming = { model: 'gpt-4o', messages: r.output }
    expect(params.messages).toBe(r.output)
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user'])
    expect(messages[0]?.content).toContain('[Role & Policies]\nYou are a build assistant.')
    expect(messages[0]?.content).toContain('[Source: CHANGELOG.md] The compile script was renamed')
    expect(messages[2]).toMatchObject({ tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"build.sh"}' } }] })
    expect(messages[5]).toEqual({ role: 'user', content: 'And how do I fix it?' })
    expect(checkOpenAI(r.output)).toEqual([])
    expect(r.tokenCount).toBe(countOpenAI(r.output, gpt4o))
    expect(r.format).toBe('openai')
  })
})

describe('anthropicRenderer', () => {
  it('splits the system out and puts tool results in the next user turn', async () => {
    const r = await run(build(request, { tokenizer: gpt4o, now: NOW, renderer: anthropicRenderer({ cache: { system: true } }) }))
    const messages: ReadonlyArray<MessageParam> = r.output.messages
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user'])
    expect(JSON.stringify(r.output.system)).toContain('cache_control')
    expect(JSON.stringify(messages[2])).toContain('"tool_result"')
    expect(checkAnthropic(r.output)).toEqual([])
    expect(r.tokenCount).toBe(countAnthropic(r.output, gpt4o))
  })

  it('never leaves a tool call without its result when the budget cuts the history', async () => {
    for (const maxTokens of [60, 90, 120, 160, 220, 300]) {
      const r = await run(build(request, { tokenizer: gpt4o, now: NOW, config: { maxTokens, reserveRatio: 0 }, renderer: anthropicRenderer() }))
      expect(checkAnthropic(r.output)).toEqual([])
      expect(r.tokenCount).toBeLessThanOrEqual(maxTokens)
    }
  })
})

describe("the renderers' repairs reach the report", () => {
  it('a tool call left without its result, and a history opening on an assistant turn, are warnings naming their packets', async () => {
    const history = [message('assistant', 'I will check the build.'), message('assistant', [toolCall('call_9', 'read', { path: 'build.sh' })]), message('user', 'Never mind that.')]
    const openai = await run(build({ query: 'What now?', history }, { tokenizer: gpt4o, now: NOW, renderer: openaiRenderer() }))
    expect(checkOpenAI(openai.output)).toEqual([])
    expect(openai.warnings).toContainEqual(expect.objectContaining({ _tag: 'SyntheticResult', callId: 'call_9', id: 'history:1' }))
    const anthropic = await run(build({ query: 'What now?', history }, { tokenizer: gpt4o, now: NOW, renderer: anthropicRenderer() }))
    expect(checkAnthropic(anthropic.output)).toEqual([])
    expect(anthropic.warnings).toContainEqual(expect.objectContaining({ _tag: 'SyntheticResult', callId: 'call_9', id: 'history:1' }))
    expect(anthropic.warnings).toContainEqual(expect.objectContaining({ _tag: 'SyntheticUserTurn', id: 'history:0' }))
    // said in words by the one describer, like any other warning
    expect(openai.warnings.map(describeWarning).join('\n')).toMatch(/call_9/)
  })
})

describe('xml layout', () => {
  it('merges consecutive turns of one role, and keeps images of the query', async () => {
    const packets = [
      { id: 'c1', type: 'history' as const, source: 'chunks', metadata: { chunkId: 'c1' }, content: '<user_message id="c1" role="user">\nhi\n</user_message>', message: message('user', '<user_message id="c1" role="user">\nhi\n</user_message>') },
      { id: 'c2', type: 'history' as const, source: 'chunks', metadata: { chunkId: 'c2' }, content: '<user_message id="c2" role="user">\nagain\n</user_message>', message: message('user', '<user_message id="c2" role="user">\nagain\n</user_message>') },
      { id: 'c3', type: 'history' as const, source: 'chunks', metadata: { chunkId: 'c3' }, content: '<assistant_response id="c3" role="assistant">\nhello\n</assistant_response>', message: message('assistant', '<assistant_response id="c3" role="assistant">\nhello\n</assistant_response>') },
    ]
    const r = await run(build({ query: '', packets }, { tokenizer: gpt4o, now: NOW, structurer: xml(), renderer: openaiRenderer() }))
    expect(r.output).toEqual([
      { role: 'user', content: '<user_message id="c1" role="user">\nhi\n</user_message>\n<user_message id="c2" role="user">\nagain\n</user_message>' },
      { role: 'assistant', content: '<assistant_response id="c3" role="assistant">\nhello\n</assistant_response>' },
    ])
    expect(image('image/png', PNG)._tag).toBe('Image')
  })
})

describe('provenance', () => {
  const ids = (r: { readonly sources: ReadonlyArray<ReadonlyArray<string>> }) => r.sources.map((s) => [...s])

  it('says which packets each OpenAI message shows, without reading the messages', async () => {
    const r = await run(build(request, { tokenizer: gpt4o, now: NOW, structurer: sectioned(), renderer: openaiRenderer() }))
    const evidence = r.included.find((id) => id.startsWith('evidence:'))!
    expect(ids(r)).toEqual([['instructions', evidence], ['history:0'], ['history:1'], ['history:2'], ['history:3'], ['task']])
    expect(r.sources).toHaveLength(r.output.length)
  })

  it('puts the system prompt first for Anthropic, and a merged turn lists every packet in it', async () => {
    const r = await run(build(request, { tokenizer: gpt4o, now: NOW, structurer: sectioned(), renderer: anthropicRenderer() }))
    const evidence = r.included.find((id) => id.startsWith('evidence:'))!
    expect(ids(r)).toEqual([['instructions', evidence], ['history:0'], ['history:1'], ['history:2'], ['history:3'], ['task']])
    expect(r.sources).toHaveLength(r.output.messages.length + 1)
  })

  it('lists every packet of a text output in output order', async () => {
    const r = await run(build(request, { tokenizer: gpt4o, now: NOW }))
    expect(ids(r)).toEqual([[...r.included]])
  })

  it('follows a synthetic result to the call it answers', async () => {
    const r = await run(
      build({ query: 'go on', history: [message('assistant', [toolCall('c9', 'read', { path: 'a' })])] }, { tokenizer: gpt4o, now: NOW, structurer: sectioned(), renderer: openaiRenderer() }),
    )
    // the system prompt is only the layout's fixed [Output] text: no packet
    expect(r.output.map((m) => m.role)).toEqual(['system', 'assistant', 'tool', 'user'])
    expect(ids(r)).toEqual([[], ['history:0'], ['history:0'], ['task']])
  })
})
