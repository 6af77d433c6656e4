import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { buildLlmMessagesFromConversation } from '../../src/conversation/build.js'
import { composeSystemPrompt } from '../../src/conversation/systemPrompt.js'
import type { PromptTemplates } from '../../src/conversation/templates.js'
import type { ContextBuildOptions, ContextBuildResult } from '../../src/conversation/types.js'
import { toAnthropic } from '../../src/render/anthropic.js'
import { checkOpenAI } from '../../src/render/checkOpenAI.js'
import { stored } from './stored.js'

const T: PromptTemplates = { baseRulesChat: 'CHAT RULES', baseRulesRun: 'RUN RULES', toolPolicy: 'TOOL RULES', runDirectiveProtocol: 'PROTOCOL' }
const ok = (options: ContextBuildOptions): ContextBuildResult => {
  const r = buildLlmMessagesFromConversation(options)
  if (E.isLeft(r)) throw new Error(r.left.message)
  return r.right
}
const fail = (options: ContextBuildOptions): string => {
  const r = buildLlmMessagesFromConversation(options)
  if (E.isRight(r)) throw new Error('expected an error')
  return r.left.message
}


describe('buildLlmMessagesFromConversation', () => {
  it('puts the composed system prompt first, skips stored system messages, filters includeInContext: false', () => {
    const r = ok({ messages: stored, mode: 'chat', templates: T })
    const sdk: ChatCompletionMessageParam[] = r.messages
    expect(sdk).toEqual([
      { role: 'system', content: '# Mode: CHAT\n\n---\n\nCHAT RULES' },
      { role: 'user', content: 'List the files.' },
      { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"dir":"."}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'a.ts b.ts' },
      { role: 'assistant', content: 'There are two files.' },
      { role: 'user', content: 'Open a.ts', name: 'ada' },
    ])
    expect(r.findings).toEqual([])
    expect(r.metadata).toEqual({
      inputCount: 7,
      outputCount: 6,
      filteredCount: 1, // the stored system message is skipped, not counted
      trimmedCount: 0,
      systemPromptIncluded: true,
      systemPromptLength: '# Mode: CHAT\n\n---\n\nCHAT RULES'.length,
    })
  })

  it('composes the prompt from the mode, agent, tool policy and run context', () => {
    const options: ContextBuildOptions = {
      messages: [],
      mode: 'run',
      agent: { id: 'a', name: 'Ada', role: 'Writer' },
      toolPolicy: { deniedTools: ['rm'] },
      runContext: { packageName: 'p', workflowName: 'w', currentStep: { id: 's1', name: 'Draft', instruction: 'Write it.' } },
      templates: T,
    }
    const r = ok(options)
    expect(r.messages).toEqual([{ role: 'system', content: composeSystemPrompt(options) }])
    expect(r.metadata.systemPromptLength).toBe(composeSystemPrompt(options).length)
    expect(r.messages[0]!.content).toContain('## Run Directive')
  })

  it('leaves the prompt out with includeSystemPrompt: false', () => {
    const r = ok({ messages: stored, mode: 'chat', settings: { includeSystemPrompt: false }, templates: T })
    expect(r.messages[0]).toEqual({ role: 'user', content: 'List the files.' })
    expect(r.metadata).toMatchObject({ systemPromptIncluded: false, systemPromptLength: 0, outputCount: 5 })
  })

  it('keeps the provider rules when filtering cuts a call from its result, and reports the repair', () => {
    const hiddenResult = stored.map((m) => (m.role === 'tool' ? { ...m, includeInContext: false } : m))
    const r = ok({ messages: hiddenResult, mode: 'chat', templates: T })
    expect(checkOpenAI(r.messages)).toEqual([])
    expect(r.messages[3]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'No result provided' })
    expect(r.findings).toEqual([{ _tag: 'SyntheticResult', index: 2, callId: 'call_1' }])
    expect(r.metadata.filteredCount).toBe(2)
    const hiddenCall = stored.map((m) => (m.toolCalls !== undefined ? { ...m, includeInContext: false } : m))
    const r2 = ok({ messages: hiddenCall, mode: 'chat', templates: T })
    expect(r2.messages.some((m) => m.role === 'tool')).toBe(false)
    expect(r2.findings).toEqual([{ _tag: 'DroppedOrphanResult', index: 2, callId: 'call_1' }])
  })

  it('keeps the newest maxMessages, never starting with a tool result', () => {
    const r = ok({ messages: stored, mode: 'chat', settings: { maxMessages: 3 }, templates: T })
    // the newest 3 are tool, assistant, user; the tool result would lose its call, so it goes too
    expect(r.messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user'])
    expect(r.metadata.trimmedCount).toBe(3)
    expect(r.findings).toEqual([])
  })

  it('accepts tool-call arguments as an object, and renders them as a JSON string', () => {
    const r = ok({ messages: [{ role: 'assistant', content: 'Listing.', toolCalls: [{ id: 'c', name: 'ls', arguments: { dir: 'src' } }] }, { role: 'tool', content: 'x', toolCallId: 'c' }], mode: 'chat', templates: T })
    expect(r.messages[1]).toEqual({ role: 'assistant', content: 'Listing.', tool_calls: [{ id: 'c', type: 'function', function: { name: 'ls', arguments: '{"dir":"src"}' } }] })
  })

  it('returns the neutral messages too, so the same conversation can go to Anthropic', () => {
    const r = ok({ messages: stored, mode: 'chat', templates: T })
    const { request } = toAnthropic(r.chat)
    expect(request.system).toEqual([{ type: 'text', text: '# Mode: CHAT\n\n---\n\nCHAT RULES' }])
    expect(request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user'])
  })

  it('sends the prompt as a developer message on request', () => {
    const r = ok({ messages: [], mode: 'chat', templates: T, openai: { systemRole: 'developer' } })
    expect(r.messages[0]!.role).toBe('developer')
  })

  it.each<[string, ContextBuildOptions, string]>([
    ['a tool message without toolCallId', { messages: [{ role: 'tool', content: 'x' }], mode: 'chat' }, 'messages[0].toolCallId: a tool message needs the id of the call it answers'],
    ['arguments that are not JSON', { messages: [{ role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'f', arguments: '{oops' }] }], mode: 'chat' }, 'messages[0].toolCalls[0].arguments: is not valid JSON'],
    ['arguments that are not an object', { messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'f', arguments: '[1,2]' }] }], mode: 'chat' }, 'messages[1].toolCalls[0].arguments: must encode a JSON object (got "[1,2]")'],
    ['an unknown mode', { messages: [], mode: 'debate' as 'chat' }, 'mode: must be one of chat, agent, run (got "debate")'],
    ['a negative maxMessages', { messages: [], mode: 'chat', settings: { maxMessages: -1 } }, 'settings.maxMessages: must be a non-negative integer (got -1)'],
  ])('rejects %s, naming the field', (_, options, message) => {
    expect(fail(options)).toContain(message)
  })
})
