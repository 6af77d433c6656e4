import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { fromAISDK } from '../../src/adapters/aiSdkIn.js'
import { toAISDK } from '../../src/adapters/aiSdkOut.js'
import { toolCallsOf, toolResultsOf } from '../../src/message.js'
import { right } from '../helpers.js'
import { seeded } from '../prop.js'
import { aiSdkConversation } from './aiSdk.arb.js'

type Msg = Record<string, unknown>

describe('AI SDK adapter', () => {
  it('reads any valid prompt one to one and writes it back unchanged', () => {
    fc.assert(
      fc.property(aiSdkConversation, (messages) => {
        const decoded = right(fromAISDK(messages))
        expect(decoded.sources).toEqual(messages.map((_, i) => i))
        expect(toAISDK(decoded.messages)).toStrictEqual(E.right(messages))
      }),
      seeded(300),
    )
  })

  it('reads every tool call and result with its error flag', () => {
    fc.assert(
      fc.property(aiSdkConversation, (messages) => {
        const decoded = right(fromAISDK(messages)).messages
        const parts = messages.flatMap((m) => (Array.isArray(m['content']) ? (m['content'] as ReadonlyArray<Msg>) : []))
        expect(decoded.flatMap(toolCallsOf).map((c) => [c.id, c.name, c.args])).toEqual(parts.filter((p) => p['type'] === 'tool-call').map((p) => [p['toolCallId'], p['toolName'], p['input']]))
        const results = parts.filter((p) => p['type'] === 'tool-result')
        expect(decoded.flatMap(toolResultsOf).map((r) => [r.callId, r.isError])).toEqual(
          results.map((r) => [r['toolCallId'], ['error-text', 'error-json', 'execution-denied'].includes((r['output'] as Msg)['type'] as string)]),
        )
      }),
      seeded(200),
    )
  })
})
