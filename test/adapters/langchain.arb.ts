/** A generator of valid conversations in one SDK shape, for the adapters' properties. */
import * as lc from '@langchain/core/messages'
import fc from 'fast-check'
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
