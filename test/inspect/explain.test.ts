import { beforeAll, describe, expect, it } from 'vitest'
import { explain, UNPLACED, type ExplainTable } from '../../src/inspect/explain.js'
import { toJson, type BuildResult } from '../../src/report.js'
import { roomy, SCRIPT_ID, tight } from './fixtures.js'

let big: BuildResult<string>
let small: BuildResult<string>
let bigT: ExplainTable
let smallT: ExplainTable
beforeAll(async () => {
  ;[big, small] = await Promise.all([roomy(), tight()])
  bigT = explain(big)
  smallT = explain(small)
})

describe('explain', () => {
  it('has one row per section in the output, with the report’s tokens and its share of the available budget', () => {
    const rendered = bigT.sections.filter((s) => s.rendered)
    expect(rendered.map((s) => [s.name, s.rank, s.tokens])).toEqual(big.sections.map((s) => [s.name, s.rank, s.tokens]))
    for (const s of rendered) expect(s.share).toBeCloseTo(s.tokens / big.budget.available, 10)
  })

  it('counts every packet once, in the section it is in or would have been in', () => {
    for (const [r, t] of [[big, bigT], [small, smallT]] as const) {
      const sum = (k: 'kept' | 'truncated' | 'dropped') => t.sections.reduce((n, s) => n + s[k], 0)
      expect(sum('kept')).toBe(r.packets.filter((p) => p.status === 'kept').length)
      expect(sum('truncated')).toBe(r.packets.filter((p) => p.status === 'truncated').length)
      expect(sum('dropped')).toBe(r.packets.filter((p) => p.status === 'dropped').length)
    }
    // kept packets count where the report puts them
    for (const s of bigT.sections) expect(s.kept).toBe(big.packets.filter((p) => p.status === 'kept' && p.section === s.name).length)
  })

  it('puts a dropped packet in the section where packets of its kind went', () => {
    const lunch = bigT.dropped.find((p) => p.id === 'lunch')
    expect(lunch).toMatchObject({ section: 'evidence', reason: 'below_min_relevance', detail: 'relevance 0 < 0.3', type: 'evidence', source: 'calendar' })
    expect(lunch?.scores?.relevance).toBe(0)
    expect(bigT.sections.find((s) => s.name === 'evidence')?.dropped).toBe(1)
  })

  it('keeps a section whose packets were all dropped, marked as not in the output', () => {
    const evidence = smallT.sections.find((s) => s.name === 'evidence')
    expect(evidence).toMatchObject({ rendered: false, tokens: 0, share: 0, kept: 0 })
    expect(evidence!.dropped).toBe(small.packets.filter((p) => p.type === 'evidence' && p.status === 'dropped').length)
    expect(smallT.sections.some((s) => s.name === UNPLACED)).toBe(false)
  })

  it('lists every dropped packet with its reason, detail and scores, and the exclusions that are not packets', () => {
    const packets = small.packets.filter((p) => p.status === 'dropped')
    expect(smallT.dropped.filter((r) => r.type !== undefined).map((r) => [r.id, r.reason, r.detail, r.scores])).toEqual(
      packets.map((p) => [p.id, p.reason, p.detail, p.scores]),
    )
    expect(smallT.dropped.find((r) => r.id === SCRIPT_ID)?.reason).toBe('over_budget')
    // the failed gatherer, the duplicate id and the range of uncounted turns are listed too
    expect(bigT.dropped.filter((r) => r.type === undefined).map((r) => [r.id, r.reason])).toEqual([
      ['gatherer:broken-search', 'gatherer_failure'],
      ['why', 'duplicate_id'],
    ])
    expect(smallT.dropped.find((r) => /^history:0(\.\.\d+)?$/.test(r.id))).toMatchObject({ reason: 'over_budget', type: undefined })
  })

  it('lists truncated packets with what is left of them', () => {
    expect(small.truncated.length).toBeGreaterThan(0)
    expect(smallT.truncated.map((r) => [r.id, r.keptTokens, r.tokens, r.section])).toEqual(
      small.truncated.map((t) => [t.id, t.keptTokens, t.originalTokens, 'instructions']),
    )
  })

  it('has totals equal to the JSON report', () => {
    for (const [r, t] of [[big, bigT], [small, smallT]] as const) {
      const j = toJson(r)
      expect(t.totals).toMatchObject({ maxTokens: j.budget.maxTokens, available: j.budget.available, reserved: j.budget.reserved, used: j.tokenCount, exact: j.tokenCountExact })
      expect(t.totals.free).toBe(j.budget.available - j.tokenCount)
      expect(t.totals.other).toBe(j.tokenCount - j.sections.reduce((n, s) => n + s.tokens, 0))
      expect(t.totals.kept + t.totals.truncated).toBe(j.included.length)
      expect(t.failures).toEqual(j.failures)
      expect(t.warnings).toEqual(j.warnings)
    }
  })

  it('leaves the result as it was', async () => {
    const r = await tight()
    const before = structuredClone(r)
    explain(r)
    expect(r).toEqual(before)
  })
})
