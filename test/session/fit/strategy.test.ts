import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { historyStrategy, STRATEGY_NAMES, strategyName } from '../../../src/session/fit/strategy.js'
import { tokenizer } from '../helpers.js'
import { conversation } from './histories.js'

describe('historyStrategy', () => {
  it('builds each strategy by name, each reporting its own name and staying within budget', async () => {
    const h = conversation()
    for (const name of STRATEGY_NAMES) {
      const r = await historyStrategy(name, { budget: 120, tokenizer, summaryTokens: 40 })(h)()
      expect(E.isRight(r) && r.right.report.strategy).toBe(name)
      expect(E.isRight(r) && r.right.report.tokensAfter).toBeLessThanOrEqual(120)
    }
  })
})

describe('strategyName', () => {
  it('accepts the three names and names the input otherwise', () => {
    expect(strategyName('smart', '--strategy')).toEqual(E.right('smart'))
    expect(strategyName('smrt', '--strategy')).toEqual(
      E.left({ _tag: 'InputError', input: '--strategy', message: '--strategy: unknown strategy "smrt"; use truncate, compress or smart' }),
    )
  })
})
