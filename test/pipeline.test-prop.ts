import fc from 'fast-check'
import { pipe } from 'fp-ts/lib/function.js'
import { describe, expect, it } from 'vitest'
import { noop } from '../src/compress/noop.js'
import { truncate } from '../src/compress/truncate.js'
import { additional, history, instructions, task } from '../src/gather/builtins.js'
import { PACKET_TYPES, type PacketInput } from '../src/packet.js'
import type { Request, SimpleMessage } from '../src/phase.js'
import { compress, gather, select, structure } from '../src/pipeline.js'
import { layoutAware } from '../src/select/layoutAware.js'
import { minimal } from '../src/structure/minimal.js'
import { sectioned } from '../src/structure/sectioned.js'
import { template } from '../src/structure/template.js'
import type { Structurer } from '../src/structure/structurer.js'
import { gpt4o, MINUTE, NOW, right, run } from './helpers.js'
import { seeded } from './prop.js'

const WORDS = ['build', 'fails', 'compile', 'script', 'the', 'and', '构建', '失败', '脚本', '天气', '🎉', 'x=1;', '{"a":2}', '\n', 'Paris', 'été', '42']
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 60 }).map((ws) => ws.join(' '))

const packetArb: fc.Arbitrary<PacketInput> = fc.record(
  {
    type: fc.constantFrom(...PACKET_TYPES.filter((t) => t !== 'task' && t !== 'history')),
    content: text,
    source: fc.constantFrom('rag', 'memory', 'notes'),
    relevance: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    timestamp: fc.integer({ min: NOW - 10_000 * MINUTE, max: NOW }),
  },
  { requiredKeys: ['type', 'content'] },
)

const messageArb: fc.Arbitrary<SimpleMessage> = fc.record({ role: fc.constantFrom('user', 'assistant'), content: text })

const requestArb: fc.Arbitrary<Request> = fc.record({
  query: text,
  instructions: fc.option(text, { nil: undefined }),
  history: fc.array(messageArb, { maxLength: 30 }),
  packets: fc.array(packetArb, { maxLength: 20 }).map((ps) => ps.map((p, i) => ({ ...p, id: `p${i}` }))),
})

const structurers: ReadonlyArray<readonly [string, Structurer]> = [
  ['sectioned', sectioned()],
  ['minimal', minimal()],
  ['template', right(template('# Rules\n{{instructions}}\n# Task\n{{task}}\n# Facts\n{{evidence}}\n{{state}}\n# Chat\n{{context}}\n{{custom}}'))],
]

const deepFreeze = <A>(a: A): A => {
  if (typeof a === 'object' && a !== null) {
    Object.values(a).forEach(deepFreeze)
    Object.freeze(a)
  }
  return a
}

const buildWith = (request: Request, maxTokens: number, reserveRatio: number, s: Structurer, compressing: boolean) =>
  run(
    pipe(
      request,
      gather([instructions(), task(), history(), additional()], {
        tokenizer: gpt4o,
        now: NOW,
        config: { maxTokens, reserveRatio, maxHistoryMessages: 20, enableCompression: compressing },
      }),
      select(layoutAware(s)),
      structure(s),
      compress(compressing ? truncate() : noop()),
    ),
  )

describe('build invariants', () => {
  it('the reported count is the exact count of the output and never exceeds the budget; selection ⊆ input; inputs are not mutated', async () => {
    await fc.assert(
      fc.asyncProperty(
        requestArb,
        fc.integer({ min: 2, max: 1500 }),
        fc.double({ min: 0, max: 0.9, noNaN: true }),
        fc.constantFrom(...structurers),
        fc.boolean(),
        async (request, maxTokens, reserveRatio, [, s], compressing) => {
          fc.pre(Math.floor(maxTokens * (1 - reserveRatio)) >= 1) // makeConfig rejects the rest
          const before = JSON.stringify(request)
          deepFreeze(request)
          const r = await buildWith(request, maxTokens, reserveRatio, s, compressing)
          expect(r.tokenCount).toBe(gpt4o.count(r.output))
          expect(r.tokenCount).toBeLessThanOrEqual(r.budget.available)
          const inputIds = new Set(r.packets.map((p) => p.id))
          for (const id of r.included) expect(inputIds.has(id)).toBe(true)
          expect(new Set(r.included).size).toBe(r.included.length)
          expect(JSON.stringify(request)).toBe(before)
          if (!compressing) expect(r.truncated).toEqual([])
        },
      ),
      seeded(300),
    )
  })

  it('keeps P0 intact whenever it fits on its own', async () => {
    await fc.assert(
      fc.asyncProperty(
        requestArb.filter((r) => typeof r.instructions === 'string' && r.instructions.trim().length > 0),
        fc.integer({ min: 2, max: 800 }),
        async (request, maxTokens) => {
          const r = await buildWith(request, maxTokens, 0, sectioned(), true)
          const alone = gpt4o.count(`[Role & Policies]\n${request.instructions as string}`)
          if (alone <= r.budget.available) {
            expect(r.output.startsWith(`[Role & Policies]\n${request.instructions as string}`)).toBe(true)
            expect(r.packets.find((p) => p.id === 'instructions')?.status).toBe('kept')
          }
        },
      ),
      seeded(300),
    )
  })
})
