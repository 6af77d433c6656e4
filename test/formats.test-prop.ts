import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { anthropicRenderer, openaiRenderer } from '../src/formats.js'
import { message, toolCall, toolResult, type ChatMessage } from '../src/message.js'
import { build } from '../src/pipeline.js'
import { checkAnthropic } from '../src/render/checkAnthropic.js'
import { checkOpenAI } from '../src/render/checkOpenAI.js'
import { countAnthropic, countOpenAI } from '../src/render/count.js'
import { gpt4o, NOW, run } from './helpers.js'
import { seeded } from './prop.js'

const words = fc.array(fc.constantFrom('build', 'fails', 'script', '构建', '失败', 'ok', '🎉', '\n', 'x'), { maxLength: 25 }).map((w) => w.join(' '))

/** Random conversations: text turns, tool calls with results (some missing, some orphaned), empty and aborted turns. */
const turn: fc.Arbitrary<ReadonlyArray<ChatMessage>> = fc.oneof(
  fc.tuple(fc.constantFrom('user', 'assistant' as const), words).map(([role, t]) => [message(role as 'user' | 'assistant', t)]),
  fc.tuple(fc.nat(5), words, fc.boolean(), fc.boolean()).map(([n, t, answered, error]) => [
    message('assistant', [{ _tag: 'Text', text: t }, toolCall(`c${n}`, 'read', { n })]),
    ...(answered ? [message('tool', [toolResult(`c${n}`, 'read', t, error)])] : []),
  ]),
  fc.nat(5).map((n) => [message('tool', [toolResult(`orphan${n}`, 'read', 'late')])]),
  fc.constant([message('assistant', '')]),
  words.map((t) => [{ ...message('assistant', t), stopReason: 'aborted' }]),
)

const conversation = fc.array(turn, { maxLength: 12 }).map((ts) => ts.flat())

describe('chat formats under any budget', () => {
  it('output passes the provider rules, and the count is exact and within budget', async () => {
    await fc.assert(
      fc.asyncProperty(conversation, words, fc.integer({ min: 20, max: 600 }), fc.boolean(), async (history, query, maxTokens, openai) => {
        const config = { maxTokens, reserveRatio: 0, maxHistoryMessages: 40 }
        if (openai) {
          const r = await run(build({ query, instructions: 'Be brief.', history }, { tokenizer: gpt4o, now: NOW, config, renderer: openaiRenderer() }))
          expect(checkOpenAI(r.output)).toEqual([])
          expect(r.tokenCount).toBe(countOpenAI(r.output, gpt4o))
          expect(r.tokenCount).toBeLessThanOrEqual(maxTokens)
        } else {
          const r = await run(build({ query, instructions: 'Be brief.', history }, { tokenizer: gpt4o, now: NOW, config, renderer: anthropicRenderer() }))
          expect(checkAnthropic(r.output)).toEqual([])
          expect(r.tokenCount).toBe(countAnthropic(r.output, gpt4o))
          expect(r.tokenCount).toBeLessThanOrEqual(maxTokens)
        }
      }),
      seeded(250),
    )
  })
})
