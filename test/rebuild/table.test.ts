/**
 * The rebuild's per-turn table (`src/rebuild/table.ts`): the sums a fill stops by, the binary
 * search over them, and a build's view that takes counts and bounds once, reads role costs,
 * and tells which report entries say what they said before.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countedBound } from '../../src/gather/walkBound.js'
import { meter } from '../../src/tokenize/meter.js'
import {
  atLeastOf,
  buildTable,
  countOf,
  isCounted,
  markCounted,
  oldestHolding,
  roleCostOf,
  sameCounted,
  setCost,
  sumOver,
  sumsOf,
  takeBound,
  takeCount,
  type TurnTable,
} from '../../src/rebuild/table.js'
import { gpt4o } from '../helpers.js'
import { seeded } from '../prop.js'

const TEXTS = ['the build fails', 'rename the compile script', 'which node version?', '构建失败了。', 'const x = 1;']

/** A memo table of the turns `[from, from + k)`: counts known for some, the memo's fills' flags. */
const table = (from: number, counts: ReadonlyArray<number>, flags: ReadonlyArray<number>): TurnTable => {
  const bounds = counts.map((c) => (c === c ? Math.max(0, c - 1) : 1))
  const costs = counts.map(() => 4)
  const joins = counts.map(() => Number.NaN)
  return { from, bounds, lengths: counts.map(() => 10), counts, joins, costs, counted: flags, sums: sumsOf({ bounds, counts, joins }) }
}

const turns = (n: number) => Array.from({ length: n }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: TEXTS[i % TEXTS.length]! }))

describe('rebuild table: sums and the search over them', () => {
  it('sums from each turn to the newest, NaN where a number is not known', () => {
    const s = sumsOf({ bounds: [2, 3, 1], counts: [5, Number.NaN, 7], joins: [1, 1, 1] })
    expect(s.bounds).toEqual([9, 6, 2, 0])
    expect(s.counts.slice(1)).toEqual([Number.NaN, 7, 0])
    expect(s.joins).toEqual([3, 2, 1, 0])
    const t = buildTable(table(10, [5, 6, 7], [1, 1, 1]), 13, turns(13), meter(gpt4o), new Map())
    expect(sumOver(t, t.memo.sums.counts, 11, 13)).toBe(13)
  })

  it('finds the oldest index where a predicate that stays false once false (going back) holds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 60 }), (lo, span, cut) => {
        const hi = lo + span
        const holds = (i: number) => i >= cut || i === hi
        const expected = Math.max(lo, Math.min(hi, cut))
        expect(oldestHolding(lo, hi, holds)).toBe(expected)
      }),
      seeded(300),
    )
  })
})

describe("rebuild table: a build's view", () => {
  it('takes a count once, through the meter, and keeps it; the memo’s counts are read, not taken', () => {
    const m = meter(gpt4o)
    const h = turns(6)
    const t = buildTable(table(2, [Number.NaN, 9, 9], [0, 1, 1]), 5, h, m, new Map())
    expect(m.stats().tokenizerCalls).toBe(0)
    // the new turn's bound is counted as a cold build's walk counts it (its text through the meter), once
    expect(takeBound(t, 5)).toBe(countedBound(meter(gpt4o), h[5]!.content))
    const walked = m.stats().tokenizerCalls
    expect(takeBound(t, 5)).toBe(countedBound(meter(gpt4o), h[5]!.content))
    expect(m.stats().tokenizerCalls).toBe(walked)
    expect(m.counted(h[5]!.content)).toBe(gpt4o.count(h[5]!.content))
    expect(takeCount(t, 3)).toBe(9)
    expect(m.stats().tokenizerCalls).toBe(walked)
    expect(takeCount(t, 2)).toBe(gpt4o.count(h[2]!.content))
    // the new turn's count is the one its bound took
    expect(takeCount(t, 5)).toBe(gpt4o.count(h[5]!.content))
    // kept in the table: a fill reads it from there (and the report takes it as the fill's)
    expect(countOf(t, 2)).toBe(gpt4o.count(h[2]!.content))
    expect(countOf(t, 5)).toBe(gpt4o.count(h[5]!.content))
    expect(countOf(t, 4)).toBe(9)
    expect(m.stats().tokenizerCalls).toBe(walked + 1)
  })

  it('takes a lower bound once, cut short past the room first asked about', () => {
    const long = { role: 'user', content: 'word '.repeat(400) }
    const t = buildTable(table(0, [Number.NaN], [0]), 1, [long], meter(gpt4o), new Map())
    const first = atLeastOf(t, 0, 10)
    expect(first).toBeGreaterThan(10)
    expect(first).toBeLessThanOrEqual(gpt4o.count(long.content))
    expect(first).toBeLessThan(gpt4o.lowerBound(long.content))
    // asked again with more room: the same (cached) bound
    expect(atLeastOf(t, 0, 1000)).toBe(first)
  })

  it("reads a turn's cost from the table, else its role's, NaN for a role not shown", () => {
    const h = [...turns(3), { role: 'system', content: 'x' }]
    const t = buildTable({ ...table(0, [1, 1, 1], [1, 1, 1]), costs: [4, Number.NaN, 4] }, 3, h, meter(gpt4o), new Map([['assistant', 7]]))
    expect(roleCostOf(t, 0)).toBe(4)
    expect(roleCostOf(t, 1)).toBe(7)
    expect(roleCostOf(t, 3)).toBeNaN()
    setCost(t, 3, 5)
    expect(roleCostOf(t, 3)).toBe(5)
  })

  it('tells the first turn whose counted flag differs from the memo’s, as isCounted turn by turn would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(0, 1), { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat({ max: 60 }), { maxLength: 8 }),
        fc.nat({ max: 60 }),
        fc.nat(),
        fc.nat(),
        (flags, marked, low, a, b) => {
          const from = 20
          const k = flags.length
          const t = buildTable(table(from, flags.map(() => 3), flags), from + k, turns(from + k + 2), meter(gpt4o), new Map())
          // a fill marks from the newest back (the run from `low`), any others apart
          for (let i = from + k + 1; i >= from + Math.min(low, k); i--) markCounted(t, i)
          for (const i of marked) markCounted(t, from + (i % k))
          const x = from + (a % (k + 1))
          const y = x + (b % (from + k - x + 1))
          let expected = y
          for (let i = x; i < y; i++)
            if (isCounted(t, i) !== (flags[i - from] === 1)) {
              expected = i
              break
            }
          expect(sameCounted(t, x, y)).toBe(expected)
        },
      ),
      seeded(500),
    )
  })
})
