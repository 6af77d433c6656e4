/**
 * `withPrevious` (`src/rebuild/index.ts`): which builds it appends to and which it builds
 * cold, and why. The cold build is a stand-in here, so only the decision is under test (the
 * results themselves are compared with cold builds in `append.test-prop.ts`).
 */
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { describe, expect, it } from 'vitest'
import { build, type BuildResult, type Request } from '../../src/index.js'
import { OWN_STAGES, withPrevious } from '../../src/rebuild/index.js'
import { meter } from '../../src/tokenize/meter.js'
import { gpt4o, MINUTE, NOW } from '../helpers.js'

const history = Array.from({ length: 20 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `turn ${i}: the compile script was renamed`, timestamp: NOW - (20 - i) * MINUTE }))
const request: Request = { query: 'Why?', history }
const next: Request = { ...request, history: [...history, { role: 'user', content: 'And now?', timestamp: NOW }] }
const config = { maxTokens: 500 }

const previous = async (): Promise<BuildResult> => {
  const r = await build(request, { tokenizer: gpt4o, now: NOW, config, rebuildable: true })()
  if (E.isLeft(r)) throw new Error(r.left.message)
  return r.right
}

describe('withPrevious', () => {
  it('builds cold, saying which stage, when the build is given any stage of its own', async () => {
    const prev = await previous()
    // the cold build stands in: what it returns is the previous result, marked with the outcome
    let colds = 0
    const cold = () => {
      colds++
      return TE.right([prev, meter(gpt4o)] as const)
    }
    for (const stage of OWN_STAGES) {
      const r = await withPrevious(next, { tokenizer: gpt4o, now: NOW, config, previous: prev, [stage]: 'given' }, cold)()
      expect(E.isRight(r) && r.right.stats.rebuild).toEqual({ mode: 'cold', fallback: `the build has its own ${stage}` })
    }
    expect(colds).toBe(OWN_STAGES.length)
  })

  it('appends when nothing but the history changed, without running the cold build', async () => {
    const prev = await previous()
    const r = await withPrevious(next, { tokenizer: gpt4o, now: NOW, config, previous: prev }, () => TE.left({ _tag: 'ConfigError', field: '', value: 0, message: 'not called' }))()
    expect(E.isRight(r) && r.right.stats.rebuild).toEqual({ mode: 'incremental', newTurns: 1 })
    // a stage given as undefined is not given
    const same = await withPrevious(next, { tokenizer: gpt4o, now: NOW, config, previous: prev, renderer: undefined }, () => TE.left({ _tag: 'ConfigError', field: '', value: 0, message: 'not called' }))()
    expect(E.isRight(same) && same.right.stats.rebuild).toEqual({ mode: 'incremental', newTurns: 1 })
  })

  it("checks the new turns against the memo's per-item cap, derived again for a memo made without it", async () => {
    // maxTokens 500: 425 available, the cap a quarter of it (106 tokens); the new turn is ~300
    const prev = await previous()
    expect(prev.rebuild?.cap).toBe(106)
    const long: Request = { ...request, history: [...history, { role: 'user', content: 'the compile script was renamed again '.repeat(40), timestamp: NOW }] }
    const cold = () => TE.right([prev, meter(gpt4o)] as const)
    const capped = { mode: 'cold', fallback: 'a turn is longer than the per-item cap' }
    const r = await withPrevious(long, { tokenizer: gpt4o, now: NOW, config, previous: prev }, cold)()
    expect(E.isRight(r) && r.right.stats.rebuild).toEqual(capped)
    const { cap: _, ...without } = prev.rebuild!
    const made: BuildResult = { ...prev, rebuild: without as NonNullable<BuildResult['rebuild']> }
    const older = await withPrevious(long, { tokenizer: gpt4o, now: NOW, config, previous: made }, cold)()
    expect(E.isRight(older) && older.right.stats.rebuild).toEqual(capped)
    // the field is what is read: a memo that says no cap appends the long turn
    const none: BuildResult = { ...prev, rebuild: { ...prev.rebuild!, cap: undefined } }
    const uncapped = await withPrevious(long, { tokenizer: gpt4o, now: NOW, config, previous: none }, cold)()
    expect(E.isRight(uncapped) && uncapped.right.stats.rebuild).toEqual({ mode: 'incremental', newTurns: 1 })
  })
})
