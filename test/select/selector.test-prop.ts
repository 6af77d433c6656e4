import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Packet, PacketInput, PacketType } from '../../src/packet.js'
import type { Gathered, SimpleMessage } from '../../src/phase.js'
import { compositeScore, recency, relevance } from '../../src/select/score.js'
import { prepare, type Prepared, type SelectOptions } from '../../src/select/selector.js'
import { MINUTE, NOW } from '../helpers.js'
import { seeded } from '../prop.js'
import { gathered } from './fixtures.js'

const WORDS = ['build', 'fails', 'compile', 'script', 'the', 'and', '构建', '失败', 'Paris', '42']
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }).map((ws) => ws.join(' '))

const packetArb: fc.Arbitrary<PacketInput> = fc.record(
  {
    type: fc.constantFrom<PacketType>('instructions', 'task_state', 'evidence', 'custom', 'history'),
    content: text,
    relevance: fc.double({ min: 0, max: 1, noNaN: true }),
    priority: fc.constantFrom(0, 1, 2, 3, 4),
    timestamp: fc.integer({ min: NOW - 600 * MINUTE, max: NOW }),
    metadata: fc.constant({ rank: 1 }),
  },
  { requiredKeys: ['type', 'content'] },
)
const turnArb: fc.Arbitrary<SimpleMessage> = fc.record({ role: fc.constantFrom('user', 'assistant'), content: text })

const requestArb = fc.record({
  query: fc.oneof(text, fc.constant('the and')),
  history: fc.array(turnArb, { maxLength: 8 }),
  packets: fc.array(packetArb, { maxLength: 30 }).map((ps) => ps.map((p, i) => ({ ...p, id: `p${i}` }))),
})

/**
 * User scorers the selector must take as they are: any number (negative, above 1, NaN) or
 * undefined, which the default scorer never gives.
 */
const scorerArb: fc.Arbitrary<SelectOptions['relevance']> = fc.option(
  fc.array(fc.oneof(fc.double({ min: -1, max: 2 }), fc.constant(undefined)), { minLength: 1, maxLength: 7 }).map(
    (values) => (p: Packet) => values[p.content.length % values.length],
  ),
  { nil: undefined },
)

/** The same packets, each made a group of its own: the selector's general path, which judges units. */
const soloGroups = (g: Gathered): Gathered => ({ ...g, packets: g.packets.map((p) => ({ ...p, group: `solo:${p.id}` })) })

/** A prepared selection as plain ids and numbers, whichever packet objects it holds. */
const plain = (p: Prepared) => ({
  scores: [...p.scores],
  always: p.always.map((x) => x.id),
  levels: p.levels.map((l) => ({
    others: l.others.map((u) => ({ ids: u.packets.map((x) => x.id), priority: u.priority, history: u.history, score: u.score, index: u.index })),
    history: l.history.map((u) => ({ ids: u.packets.map((x) => x.id), priority: u.priority, history: u.history, score: u.score, index: u.index })),
  })),
  gatedOut: p.gatedOut,
  warnings: p.warnings,
})

describe('prepare', () => {
  it('judges packets without a group (its fast path) exactly as one-member groups (its general path)', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, fc.double({ min: 0, max: 1, noNaN: true }), scorerArb, fc.boolean(), async (request, minRelevance, scorer, gateAll) => {
        const g = await gathered(request, { minRelevance })
        const options: SelectOptions = { ...(scorer === undefined ? {} : { relevance: scorer }), ...(gateAll ? { gate: () => true } : {}) }
        expect(plain(prepare(g, options))).toEqual(plain(prepare(soloGroups(g), options)))
      }),
      seeded(150),
    )
  })

  it('orders each level best score first, ties in input order, and its history newest first, as a sort by those keys does', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, scorerArb, async (request, scorer) => {
        const g = await gathered(request)
        const { levels } = prepare(g, scorer === undefined ? {} : { relevance: scorer })
        for (const level of levels) {
          // the units as they were placed (input order), sorted as the order is defined
          const others = [...level.others].sort((a, b) => a.index - b.index).sort((a, b) => b.score - a.score || a.index - b.index)
          expect(level.others.map((u) => u.index)).toEqual(others.map((u) => u.index))
          expect(level.history.map((u) => u.index)).toEqual([...level.history].sort((a, b) => b.index - a.index).map((u) => u.index))
        }
      }),
      seeded(300),
    )
  })

  it('gives each packet its own scores, though packets with equal scores share one record', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, scorerArb, async (request, scorer) => {
        const g = await gathered(request)
        const { config } = g.env
        const lexical = relevance(g.request.query)
        const rec = recency(NOW, config.recencyTau)
        const comp = compositeScore(config.relevanceWeight, config.recencyWeight)
        const { scores } = prepare(g, scorer === undefined ? {} : { relevance: scorer })
        for (const p of g.packets) {
          const r = scorer !== undefined ? scorer(p) : p.type === 'history' && p.relevance === undefined ? undefined : lexical(p)
          const s = scores.get(p.id)!
          expect([s.relevance, s.recency, s.composite]).toEqual([r, rec(p), comp(r, rec(p))])
        }
      }),
      seeded(150),
    )
  })
})
