/** A generator of valid conversations in one SDK shape, for the adapters' properties. */
import fc from 'fast-check'
import { base64ToBytes } from '../../src/adapters/media.js'
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
