import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { fromOpenAIResponses } from '../../src/adapters/responsesIn.js'
import { toOpenAIResponses } from '../../src/adapters/responsesOut.js'
import { toolCallsOf, toolResultsOf } from '../../src/message.js'
import { right } from '../helpers.js'
import { seeded } from '../prop.js'
import { responsesInput } from './responses.arb.js'

describe('OpenAI Responses adapter', () => {
  it('reads any valid input one item to one message and writes it back unchanged', () => {
    fc.assert(
      fc.property(responsesInput, (input) => {
        const decoded = right(fromOpenAIResponses(input))
        expect(decoded.sources).toEqual(input.map((_, i) => i))
        expect(toOpenAIResponses(decoded.messages)).toStrictEqual(E.right(input))
      }),
      seeded(300),
    )
  })

  it('reads every function call and output, the output named after its call', () => {
    fc.assert(
      fc.property(responsesInput, (input) => {
        const { messages } = right(fromOpenAIResponses(input))
        const calls = input.filter((i) => i['type'] === 'function_call')
        expect(messages.flatMap(toolCallsOf).map((c) => [c.id, c.name, c.argsText])).toEqual(calls.map((c) => [c['call_id'], c['name'], c['arguments']]))
        expect(messages.flatMap(toolResultsOf).map((r) => r.name)).toEqual(input.filter((i) => i['type'] === 'function_call_output').map((o) => calls.find((c) => c['call_id'] === o['call_id'])!['name']))
      }),
      seeded(200),
    )
  })
})
