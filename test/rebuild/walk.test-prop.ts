/**
 * The rebuild's history walk (`src/rebuild/walk.ts`) against the cold build's walk written out
 * plainly: from the newest turn back, each turn's counted bound and one more added to the
 * leading turns' until past the budget. The rebuild reads the memo's bounds and searches their
 * sums; a build that carries no memo takes the new turns' counts first. Both stop where the
 * plain walk stops, whatever hint they are given.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countedBound } from '../../src/gather/walkBound.js'
import { buildTable, sumsOf, type TurnTable } from '../../src/rebuild/table.js'
import { walkReach } from '../../src/rebuild/walk.js'
import { meter } from '../../src/tokenize/meter.js'
import { gpt4o } from '../helpers.js'
import { seeded } from '../prop.js'

const TEXTS = ['the build fails', 'rename the compile script, then rerun it', 'which node version?', '构建失败了，因为缺少编译脚本。', 'const x = await build(config);', 'ok', '{"tool":"read","ok":true}']

describe('walkReach', () => {
  it('stops where the plain walk stops, with the memo’s bounds or counting, whatever the hint', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: TEXTS.length - 1 }), { minLength: 2, maxLength: 40 }),
        fc.nat({ max: 39 }),
        fc.integer({ min: 1, max: 3 }),
        fc.nat({ max: 400 }),
        fc.nat({ max: 20 }),
        fc.nat({ max: 45 }),
        fc.nat({ max: 45 }),
        fc.boolean(),
        (picks, fromAt, added, budget, leadBound, start, hint, exact) => {
          const length = picks.length
          const n = length + added
          const turns = Array.from({ length: n }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: TEXTS[(picks[i] ?? i) % TEXTS.length]! }))
          const from = fromAt % length
          const m = meter(gpt4o)
          const bound = (i: number) => countedBound(meter(gpt4o), turns[i]!.content)
          // the memo's table of [from, length): its bounds as the previous walk counted them
          const bounds = turns.slice(from, length).map((_, k) => bound(from + k))
          const counts = bounds.map(() => Number.NaN)
          const joins = bounds.map(() => Number.NaN)
          const memo: TurnTable = { from, bounds, lengths: bounds.map((_, k) => turns[from + k]!.content.length), counts, joins, costs: counts, counted: bounds.map(() => 0), sums: sumsOf({ bounds, counts, joins }) }
          const windowStart = Math.min(start, n)
          // the plain walk
          let expected = windowStart
          let sum = leadBound
          for (let i = n - 1; i >= windowStart; i--) {
            sum += bound(i) + 1
            if (sum > budget) {
              expected = i + 1
              break
            }
          }
          const t = buildTable(memo, length, turns, m, new Map())
          expect({ reach: walkReach(t, leadBound, budget, windowStart, hint, exact) }).toEqual({ reach: expected })
        },
      ),
      seeded(400),
    )
  })
})
