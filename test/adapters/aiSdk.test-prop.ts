import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { fromAISDK } from '../../src/adapters/aiSdkIn.js'
import { toAISDK } from '../../src/adapters/aiSdkOut.js'
import { base64ToBytes } from '../../src/adapters/media.js'
import { toolCallsOf, toolResultsOf } from '../../src/message.js'
import { right } from '../helpers.js'
import { seeded } from '../prop.js'
import { args, ids, PDF, PNG, text, toolName } from './arbitraries.js'

type Msg = Record<string, unknown>
const rec = { noNullPrototype: true } as const

const providerOptions = fc.constantFrom({ anthropic: { cacheControl: { type: 'ephemeral' } } }, { openai: { imageDetail: 'low' } })
const textPart = fc.record({ type: fc.constant('text'), text, providerOptions }, { requiredKeys: ['type', 'text'], ...rec })
const imagePart = fc.record(
  {
    type: fc.constant('image'),
    image: fc.constantFrom<unknown>(PNG, `data:image/png;base64,${PNG}`, 'https://example.test/cat.png', base64ToBytes(PNG)!),
    mediaType: fc.constant('image/png'),
    providerOptions,
  },
  { requiredKeys: ['type', 'image'], ...rec },
)
const filePart = fc.record(
  { type: fc.constant('file'), data: fc.constantFrom<unknown>(PDF, 'https://example.test/a.pdf', base64ToBytes(PDF)!), mediaType: fc.constant('application/pdf'), filename: fc.constant('a.pdf') },
  { requiredKeys: ['type', 'data', 'mediaType'], ...rec },
)
const reasoning = fc.record({ type: fc.constant('reasoning'), text, providerOptions: fc.constant({ anthropic: { signature: 'EqQBCkgIAxAC' } }) }, { requiredKeys: ['type', 'text'], ...rec })
const output = fc.oneof(
  fc.record({ type: fc.constantFrom('text', 'error-text'), value: text }, rec),
  fc.record({ type: fc.constantFrom('json', 'error-json'), value: fc.jsonValue({ maxDepth: 2 }) }, rec),
  fc.record({ type: fc.constant('execution-denied'), reason: text }, { requiredKeys: ['type'], ...rec }),
  fc.record(
    {
      type: fc.constant('content'),
      value: fc.array(
        fc.oneof(
          fc.record({ type: fc.constant('text'), text }, rec),
          fc.constant({ type: 'image-data', data: PNG, mediaType: 'image/png' }),
          fc.constant({ type: 'media', data: PNG, mediaType: 'image/png' }),
          fc.constant({ type: 'image-url', url: 'https://example.test/plot.png' }),
        ),
        { maxLength: 3 },
      ),
    },
    rec,
  ),
)

const system = fc.record({ role: fc.constant('system'), content: text, providerOptions }, { requiredKeys: ['role', 'content'], ...rec })
const user = fc.record({ role: fc.constant('user'), content: fc.oneof(text, fc.array(fc.oneof(textPart, imagePart, filePart), { maxLength: 3 })) }, rec)

/** An assistant turn (reasoning, text, `n` tool calls), then one tool message with every result. */
const exchange = fc
  .record({
    head: fc.array(fc.oneof(reasoning, textPart), { maxLength: 2 }),
    calls: fc.array(fc.record({ toolName, input: args, providerExecuted: fc.constant(false) }, { requiredKeys: ['toolName', 'input'], ...rec }), { minLength: 1, maxLength: 3 }),
    outputs: fc.array(output, { minLength: 3, maxLength: 3 }),
  })
  .map((x) => (start: number): ReadonlyArray<Msg> => {
    const callIds = ids('call_', start, x.calls.length)
    return [
      { role: 'assistant', content: [...x.head, ...x.calls.map((c, k) => ({ type: 'tool-call', toolCallId: callIds[k], ...c }))] },
      { role: 'tool', content: x.calls.map((c, k) => ({ type: 'tool-result', toolCallId: callIds[k], toolName: c.toolName, output: x.outputs[k] })) },
    ]
  })
const reply = fc.oneof(text, fc.array(fc.oneof(textPart, reasoning), { maxLength: 2 })).map((content) => () => [{ role: 'assistant', content }])

/** A valid `ModelMessage[]` prompt. */
export const aiSdkConversation: fc.Arbitrary<ReadonlyArray<Msg>> = fc
  .tuple(fc.array(system, { maxLength: 2 }), fc.array(fc.oneof(user.map((u) => () => [u]), reply, exchange), { maxLength: 8 }))
  .map(([sys, turns]) => [...sys, ...turns.flatMap((t, i) => t(i * 10))])

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
