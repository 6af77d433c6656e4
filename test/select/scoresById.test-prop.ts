import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { packet } from '../../src/packet.js'
import type { Scores } from '../../src/select/score.js'
import { scoresById } from '../../src/select/scoresById.js'
import { NOW } from '../helpers.js'
import { seeded } from '../prop.js'

const scores = (x: number): Scores => ({ relevance: x, recency: 1, composite: x })

describe('scoresById', () => {
  it('is the eager map, entry for entry, on any ids, a repeated id included', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'history:0'), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 12 }), (rows) => {
        const ps = rows.map(([id]) => packet({ id, type: 'evidence', content: id }, NOW))
        const ss = rows.map(([, x]) => scores(x))
        const eager = new Map(ps.map((p, k) => [p.id, ss[k]!]))
        const view = scoresById(ps, ss)
        expect([...view]).toEqual([...eager])
        expect([...view.values()]).toEqual([...eager.values()])
        expect([...view.entries()]).toEqual([...eager.entries()])
        expect(view.size).toBe(eager.size)
        for (const id of ['a', 'b', 'c', 'd', 'history:0', 'e']) expect(view.get(id)).toBe(eager.get(id))
      }),
      seeded(200),
    )
  })

})
