import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { fromOpenAIChat } from '../../src/adapters/openaiChatIn.js'
import { toOpenAIChat } from '../../src/adapters/openaiChatOut.js'
import { toolCallsOf, toolResultsOf } from '../../src/message.js'
import { right } from '../helpers.js'
import { seeded } from '../prop.js'
import { openAIChatConversation } from './openaiChat.arb.js'

describe('OpenAI Chat adapter', () => {
  it('reads any valid conversation one to one and writes it back unchanged', () => {
    fc.assert(
      fc.property(openAIChatConversation, (conversation) => {
        const decoded = fromOpenAIChat(conversation)
        if (E.isLeft(decoded)) throw new Error(decoded.left.message)
        expect(decoded.right.sources).toEqual(conversation.map((_, i) => i))
        expect(toOpenAIChat(decoded.right.messages)).toStrictEqual(E.right(conversation))
      }),
      seeded(300),
    )
  })

  it('reads every tool call with its arguments object, and names each result after its call', () => {
    fc.assert(
      fc.property(openAIChatConversation, (conversation) => {
        const { messages } = right(fromOpenAIChat(conversation))
        const calls = conversation.flatMap((m) => (Array.isArray(m['tool_calls']) ? (m['tool_calls'] as Array<{ id: string; function: { name: string; arguments: string } }>) : []))
        const read = messages.flatMap(toolCallsOf)
        expect(read.map((p) => [p.id, p.name, p.args])).toEqual(calls.map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments)]))
        const results = messages.flatMap(toolResultsOf)
        expect(results.map((r) => r.name)).toEqual(results.map((r) => calls.find((c) => c.id === r.callId)!.function.name))
        expect(results.length).toBe(calls.length)
      }),
      seeded(200),
    )
  })
})

