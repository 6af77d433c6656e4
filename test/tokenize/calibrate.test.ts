import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { calibrate, calibratedRequest, calibratedTokenizer, type UsageSample } from '../../src/tokenize/calibrate.js'
import { loadEncoding } from '../../src/tokenize/ranks.js'
import { encodingTokenizer } from '../../src/tokenize/tokenizer.js'
import { left, right } from '../helpers.js'
import { seeded } from '../prop.js'
import { usageSamples } from '../../scripts/usage-fixture.js'

/**
 * Real Anthropic usage from the pi sessions, paired with gssc's cl100k counts (scripts/usage-fixture.ts):
 * a frozen dataset (the counts of 2026-11-24), whose statistics the tests below pin; the safety
 * property is also checked on today's counts.
 */
const fixture = JSON.parse(readFileSync(new URL('../fixtures/usage/pi-anthropic.json', import.meta.url), 'utf8')) as {
  readonly samples: ReadonlyArray<UsageSample & { readonly file: string; readonly line: number }>
}

beforeAll(async () => {
  await loadEncoding('cl100k_base')
})

describe('calibrate', () => {
  it('the uncorrected approximation under-counts Claude on almost every recorded request', () => {
    const under = fixture.samples.filter((s) => s.estimated < s.actual)
    expect(fixture.samples.length).toBeGreaterThan(800)
    expect(under.length / fixture.samples.length).toBeGreaterThan(0.99)
  })

  it('learnt on the first half of a session, it never under-counts the second half', () => {
    for (const file of ['pi/large-session.jsonl', 'pi/before-compaction.jsonl']) {
      const session = fixture.samples.filter((s) => s.file === file)
      const half = Math.floor(session.length / 2)
      const c = right(calibrate(session.slice(0, half)))
      expect(c.slope).toBeGreaterThan(1.1)
      expect(c.slope).toBeLessThan(1.5)
      expect(c.errorBound).toBeLessThan(0.15)
      for (const s of session.slice(half)) expect(calibratedRequest(c, s.estimated), `${file}:${s.line}`).toBeGreaterThanOrEqual(s.actual)
    }
  })

  it("on today's counts of the same requests (recomputed, not frozen), learnt on the first half it never under-counts the second half", async () => {
    const today = await usageSamples()
    // the same requests and the same reported usage as the frozen fixture; only gssc's counts may move
    expect(today.map((s) => [s.file, s.line, s.actual])).toEqual(fixture.samples.map((s) => [s.file, s.line, s.actual]))
    for (const file of ['pi/large-session.jsonl', 'pi/before-compaction.jsonl']) {
      const session = today.filter((s) => s.file === file)
      const half = Math.floor(session.length / 2)
      const c = right(calibrate(session.slice(0, half)))
      for (const s of session.slice(half)) expect(calibratedRequest(c, s.estimated), `${file}:${s.line}`).toBeGreaterThanOrEqual(s.actual)
    }
  }, 60_000)

  it('never under-counts a sample it learnt from, small ones included (the overhead covers them)', () => {
    const c = right(calibrate(fixture.samples))
    for (const s of fixture.samples) expect(calibratedRequest(c, s.estimated)).toBeGreaterThanOrEqual(s.actual)
    expect(c.meanOvercount).toBeLessThan(0.25)
  })

  it('names the sample at fault, and asks for two different estimates', () => {
    expect(left(calibrate([{ estimated: 10, actual: 12 }, { estimated: -1, actual: 3 }])).field).toBe('samples[1]')
    expect(left(calibrate([{ estimated: 10, actual: 12 }])).message).toMatch(/at least two samples/)
  })

  it('a calibrated tokenizer keeps count, lower bound and prefix end consistent', () => {
    const c = right(calibrate(fixture.samples))
    const t = calibratedTokenizer(c)(encodingTokenizer('cl100k_base', { exact: false }))
    expect(t.exact).toBe(false)
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.integer({ min: 0, max: 100 }), (text, n) => {
        expect(t.lowerBound(text)).toBeLessThanOrEqual(t.count(text))
        const end = t.prefixEnd(text, n)
        expect(t.count(text.slice(0, end))).toBeLessThanOrEqual(Math.max(n, 0) + 2)
      }),
      seeded(200),
    )
  })
})
