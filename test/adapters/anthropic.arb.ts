/** A generator of valid conversations in one SDK shape, for the adapters' properties. */
import fc from 'fast-check'
import { args, ids, PDF, PNG, text, toolName } from './arbitraries.js'

type Block = Record<string, unknown>
const rec = { noNullPrototype: true } as const

const cacheControl = fc.constantFrom({ type: 'ephemeral' }, { type: 'ephemeral', ttl: '1h' }, null)
const textBlock = fc.record({ type: fc.constant('text'), text, cache_control: cacheControl, citations: fc.constant(null) }, { requiredKeys: ['type', 'text'], ...rec })
const imageBlock = fc.record(
  {
    type: fc.constant('image'),
    source: fc.constantFrom({ type: 'base64', media_type: 'image/png', data: PNG }, { type: 'url', url: 'https://example.test/cat.jpg' }),
    cache_control: cacheControl,
  },
  { requiredKeys: ['type', 'source'], ...rec },
)
const documentBlock = fc.record(
  {
    type: fc.constant('document'),
    source: fc.constantFrom(
      { type: 'base64', media_type: 'application/pdf', data: PDF },
      { type: 'text', media_type: 'text/plain', data: 'plain notes' },
      { type: 'url', url: 'https://example.test/a.pdf' },
      { type: 'file', file_id: 'file_011' },
    ),
    title: fc.constantFrom('Report', null),
    context: fc.constant('from the wiki'),
    citations: fc.constant({ enabled: true }),
    cache_control: cacheControl,
  },
  { requiredKeys: ['type', 'source'], ...rec },
)
const thinking = fc.oneof(
  fc.record({ type: fc.constant('thinking'), thinking: text, signature: fc.constantFrom('EqQBCkgIAxAC', 'sig') }, rec),
  fc.record({ type: fc.constant('redacted_thinking'), data: fc.constantFrom('EmwKAhgBEgy3va3pzix') }, rec),
)
const resultContent = fc.oneof(text, fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 2 }))

/** An assistant turn making `n` calls (after optional thinking and text), then the user turn answering them. */
const exchange = fc
  .record({
    thinking: fc.array(thinking, { maxLength: 2 }),
    say: fc.array(textBlock, { maxLength: 1 }),
    calls: fc.array(fc.record({ name: toolName, input: args, caller: fc.constant({ type: 'direct' }), cache_control: cacheControl }, { requiredKeys: ['name', 'input'], ...rec }), { minLength: 1, maxLength: 3 }),
    results: fc.array(fc.record({ content: resultContent, is_error: fc.boolean(), cache_control: cacheControl }, { requiredKeys: [], ...rec }), { minLength: 3, maxLength: 3 }),
    after: fc.array(textBlock, { maxLength: 1 }),
  })
  .map((x) => (start: number): ReadonlyArray<Block> => {
    const callIds = ids('toolu_', start, x.calls.length)
    return [
      { role: 'assistant', content: [...x.thinking, ...x.say, ...x.calls.map((c, k) => ({ type: 'tool_use', id: callIds[k], ...c }))] },
      { role: 'user', content: [...callIds.map((id, k) => ({ type: 'tool_result', tool_use_id: id, ...x.results[k] })), ...x.after] },
    ]
  })
const user = fc.oneof(text, fc.array(fc.oneof(textBlock, imageBlock, documentBlock), { minLength: 1, maxLength: 3 })).map((content) => () => [{ role: 'user', content }])
const reply = fc.oneof(text, fc.array(fc.oneof(thinking, textBlock), { minLength: 1, maxLength: 3 })).map((content) => () => [{ role: 'assistant', content }])

/** A valid Messages conversation: an optional system prompt, then user turns, replies and tool exchanges. */
export const anthropicConversation = fc
  .record({ system: fc.oneof(text, fc.array(textBlock, { maxLength: 2 })), turns: fc.array(fc.oneof(user, reply, exchange), { maxLength: 8 }) }, { requiredKeys: ['turns'], ...rec })
  .map(({ system, turns }) => ({ ...(system === undefined ? {} : { system }), messages: turns.flatMap((t, i) => t(i * 10)) }))
