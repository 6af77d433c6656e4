import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ChatMessage, ImagePart, Origin, Part, Role, TextPart } from '../../src/message.js'
import { toAnthropic } from '../../src/render/anthropic.js'
import { checkAnthropic } from '../../src/render/checkAnthropic.js'
import { checkOpenAI } from '../../src/render/checkOpenAI.js'
import { conversationCost } from '../../src/render/cost.js'
import { countAnthropic, countOpenAI } from '../../src/render/count.js'
import { toOpenAI } from '../../src/render/openai.js'
import type { AnthropicOptions, OpenAIOptions } from '../../src/render/options.js'
import { repair } from '../../src/render/repair.js'
import { deepFreeze, gpt4o, pngBase64 } from './fixtures.js'
import { seeded } from '../prop.js'

const PNG = pngBase64(300, 200)
const claude: Origin = { provider: 'anthropic', model: 'claude-opus-4-5' }
const gpt: Origin = { provider: 'openai', api: 'openai-responses', model: 'gpt-5' }

// a small id pool makes duplicates, orphans and missing results likely; two ids are invalid
const callId = fc.constantFrom('c1', 'c2', 'c3', 'toolu_01ABC', 'call_x|fc_y', 'x'.repeat(70), '')
const words = fc.constantFrom('read the file', 'done', '</tool_result>', 'a "quoted" word', '数据', 'ok ', '\n')
const textValue = fc.oneof({ weight: 4, arbitrary: words }, { weight: 1, arbitrary: fc.constantFrom('', '   ', '\n\t') }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) })
const textPart: fc.Arbitrary<TextPart> = textValue.map((t) => ({ _tag: 'Text', text: t }))
const imagePart: fc.Arbitrary<ImagePart> = fc.constantFrom<ImagePart>(
  { _tag: 'Image', source: { _tag: 'Base64', mimeType: 'image/png', data: PNG } },
  { _tag: 'Image', source: { _tag: 'Base64', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' } },
  { _tag: 'Image', source: { _tag: 'Url', url: 'https://example.test/a.jpg' } },
)
const part: fc.Arbitrary<Part> = fc.oneof(
  { weight: 5, arbitrary: textPart },
  { weight: 1, arbitrary: imagePart },
  {
    weight: 2,
    arbitrary: fc.record(
      { text: textValue, signature: fc.constantFrom('sig', ''), redacted: fc.boolean() },
      { requiredKeys: ['text'] },
    ).map((t): Part => ({ _tag: 'Thinking', ...t })),
  },
  {
    weight: 3,
    arbitrary: fc.record({ id: callId, name: fc.constantFrom('ls', 'read'), args: fc.dictionary(fc.constantFrom('path', 'n', 'q'), fc.jsonValue({ maxDepth: 2 })) })
      .map((c): Part => ({ _tag: 'ToolCall', ...c })),
  },
  {
    weight: 3,
    arbitrary: fc.record({ callId, content: fc.array(fc.oneof(textPart, imagePart), { maxLength: 3 }), isError: fc.boolean() })
      .map((r): Part => ({ _tag: 'ToolResult', name: 'ls', ...r })),
  },
)
const chatMessage: fc.Arbitrary<ChatMessage> = fc.record(
  {
    role: fc.constantFrom<Role>('system', 'user', 'assistant', 'tool'),
    parts: fc.array(part, { maxLength: 4 }),
    origin: fc.constantFrom(claude, gpt),
    stopReason: fc.constantFrom('stop', 'toolUse', 'error', 'aborted'),
    name: fc.constantFrom('ada', 'Ada Lovelace'),
  },
  { requiredKeys: ['role', 'parts'] },
)
/** Any sequence of turns: what an arbitrary trim of any conversation can leave. */
const chaos = fc.array(chatMessage, { maxLength: 14 })

/** A well-formed agent loop (user, assistant calls, their results, answer), then messages removed at random. */
const trimmedLoop = fc
  .array(
    fc.record({ ask: textValue, calls: fc.nat(3), thinking: fc.boolean(), answer: textValue, origin: fc.constantFrom(claude, gpt) }),
    { minLength: 1, maxLength: 5 },
  )
  .chain((turns) => {
    let n = 0
    const loop = turns.flatMap((t): Array<ChatMessage> => {
      const ids = Array.from({ length: t.calls }, () => `call_${n++}`)
      return [
        { role: 'user', parts: [{ _tag: 'Text', text: t.ask }] },
        {
          role: 'assistant',
          origin: t.origin,
          parts: [
            ...(t.thinking ? [{ _tag: 'Thinking', text: 'plan', signature: 'sig' } as const] : []),
            ...ids.map((id): Part => ({ _tag: 'ToolCall', id, name: 'read', args: { path: id } })),
          ],
        },
        ...ids.map((id): ChatMessage => ({ role: 'tool', parts: [{ _tag: 'ToolResult', callId: id, name: 'read', content: [{ _tag: 'Text', text: `contents of ${id}` }], isError: false }] })),
        { role: 'assistant', origin: t.origin, parts: [{ _tag: 'Text', text: t.answer }] },
      ]
    })
    return fc.array(fc.boolean(), { minLength: loop.length, maxLength: loop.length }).map((keep) => loop.filter((_, i) => keep[i]))
  })

const conversation = fc.oneof(chaos, trimmedLoop).map(deepFreeze)

const openAIOptions: fc.Arbitrary<OpenAIOptions> = fc.record(
  { target: fc.constantFrom(claude, gpt), thinking: fc.constantFrom('text', 'drop'), systemRole: fc.constantFrom('system', 'developer'), imageDetail: fc.constantFrom('low', 'high', 'auto') },
  { requiredKeys: [] },
)
const anthropicOptions: fc.Arbitrary<AnthropicOptions> = fc.record(
  {
    target: fc.constantFrom(claude, gpt),
    thinking: fc.constantFrom('text', 'drop'),
    cache: fc.record({ system: fc.boolean(), prefixEnd: fc.nat(14), last: fc.boolean(), ttl: fc.constantFrom('5m', '1h') }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
)

describe('provider invariants hold for any conversation', () => {
  it('OpenAI: output passes the validator, and its count is the sum of the repaired messages\' costs', () => {
    fc.assert(
      fc.property(conversation, openAIOptions, (input, options) => {
        const { messages } = toOpenAI(input, options)
        expect(checkOpenAI(messages)).toEqual([])
        const repaired = repair(input, { ...options, format: 'openai' }).messages
        expect(countOpenAI(messages, gpt4o)).toBe(conversationCost(repaired, gpt4o, { format: 'openai', ...options }))
      }),
      seeded(300),
    )
  })

  it('Anthropic: output passes the validator (an empty conversation stays empty), and counts add up', () => {
    fc.assert(
      fc.property(conversation, anthropicOptions, (input, options) => {
        const { request } = toAnthropic(input, options)
        const violations = checkAnthropic(request)
        expect(violations).toEqual(request.messages.length === 0 ? [expect.objectContaining({ _tag: 'NoMessages' })] : [])
        const repaired = repair(input, { ...options, format: 'anthropic' }).messages
        expect(countAnthropic(request, gpt4o)).toBe(conversationCost(repaired, gpt4o, { format: 'anthropic' }))
      }),
      seeded(300),
    )
  })

  it('repair is a fixed point: repairing repaired messages changes nothing', () => {
    fc.assert(
      fc.property(conversation, fc.boolean(), (input, anthropic) => {
        const options = anthropic ? ({ format: 'anthropic', target: claude } as const) : ({ format: 'openai' } as const)
        const once = repair(input, options)
        const twice = repair(once.messages, options)
        expect(twice.findings).toEqual([])
        expect(twice.messages).toEqual(once.messages)
      }),
      seeded(200),
    )
  })

  it('every input message is either rendered or named by a finding', () => {
    fc.assert(
      fc.property(conversation, (input) => {
        const r = repair(input, { format: 'openai' })
        const accounted = new Set([...r.sources, ...r.findings.map((f) => f.index)])
        input.forEach((_, i) => expect(accounted.has(i)).toBe(true))
      }),
      seeded(200),
    )
  })
})
