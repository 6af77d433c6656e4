import { describe, expect, it } from 'vitest'
import { packet } from '../../src/packet.js'
import { defaultSelector, prepare } from '../../src/select/selector.js'
import { scoresById, scoresOf } from '../../src/select/scoresById.js'
import type { Scores } from '../../src/select/score.js'
import { NOW } from '../helpers.js'
import { gathered } from './fixtures.js'

const scores = (x: number): Scores => ({ relevance: x, recency: 1, composite: x })

describe('scoresById', () => {
  it('reads as the map of ids to scores, the last of an id winning', () => {
    const ps = [packet({ id: 'a', type: 'evidence', content: 'x' }, NOW), packet({ id: 'b', type: 'evidence', content: 'y' }, NOW), packet({ id: 'a', type: 'evidence', content: 'z' }, NOW)]
    const view = scoresById(ps, [scores(0.1), scores(0.2), scores(0.3)])
    expect(view.get('a')).toEqual(scores(0.3))
    expect(view.has('b')).toBe(true)
    expect(view.has('c')).toBe(false)
    expect(view.size).toBe(2)
    expect([...view.keys()]).toEqual(['a', 'b'])
    const seen: string[] = []
    view.forEach((v, k, m) => {
      expect(m).toBe(view)
      seen.push(`${k}=${v.relevance}`)
    })
    expect(seen).toEqual(['a=0.3', 'b=0.2'])
  })

  it("is what a default selection's scores read by id", async () => {
    const g = await gathered({ query: 'build fails', packets: [{ id: 'e1', type: 'evidence', content: 'the build fails' }, { id: 'e2', type: 'evidence', content: 'sunny' }] })
    const s = defaultSelector()(g)
    expect(s.scores.get('e1')?.relevance).toBe(1)
    expect(s.scores.get('e2')?.relevance).toBe(0)
    expect(s.scores.size).toBe(g.packets.length)
    // the same records the selector reads by place
    const prepared = prepare(g)
    g.packets.forEach((p, k) => expect(prepared.scores.get(p.id)).toBe(prepared.scoresAt![k]))
    // the always-kept packets' places, where the fill and the layout probe read their scores
    expect(prepared.always.length).toBeGreaterThan(0)
    prepared.always.forEach((p, k) => expect(g.packets[prepared.alwaysAt![k]!]).toBe(p))
    // scoresOf: by place when given, else by id, the same record either way
    g.packets.forEach((p, k) => {
      expect(scoresOf(prepared, p, k)).toBe(prepared.scoresAt![k])
      expect(scoresOf(prepared, p)).toBe(prepared.scoresAt![k])
    })
  })
})
