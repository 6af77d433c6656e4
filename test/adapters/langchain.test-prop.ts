import * as lc from '@langchain/core/messages'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromLangChain } from '../../src/adapters/langchainIn.js'
import { toLangChain } from '../../src/adapters/langchainOut.js'
import { toolCallsOf, toolResultsOf } from '../../src/message.js'
import { right } from '../helpers.js'
import { seeded } from '../prop.js'
import { args, ids, PNG, text, toolName } from './arbitraries.js'

const rec = { noNullPrototype: true } as const

const textBlock = fc.record({ type: fc.constant('text'), text }, rec)
const imageBlock = fc.oneof(
  fc.constantFrom({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'low' } }, { type: 'image_url', image_url: 'https://example.test/cat.png' }),
  fc.constantFrom({ type: 'image', url: 'https://example.test/cat.png' }, { type: 'image', data: PNG, mimeType: 'image/png' }, { type: 'image', source_type: 'base64', data: PNG, mime_type: 'image/png' }),
)
const thinking = fc.oneof(
  fc.record({ type: fc.constant('thinking'), thinking: text, signature: fc.constant('EqQBCkgIAxAC') }, rec),
  fc.constant({ type: 'redacted_thinking', data: 'EmwKAhgB' }),
  fc.record({ type: fc.constant('reasoning'), reasoning: text }, rec),
)
const meta = fc.record({ id: fc.constantFrom('run-1', 'msg_2'), additional_kwargs: fc.constant({ refusal: null }), response_metadata: fc.constant({ model_name: 'gpt-4o' }) }, { requiredKeys: [], ...rec })
const name = fc.constantFrom('ada', 'bob')

const system = fc.record({ content: fc.oneof(text, fc.array(textBlock, { maxLength: 2 })), meta }).map(({ content, meta }) => () => [new lc.SystemMessage({ content, ...meta })])
const human = fc
  .record({ content: fc.oneof(text, fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 })), meta, name: fc.option(name, { nil: undefined }) })
  .map(({ content, meta, name }) => () => [new lc.HumanMessage({ content, ...meta, ...(name === undefined ? {} : { name }) })])

/** An AI message with `n` tool calls (some repeated as tool_use blocks, as Anthropic models write them), then a ToolMessage per call. */
const exchange = fc
  .record({
    head: fc.oneof(text, fc.array(fc.oneof(textBlock, thinking), { maxLength: 2 })),
    calls: fc.array(fc.record({ name: toolName, args, twin: fc.boolean() }, rec), { maxLength: 3 }),
    meta,
    results: fc.array(fc.record({ content: fc.oneof(text, fc.array(textBlock, { maxLength: 2 })), status: fc.constantFrom('success', 'error'), withName: fc.boolean(), artifact: fc.constant({ rows: 3 }) }, { requiredKeys: ['content', 'withName'], ...rec }), { minLength: 3, maxLength: 3 }),
  })
  .map((x) => (start: number) => {
    const callIds = ids('call_', start, x.calls.length)
    const tool_calls = x.calls.map((c, k) => ({ name: c.name, args: c.args, id: callIds[k]!, type: 'tool_call' as const }))
    const twins = x.calls.flatMap((c, k) => (c.twin && typeof x.head !== 'string' ? [{ type: 'tool_use', id: callIds[k]!, name: c.name, input: c.args }] : []))
    const content = typeof x.head === 'string' ? x.head : [...x.head, ...twins]
    return [
      new lc.AIMessage({ content, tool_calls, ...x.meta }),
      ...x.calls.map((c, k) => {
        const { withName, ...r } = x.results[k]!
        return new lc.ToolMessage({ ...r, tool_call_id: callIds[k]!, ...(withName ? { name: c.name } : {}) })
      }),
    ]
  })

/** A conversation of real LangChain messages. */
export const langChainConversation: fc.Arbitrary<ReadonlyArray<lc.BaseMessage>> = fc
  .array(fc.oneof<Array<fc.Arbitrary<(start: number) => ReadonlyArray<lc.BaseMessage>>>>(system, human, exchange), { maxLength: 8 })
  .map((turns) => turns.flatMap((t, i) => t(i * 10)))

describe('LangChain adapter', () => {
  it('reads any conversation of real messages one to one and builds equal instances back', () => {
    fc.assert(
      fc.property(langChainConversation, (messages) => {
        const decoded = right(fromLangChain(messages))
        expect(decoded.sources).toEqual(messages.map((_, i) => i))
        const back: ReadonlyArray<lc.BaseMessage> = right(toLangChain(decoded.messages, lc))
        expect(back).toStrictEqual(messages)
        expect(back.map((m) => m.constructor)).toEqual(messages.map((m) => m.constructor))
      }),
      seeded(200),
    )
  })

  it('reads the serialized forms (toDict, JSON) as the instances they came from', () => {
    fc.assert(
      fc.property(langChainConversation, (messages) => {
        const fromDict: ReadonlyArray<lc.BaseMessage> = right(toLangChain(right(fromLangChain(messages.map((m) => m.toDict()))).messages, lc))
        expect(fromDict.map((m) => m.toDict())).toStrictEqual(messages.map((m) => m.toDict()))
        const fromJson = right(toLangChain(right(fromLangChain(JSON.parse(JSON.stringify(messages)))).messages, lc))
        expect(JSON.parse(JSON.stringify(fromJson))).toStrictEqual(JSON.parse(JSON.stringify(messages)))
      }),
      seeded(100),
    )
  })

  it('reads every tool call once (a repeating tool_use block is not a second call) and each result with its status', () => {
    fc.assert(
      fc.property(langChainConversation, (messages) => {
        const decoded = right(fromLangChain(messages)).messages
        const calls = messages.flatMap((m) => (m instanceof lc.AIMessage ? m.tool_calls ?? [] : []))
        expect(decoded.flatMap(toolCallsOf).map((c) => [c.id, c.name, c.args])).toEqual(calls.map((c) => [c.id, c.name, c.args]))
        const tools = messages.filter((m): m is lc.ToolMessage => m instanceof lc.ToolMessage)
        expect(decoded.flatMap(toolResultsOf).map((r) => [r.callId, r.isError, r.name])).toEqual(tools.map((t) => [t.tool_call_id, t.status === 'error', calls.find((c) => c.id === t.tool_call_id)!.name]))
      }),
      seeded(100),
    )
  })
})
