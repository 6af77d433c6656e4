/**
 * `countedBound`, and the walk that counts turns (`build` when the history has the budget to
 * itself): it bounds what a turn costs laid out, and it leaves every build as the walk that
 * bounds turns by the tokenizer's lower bound left it (a prose history makes fewer packets;
 * one of short runs of punctuation and digits, whose pieces the lower bound counts one by
 * one, may make more).
 */
import fc from 'fast-check'
import { pipe } from 'fp-ts/lib/function.js'
import { describe, expect, it } from 'vitest'
import { openaiRenderer } from '../../src/formats.js'
import { defaultGatherers } from '../../src/pipeline.js'
import { build, compress, gather, select, structure } from '../../src/pipeline.js'
import { truncate } from '../../src/compress/truncate.js'
import { countedBound } from '../../src/gather/walkBound.js'
import type { BuildResult } from '../../src/report.js'
import type { Renderer } from '../../src/output.js'
import { chat } from '../../src/structure/chat.js'
import { minimal } from '../../src/structure/minimal.js'
import { sectioned } from '../../src/structure/sectioned.js'
import type { Structurer } from '../../src/structure/structurer.js'
import { meter } from '../../src/tokenize/meter.js'
import { estimateTokenizer } from '../../src/tokenize/tokenizer.js'
import { gpt4o, NOW, run } from '../helpers.js'
import { joinStress, seeded } from '../prop.js'

const LABELS = ['user: ', 'assistant: ', '[Source: doc-1] ', '- ', 'Q:', '\n']
const AFTER = ['', '\n', '\n\n', ' ', '。']

describe('countedBound', () => {
  it('is at most what the text costs laid out whole after a label, less one', () => {
    fc.assert(
      fc.property(joinStress(60), fc.constantFrom(...LABELS), fc.constantFrom(...AFTER), (text, before, after) => {
        const m = meter(gpt4o)
        expect(countedBound(m, text) + 1).toBeLessThanOrEqual(gpt4o.count(before + text + after))
        // never above the text's own count, so a valid lower bound wherever the walk asks it
        expect(countedBound(m, text)).toBeLessThanOrEqual(gpt4o.count(text))
      }),
      seeded(2000, 20_000),
    )
  })

  it('takes its count through the meter, so the selector finds it; the lower bound where counts do not split at word ends', () => {
    const m = meter(gpt4o)
    const text = 'the build fails because the compile script is missing, so we rename it'
    const b = countedBound(m, text)
    expect(m.counted(text)).toBe(gpt4o.count(text))
    // the first word end is after "the", the last before " it": the ends' counts, found once as the text's edges
    expect(b).toBe(gpt4o.count(text) - gpt4o.count('the') - gpt4o.count(' it') + 1)
    expect(m.found(text)).toEqual({ first: 3, last: text.length - 3, head: gpt4o.count('the'), tail: gpt4o.count(' it') })
    const calls = m.stats().tokenizerCalls
    expect(m.text(text)).toBe(gpt4o.count(text))
    expect(m.stats().tokenizerCalls).toBe(calls)
    // no word end: the tokenizer's own lower bound
    expect(countedBound(meter(gpt4o), '12345 67890')).toBe(gpt4o.lowerBound('12345 67890'))
    const estimate = estimateTokenizer()
    expect(countedBound(meter(estimate), text)).toBe(estimate.lowerBound(text))
  })
})

const turn = fc.record({ role: fc.constantFrom('user' as const, 'assistant' as const), content: fc.oneof(joinStress(40), joinStress(400, 'large')) })

const LAYOUTS: ReadonlyArray<readonly [string, Structurer | undefined, Renderer<unknown> | undefined]> = [
  ['sectioned', undefined, undefined],
  ['minimal', minimal(), undefined],
  ['openai', undefined, openaiRenderer() as Renderer<unknown>],
]

/** Every turn: in the output's packets, or left out one by one or in a range. */
const accounted = (r: BuildResult<unknown>, n: number): boolean => {
  const seen = new Set<number>()
  for (const p of r.packets) if (p.id.startsWith('history:')) seen.add(Number(p.id.slice(8)))
  for (const x of r.excluded) {
    const m = /^history:(\d+)(?:\.\.(\d+))?$/.exec(x.id)
    if (m === null) continue
    const from = Number(m[1])
    // a range's ends are both in it (`history:0..49` is 50 turns)
    const last = m[2] === undefined ? from : Number(m[2])
    for (let i = from; i <= last; i++) seen.add(i)
  }
  return Array.from({ length: n }, (_, i) => seen.has(i)).every(Boolean)
}

describe('the walk that counts turns', () => {
  it('keeps what the walk that bounds them keeps, and accounts for every turn', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(turn, { maxLength: 120 }),
        fc.option(fc.constantFrom('You are terse.', 'You are the build assistant. Answer from the evidence.'), { nil: undefined }),
        fc.boolean(),
        fc.integer({ min: 60, max: 6000 }),
        fc.constantFrom(5, 40, Number.POSITIVE_INFINITY),
        fc.constantFrom(...LAYOUTS),
        async (turns, system, instructions, maxTokens, maxHistoryMessages, [, structurer, renderer]) => {
          const history = system === undefined ? turns : [{ role: 'system' as const, content: system }, ...turns]
          const request = { query: 'What now?', ...(instructions ? { instructions: 'Answer briefly.' } : {}), history }
          const config = { maxTokens, maxHistoryMessages }
          const layout = structurer ?? (renderer === undefined ? sectioned() : chat())
          const base = { tokenizer: gpt4o, now: NOW, config }
          const counted = await run(
            renderer === undefined ? build(request, { ...base, ...(structurer === undefined ? {} : { structurer }) }) : build(request, { ...base, renderer }),
          )
          const gathered = pipe(request, gather(defaultGatherers(), { ...base, layout }), select(), structure())
          const bounded = await run(renderer === undefined ? compress(truncate())(gathered) : compress(truncate(), renderer)(gathered))
          expect(counted.output).toEqual(bounded.output)
          expect(counted.tokenCount).toBe(bounded.tokenCount)
          expect(counted.included).toEqual(bounded.included)
          expect(counted.truncated).toEqual(bounded.truncated)
          expect(accounted(counted, history.length)).toBe(true)
        },
      ),
      seeded(200, 3000),
    )
  })
})
