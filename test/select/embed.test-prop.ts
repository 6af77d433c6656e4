import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { embed } from '../../examples/semantic.js'
import type { PacketInput, PacketType } from '../../src/packet.js'
import { build } from '../../src/pipeline.js'
import { gpt4o, NOW } from '../helpers.js'
import { seeded } from '../prop.js'

const WORDS = ['build', 'fails', 'compile', 'script', 'the', 'and', '构建', '失败', '🎉', 'x=1;', '{"a":2}', '\n', 'Paris', 'été', '42']
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 30 }).map((ws) => ws.join(' '))

describe('builds with embeddings', () => {
  it('one embeddings call; relevance in [0, 1]; the exact count of the output within the budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.array(fc.record({ type: fc.constantFrom<PacketType>('evidence', 'task_state', 'custom'), content: text }), { maxLength: 20 }),
        fc.array(fc.record({ role: fc.constantFrom('user' as const, 'assistant' as const), content: text }), { maxLength: 10 }),
        fc.integer({ min: 20, max: 600 }),
        fc.boolean(),
        async (query, ps, history, maxTokens, enableMMR) => {
          let calls = 0
          const packets: PacketInput[] = ps.map((p, i) => ({ ...p, id: `p${i}` }))
          const r = await build(
            { query, history, packets },
            { tokenizer: gpt4o, now: NOW, config: { maxTokens, reserveRatio: 0, enableMMR }, embed: async (texts) => (calls++, embed(texts)) },
          )()
          expect(calls).toBe(1)
          if (E.isLeft(r)) throw new Error(r.left.message)
          expect(r.right.tokenCount).toBe(gpt4o.count(r.right.output))
          expect(r.right.tokenCount).toBeLessThanOrEqual(r.right.budget.available)
          for (const p of r.right.packets.filter((x) => x.id.startsWith('p'))) {
            expect(p.scores?.relevance).toBeGreaterThanOrEqual(0)
            expect(p.scores?.relevance).toBeLessThanOrEqual(1 + 1e-12)
          }
        },
      ),
      seeded(100),
    )
  })
})
