/** A generator of valid conversations in one SDK shape, for the adapters' properties. */
import fc from 'fast-check'
import { argsText, ids, PDF, PNG, text, toolName } from './arbitraries.js'

type Msg = Record<string, unknown>

const breakpoint = { prompt_cache_breakpoint: { mode: 'explicit' } }
const textPart = fc.record({ type: fc.constant('text'), text, bp: fc.constant(true) }, { requiredKeys: ['type', 'text'], noNullPrototype: true }).map(({ bp, ...p }) => (bp ? { ...p, ...breakpoint } : p))
const imagePart = fc.record(
  { url: fc.constantFrom(`data:image/png;base64,${PNG}`, 'https://example.test/cat.jpg', 'data:image/png;charset=x;base64,AAAA'), detail: fc.constantFrom('auto', 'low', 'high') },
  { requiredKeys: ['url'], noNullPrototype: true },
).map((image_url) => ({ type: 'image_url', image_url }))
const filePart = fc.oneof(
  fc.record({ file_data: fc.constant(`data:application/pdf;base64,${PDF}`), filename: fc.constantFrom('a.pdf', 'report 2026.pdf') }, { requiredKeys: ['file_data'], noNullPrototype: true }),
  fc.record({ file_id: fc.constantFrom('file-abc123') }, { noNullPrototype: true }),
).map((file) => ({ type: 'file', file }))

const name = fc.constantFrom('ada', 'bob_2')
const system = fc.record(
  { role: fc.constantFrom('system', 'developer'), content: fc.oneof(text, fc.array(textPart, { maxLength: 2 })), name },
  { requiredKeys: ['role', 'content'], noNullPrototype: true },
)
const user = fc.record({ role: fc.constant('user'), content: fc.oneof(text, fc.array(fc.oneof(textPart, imagePart, filePart), { maxLength: 3 })), name }, { requiredKeys: ['role', 'content'], noNullPrototype: true })

/** An assistant turn with `calls` parallel calls, then a tool message answering each. */
const exchange = fc
  .record({
    head: fc.record(
      {
        content: fc.oneof(text, fc.constant(null), fc.array(fc.oneof(textPart, fc.record({ type: fc.constant('refusal'), refusal: text }, { noNullPrototype: true })), { maxLength: 2 })),
        refusal: fc.oneof(text, fc.constant(null)),
        name,
        audio: fc.constantFrom(null, { id: 'audio_1' }),
      },
      { requiredKeys: [], noNullPrototype: true },
    ),
    calls: fc.array(fc.record({ name: toolName, arguments: argsText }, { noNullPrototype: true }), { maxLength: 3 }),
    emptyCalls: fc.boolean(),
    results: fc.array(fc.oneof(text, fc.array(textPart, { maxLength: 2 })), { minLength: 3, maxLength: 3 }),
  })
  .map(({ head, calls, emptyCalls, results }) => (start: number): ReadonlyArray<Msg> => {
    const callIds = ids('call_', start, calls.length)
    const tool_calls = calls.map((c, k) => ({ id: callIds[k]!, type: 'function', function: c }))
    return [
      { role: 'assistant', ...head, ...(calls.length > 0 || emptyCalls ? { tool_calls } : {}) },
      ...callIds.map((id, k) => ({ role: 'tool', tool_call_id: id, content: results[k]! })),
    ]
  })

/** A valid Chat Completions conversation: optional system, then user turns and exchanges. */
export const openAIChatConversation: fc.Arbitrary<ReadonlyArray<Msg>> = fc
  .tuple(fc.option(system, { nil: undefined }), fc.array(fc.oneof(user.map((u) => () => [u]), exchange), { maxLength: 8 }))
  .map(([sys, turns]) => [...(sys === undefined ? [] : [sys]), ...turns.flatMap((t, i) => t(i * 10))])
