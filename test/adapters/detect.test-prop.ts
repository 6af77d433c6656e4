import * as lc from '@langchain/core/messages'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { fromAISDK } from '../../src/adapters/aiSdkIn.js'
import { fromAnthropicMessages } from '../../src/adapters/anthropicIn.js'
import { fromLangChain } from '../../src/adapters/langchainIn.js'
import { fromOpenAIChat } from '../../src/adapters/openaiChatIn.js'
import { fromOpenAIResponses } from '../../src/adapters/responsesIn.js'
import { toAISDK } from '../../src/adapters/aiSdkOut.js'
import { toAnthropicMessages } from '../../src/adapters/anthropicOut.js'
import type { Dec } from '../../src/adapters/decode.js'
import { fromAny } from '../../src/adapters/detect.js'
import { toLangChain } from '../../src/adapters/langchainOut.js'
import { toOpenAIChat } from '../../src/adapters/openaiChatOut.js'
import { toOpenAIResponses } from '../../src/adapters/responsesOut.js'
import type { Shape } from '../../src/adapters/shape.js'
import type { ChatMessage } from '../../src/message.js'
import { right } from '../helpers.js'
import { seeded } from '../prop.js'
import { aiSdkConversation } from './aiSdk.arb.js'
import { anthropicConversation } from './anthropic.arb.js'
import { langChainConversation } from './langchain.arb.js'
import { openAIChatConversation } from './openaiChat.arb.js'
import { responsesInput } from './responses.arb.js'

const WRITERS: Record<Shape, (messages: ReadonlyArray<ChatMessage>) => Dec<unknown>> = {
  'openai-chat': toOpenAIChat,
  'openai-responses': toOpenAIResponses,
  anthropic: toAnthropicMessages,
  'ai-sdk': toAISDK,
  langchain: (messages) => toLangChain(messages, lc),
}

const anyShape = fc.oneof(
  openAIChatConversation.map((c): readonly [unknown, Shape] => [c, 'openai-chat']),
  responsesInput.map((c): readonly [unknown, Shape] => [c, 'openai-responses']),
  anthropicConversation.map((c): readonly [unknown, Shape] => [c, 'anthropic']),
  aiSdkConversation.map((c): readonly [unknown, Shape] => [c, 'ai-sdk']),
  langChainConversation.map((c): readonly [unknown, Shape] => [c, 'langchain']),
)

describe('fromAny', () => {
  it('reads a conversation of any shape so that the writer of the shape it names gives it back unchanged', () => {
    fc.assert(
      fc.property(anyShape, ([conversation, shape]) => {
        const decoded = right(fromAny(conversation))
        const back = right(WRITERS[decoded.shape](decoded.messages))
        // a shape is told apart by what its messages hold; plain text turns read alike in several
        if (decoded.shape === shape) expect(back).toStrictEqual(conversation)
        else expect(JSON.parse(JSON.stringify(back))).toStrictEqual(JSON.parse(JSON.stringify(conversation)))
        const hasEvidence = JSON.stringify(conversation).match(/tool_calls|tool-call|tool_use|function_call|"lc":1|refusal|input_text|output_text|providerOptions/) !== null
        if (hasEvidence && shape !== 'langchain') expect(decoded.shape).toBe(shape)
        if (shape === 'langchain' && (conversation as ReadonlyArray<unknown>).length > 0) expect(decoded.shape).toBe('langchain')
      }),
      seeded(300),
    )
  })
})


/** Anything a caller might pass: junk, and message-like objects with wrong or half-right fields. */
const junk = fc.oneof(
  fc.anything(),
  fc.array(
    fc.record(
      {
        role: fc.constantFrom('user', 'assistant', 'system', 'developer', 'tool', 'bot', 7),
        type: fc.constantFrom('message', 'function_call', 'function_call_output', 'reasoning', 'human', 'ai', 'x'),
        content: fc.oneof(fc.string(), fc.constant(null), fc.array(fc.oneof(fc.anything(), fc.record({ type: fc.constantFrom('text', 'image', 'image_url', 'tool_use', 'tool_result', 'tool-call', 'tool-result', 'file', 'input_image', 'thinking'), text: fc.anything(), source: fc.anything(), image: fc.anything(), data: fc.anything(), output: fc.anything(), input: fc.anything() }, { requiredKeys: ['type'] })), { maxLength: 3 })),
        tool_calls: fc.anything(),
        tool_call_id: fc.anything(),
        call_id: fc.anything(),
        arguments: fc.anything(),
        summary: fc.anything(),
        data: fc.anything(),
        output: fc.anything(),
      },
      { requiredKeys: [] },
    ),
    { maxLength: 4 },
  ),
)

describe('the readers', () => {
  it('answer any input with Left or Right, never an exception', () => {
    fc.assert(
      fc.property(junk, (input) => {
        for (const read of [fromAny, fromOpenAIChat, fromOpenAIResponses, fromAnthropicMessages, fromAISDK, fromLangChain]) {
          const r = read(input)
          expect(E.isLeft(r) || E.isRight(r)).toBe(true)
          if (E.isLeft(r)) expect(r.left.message).toMatch(/^[\w.[\]]+: /)
        }
      }),
      seeded(500),
    )
  })
})
