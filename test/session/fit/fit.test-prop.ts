import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ChatMessage } from '../../../src/message.js'
import { compressHistory } from '../../../src/session/fit/compress.js'
import type { FitStrategy, Summarizer } from '../../../src/session/fit/model.js'
import { smartHistory } from '../../../src/session/fit/smart.js'
import { truncateHistory } from '../../../src/session/fit/truncate.js'
import type { HistoryItem } from '../../../src/session/items.js'
import { tokenizer } from '../helpers.js'
import { assistant, calls, items, paired, result, system, user } from './histories.js'
import { seeded } from '../../prop.js'

const WORDS = ['build', 'error', 'fix', 'the', 'test', 'src/index.ts', 'failed', 'module', 'ok', 'deploy', '🎉', '世界', 'Monday']
const words = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 40 }).map((w) => w.join(' '))

let callCounter = 0
const unit: fc.Arbitrary<ReadonlyArray<ChatMessage>> = fc.oneof(
  { weight: 4, arbitrary: words.map((t) => [user(t)]) },
  { weight: 4, arbitrary: words.map((t) => [assistant(t)]) },
  { weight: 1, arbitrary: words.map((t) => [system(t)]) },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.array(words, { minLength: 1, maxLength: 3 }), fc.boolean()).map(([outs, isError]) => {
      const ids = outs.map(() => `c${callCounter++}`)
      return [calls(...ids), ...outs.map((o, i) => result(ids[i]!, o, isError && i === 0))]
    }),
  },
)
const history = fc.array(unit, { maxLength: 25 }).map((units) => items(units.flat()))

const summarizers: ReadonlyArray<Summarizer> = [
  async (m, t) => `${m.length} turns in ${t} tokens`,
  async () => 'a very long summary that keeps going '.repeat(80),
  async () => {
    throw new Error('down')
  },
]

const strategies = (budget: number, keep: number | undefined, s: Summarizer): ReadonlyArray<readonly [string, FitStrategy]> => [
  ['truncate', truncateHistory({ budget, ...(keep === undefined ? {} : { keepRecentCount: keep }) })],
  ['compress', compressHistory({ budget, tokenizer, summarizer: s, ...(keep === undefined ? {} : { keepRecentCount: keep }) })],
  ['compress(extractive)', compressHistory({ budget, tokenizer })],
  ['smart', smartHistory({ budget, tokenizer, summarizer: s })],
  ['smart(no fill)', smartHistory({ budget, tokenizer, summarizer: s, fillWithRecent: false, summaryTokens: Math.floor(budget / 3) })],
]

const total = (xs: ReadonlyArray<HistoryItem>): number => xs.reduce((n, i) => n + i.tokens, 0)

describe('fitting strategies (properties)', () => {
  it('stay within the budget, keep calls with results, keep order, and account for every turn', async () => {
    await fc.assert(
      fc.asyncProperty(
        history,
        fc.double({ min: 0, max: 1.2, noNaN: true }),
        fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
        fc.constantFrom(...summarizers),
        async (h, share, keep, s) => {
          const budget = Math.floor(total(h) * share)
          const frozen = JSON.stringify(h)
          for (const [name, fit] of strategies(budget, keep, s)) {
            const r = await fit(h)()
            if (E.isLeft(r)) throw new Error(`${name}: ${r.left.message}`)
            const { items: out, report } = r.right
            expect(report.tokensAfter, name).toBeLessThanOrEqual(budget)
            expect(report.tokensAfter, name).toBe(total(out))
            expect(paired(out), name).toBe(true)
            const positions = out.filter((i) => i.kind !== 'summary').map((i) => h.indexOf(i))
            expect(positions.every((p, k) => p >= 0 && (k === 0 || p > positions[k - 1]!)), name).toBe(true)
            const firstTurn = out.find((i) => i.message.role !== 'system')
            expect(firstTurn?.message.role, name).not.toBe('tool')
            const accounted = [...report.kept, ...report.summarized, ...report.dropped.map((d) => d.id)]
            expect([...accounted].sort(), name).toEqual(h.map((i) => i.id).sort())
            expect(report.kept, name).toEqual(out.filter((i) => i.kind !== 'summary').map((i) => i.id))
          }
          expect(JSON.stringify(h)).toBe(frozen)
        },
      ),
      seeded(60),
    )
  })

  it('keep everything when everything fits', async () => {
    await fc.assert(
      fc.asyncProperty(history, async (h) => {
        for (const [name, fit] of strategies(total(h), undefined, summarizers[0]!)) {
          const r = await fit(h)()
          expect(E.isRight(r) && r.right.items, name).toEqual(h)
        }
      }),
      seeded(30),
    )
  })
})
