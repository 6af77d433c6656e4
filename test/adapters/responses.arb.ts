/** A generator of valid conversations in one SDK shape, for the adapters' properties. */
import fc from 'fast-check'
import { argsText, ids, PDF, PNG, text, toolName } from './arbitraries.js'

type Item = Record<string, unknown>
const rec = { noNullPrototype: true } as const

const inputText = fc.record({ type: fc.constant('input_text'), text }, rec)
const inputImage = fc.record(
  { type: fc.constant('input_image'), detail: fc.constantFrom('auto', 'low', 'high', 'original'), image_url: fc.constantFrom(`data:image/png;base64,${PNG}`, 'https://example.test/cat.png') },
  rec,
)
const inputFile = fc.oneof(
  fc.record({ type: fc.constant('input_file'), file_data: fc.constant(`data:application/pdf;base64,${PDF}`), filename: fc.constant('a.pdf') }, { requiredKeys: ['type', 'file_data'], ...rec }),
  fc.record({ type: fc.constant('input_file'), file_url: fc.constant('https://example.test/a.pdf') }, rec),
  fc.record({ type: fc.constant('input_file'), file_id: fc.constant('file-1') }, rec),
)
const outputText = fc.record({ type: fc.constant('output_text'), text, annotations: fc.constantFrom([], [{ type: 'url_citation', url: 'https://x.test', start_index: 0, end_index: 1, title: 't' }]) }, rec)
const refusal = fc.record({ type: fc.constant('refusal'), refusal: text }, rec)

const userish = fc.record(
  { role: fc.constantFrom('user', 'system', 'developer'), content: fc.oneof(text, fc.array(fc.oneof(inputText, inputImage, inputFile), { maxLength: 3 })), type: fc.constant('message') },
  { requiredKeys: ['role', 'content'], ...rec },
)
const easyAssistant = fc.record({ role: fc.constant('assistant'), content: text, phase: fc.constantFrom('commentary', 'final_answer') }, { requiredKeys: ['role', 'content'], ...rec })
const outputMessage = fc
  .record({ content: fc.array(fc.oneof(outputText, refusal), { maxLength: 2 }), status: fc.constantFrom('completed', 'incomplete') }, rec)
  .map((m) => (i: number): Item => ({ id: `msg_${i}`, role: 'assistant', type: 'message', ...m }))
const reasoning = fc
  .record(
    {
      summary: fc.array(fc.record({ type: fc.constant('summary_text'), text }, rec), { maxLength: 2 }),
      content: fc.array(fc.record({ type: fc.constant('reasoning_text'), text }, rec), { maxLength: 1 }),
      encrypted_content: fc.constantFrom('gAAAAABo-enc', null),
      status: fc.constant('completed'),
    },
    { requiredKeys: ['summary'], ...rec },
  )
  .map((r) => (i: number): Item => ({ type: 'reasoning', id: `rs_${i}`, ...r }))

/** A model turn: optional reasoning and message, then `n` function calls and their outputs. */
const exchange = fc
  .record({
    reasoning: fc.option(reasoning, { nil: undefined }),
    say: fc.option(fc.oneof(outputMessage, easyAssistant.map((m) => () => m)), { nil: undefined }),
    calls: fc.array(fc.record({ name: toolName, arguments: argsText, status: fc.constant('completed') }, { requiredKeys: ['name', 'arguments'], ...rec }), { maxLength: 3 }),
    outputs: fc.array(fc.oneof(text, fc.array(fc.oneof(inputText, inputImage), { maxLength: 2 })), { minLength: 3, maxLength: 3 }),
  })
  .map((x) => (start: number): ReadonlyArray<Item> => {
    const callIds = ids('call_', start, x.calls.length)
    return [
      ...(x.reasoning === undefined ? [] : [x.reasoning(start)]),
      ...(x.say === undefined ? [] : [x.say(start)]),
      ...x.calls.map((c, k) => ({ type: 'function_call', call_id: callIds[k], id: `fc_${start + k}`, ...c })),
      ...callIds.map((id, k) => ({ type: 'function_call_output', call_id: id, output: x.outputs[k] })),
    ]
  })

/** A valid Responses input: messages of every role, reasoning, function calls and outputs. */
export const responsesInput: fc.Arbitrary<ReadonlyArray<Item>> = fc
  .array(fc.oneof(userish.map((m) => () => [m]), exchange), { maxLength: 8 })
  .map((turns) => turns.flatMap((t, i) => t(i * 10)))
