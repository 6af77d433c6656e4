import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { fromAnthropicMessages } from '../../src/adapters/anthropicIn.js'
import { toAnthropicMessages } from '../../src/adapters/anthropicOut.js'
import { toolCallsOf, toolResultsOf } from '../../src/message.js'
import { right } from '../helpers.js'
import { seeded } from '../prop.js'
import { anthropicConversation } from './anthropic.arb.js'

type Block = Record<string, unknown>

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
