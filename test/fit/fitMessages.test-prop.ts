import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fitMessages } from '../../src/fit/fitMessages.js'
import { checkOpenAI } from '../../src/render/checkOpenAI.js'
import { countOpenAI } from '../../src/render/count.js'
import { gpt4o } from '../helpers.js'
import { seeded } from '../prop.js'

const words = fc.array(fc.constantFrom('deploy', 'error', 'the', 'service', '服务', 'failed', 'ok', '42', '\n', 'é'), { minLength: 1, maxLength: 40 }).map((w) => w.join(' '))

/** A valid OpenAI conversation: an optional system prompt, then rounds of user text, optional parallel calls with their results, an answer. */
const conversation = fc
  .tuple(
    fc.option(words, { nil: undefined }),
    fc.array(fc.tuple(words, fc.integer({ min: 0, max: 3 }), words, words), { minLength: 1, maxLength: 25 }),
  )
  .map(([system, rounds]) => {
    const out: ChatCompletionMessageParam[] = system === undefined ? [] : [{ role: 'system', content: system }]
    rounds.forEach(([ask, calls, result, answer], r) => {
      out.push({ role: 'user', content: ask })
      if (calls > 0) {
        const ids = Array.from({ length: calls }, (_, k) => `call_${r}_${k}`)
        out.push({ role: 'assistant', content: null, tool_calls: ids.map((id) => ({ id, type: 'function' as const, function: { name: 'run', arguments: '{"x":1}' } })) })
        for (const id of ids) out.push({ role: 'tool', tool_call_id: id, content: result })
      }
      out.push({ role: 'assistant', content: answer })
    })
    return out
  })

describe('fitMessages (property)', () => {
  it('stays within the budget with the exact count, keeps the system prompt and a contiguous newest window of unchanged messages, never splits a call from its results', async () => {
    await fc.assert(
      fc.asyncProperty(conversation, fc.integer({ min: 40, max: 1500 }), async (input, maxTokens) => {
        const systemCost = input[0]?.role === 'system' ? countOpenAI([input[0]], gpt4o) : 0
        const r = await fitMessages(input, { tokenizer: gpt4o, maxTokens, maxItemShare: 1 }).catch(() => undefined)
        if (r === undefined) return // a budget below the request overhead is refused, by design
        const out = r.messages
        expect(r.tokenCount).toBe(countOpenAI(out as never, gpt4o))
        expect(r.tokenCount).toBeLessThanOrEqual(maxTokens)
        // the input's own blemishes (whitespace texts) pass through untouched; pairing is ours to keep
        expect(checkOpenAI(out as never).filter((v) => v._tag === 'UnansweredToolCall' || v._tag === 'OrphanToolResult')).toEqual([])
        // every message is an input message, unchanged, the system one first if it fits
        const at = r.sources.map((i) => (typeof i === 'number' ? i : -1))
        expect(at.every((i) => i >= 0)).toBe(true)
        out.forEach((m, k) => expect(m).toEqual(input[at[k]!]))
        if (input[0]?.role === 'system' && systemCost + 3 <= maxTokens) expect(at[0]).toBe(0)
        const turns = at.filter((i) => input[i]!.role !== 'system' || i !== 0)
        // a contiguous window that ends at the newest message
        if (turns.length > 0) expect(turns).toEqual(Array.from({ length: turns.length }, (_, k) => input.length - turns.length + k))
        // everything else is reported, by index
        const reported = new Set(r.dropped.flatMap((d) => (typeof d.index === 'number' ? Array.from({ length: (d.through ?? d.index) - d.index + 1 }, (_, k) => d.index as number + k) : [])))
        for (let i = 0; i < input.length; i++) expect(at.includes(i) || reported.has(i)).toBe(true)
      }),
      seeded(60, 10_000),
    )
  })
})
