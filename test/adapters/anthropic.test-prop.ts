import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { fromAnthropicMessages } from '../../src/adapters/anthropicIn.js'
import { toAnthropicMessages } from '../../src/adapters/anthropicOut.js'
import { toolCallsOf, toolResultsOf } from '../../src/message.js'
import { right } from '../helpers.js'
import { seeded } from '../prop.js'
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

describe('Anthropic adapter', () => {
  it('reads any valid conversation one to one and writes it back unchanged', () => {
    fc.assert(
      fc.property(anthropicConversation, (conversation) => {
        const decoded = right(fromAnthropicMessages(conversation))
        expect(decoded.sources).toEqual([...('system' in conversation ? ['system'] : []), ...conversation.messages.map((_, i) => i)])
        expect(toAnthropicMessages(decoded.messages)).toStrictEqual(E.right(conversation))
      }),
      seeded(300),
    )
  })

  it('reads every tool_use and tool_result, with its error flag and the name of its call', () => {
    fc.assert(
      fc.property(anthropicConversation, (conversation) => {
        const { messages } = right(fromAnthropicMessages(conversation))
        const blocks = conversation.messages.flatMap((m) => (Array.isArray(m['content']) ? (m['content'] as ReadonlyArray<Block>) : []))
        const uses = blocks.filter((b) => b['type'] === 'tool_use')
        const results = blocks.filter((b) => b['type'] === 'tool_result')
        expect(messages.flatMap(toolCallsOf).map((c) => [c.id, c.name, c.args])).toEqual(uses.map((u) => [u['id'], u['name'], u['input']]))
        const read = messages.flatMap(toolResultsOf)
        expect(read.map((r) => [r.callId, r.isError, r.name])).toEqual(results.map((r) => [r['tool_use_id'], r['is_error'] === true, uses.find((u) => u['id'] === r['tool_use_id'])!['name']]))
      }),
      seeded(200),
    )
  })
})
