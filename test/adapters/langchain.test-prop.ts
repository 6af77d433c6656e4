import * as lc from '@langchain/core/messages'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromLangChain } from '../../src/adapters/langchainIn.js'
import { toLangChain } from '../../src/adapters/langchainOut.js'
import { toolCallsOf, toolResultsOf } from '../../src/message.js'
import { right } from '../helpers.js'
import { seeded } from '../prop.js'
import { langChainConversation } from './langchain.arb.js'

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
