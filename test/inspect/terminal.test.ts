import { beforeAll, describe, expect, it } from 'vitest'
import { barFraction } from '../../src/inspect/bar.js'
import { explain, type ExplainTable } from '../../src/inspect/explain.js'
import { renderExplain } from '../../src/inspect/terminal.js'
import { stripAnsi, width } from '../../src/inspect/width.js'
import { build } from '../../src/pipeline.js'
import { gpt4o, NOW, run } from '../helpers.js'
import { roomy, tight } from './fixtures.js'

const ESC = '\u001b'
let tables: ReadonlyArray<ExplainTable>
beforeAll(async () => {
  tables = [explain(await roomy()), explain(await tight()), explain(await tight(400))]
})

const linesOf = (s: string): ReadonlyArray<string> => s.replace(/\n$/, '').split('\n')

describe('renderExplain', () => {
  it('fits 80 columns by default, long ids, details and CJK text included', () => {
    for (const t of tables) {
      const out = renderExplain(t)
      expect(out.length).toBeGreaterThan(0)
      for (const line of linesOf(out)) expect(width(line), line).toBeLessThanOrEqual(80)
    }
    // the long id is cut with an ellipsis, not wrapped, keeping its end (what tells ids of one source apart)
    expect(renderExplain(tables[1]!)).toContain('…erminal-column-at-all ')
  })

  it('fits any width it is given', () => {
    for (const cols of [40, 60, 100, 132])
      for (const t of tables) for (const line of linesOf(renderExplain(t, { width: cols }))) expect(width(line), line).toBeLessThanOrEqual(cols)
  })

  it('writes no escape codes without colour, and the same text with them when asked', () => {
    for (const t of tables) {
      const plain = renderExplain(t, { color: false })
      const coloured = renderExplain(t, { color: true })
      expect(plain).not.toContain(ESC)
      expect(coloured).toMatch(/\u001b\[\d+m/)
      expect(stripAnsi(coloured)).toBe(plain)
      for (const line of linesOf(coloured)) expect(width(line)).toBeLessThanOrEqual(80)
    }
  })

  it('draws each section’s bar in proportion to its share of the available budget', () => {
    for (const cols of [80, 120]) {
      const t = tables[2]!
      const cells = cols - 51
      const lines = linesOf(renderExplain(t, { width: cols }))
      for (const s of t.sections.filter((x) => x.rendered)) {
        const line = lines.find((l) => l.startsWith(`${s.name} `))!
        const drawn = line.slice(51)
        expect(barFraction(drawn, cells)).toBeCloseTo(Math.min(1, s.share), 1)
        expect(Math.abs(barFraction(drawn, cells) - Math.min(1, s.share))).toBeLessThanOrEqual(1 / (cells * 8) + 1e-9)
      }
    }
  })

  it('shows the reasons, scores and totals', () => {
    const t = tables[1]!
    const out = renderExplain(t, { width: 100 })
    expect(out).toContain('below_min_relevance')
    expect(out).toMatch(/lunch\s+below_min_relevance\s+-\s+0\.00\s+1\.00\s+0\.30\s+relevance 0 < 0\.3/)
    expect(out).toMatch(/instructions\s+instructions\s+125\/143\s+87%/)
    expect(out).toContain(`available ${String(t.totals.available).padStart(8)} of ${t.totals.maxTokens} max (${t.totals.reserved} reserved for the answer)`)
    expect(out).toMatch(new RegExp(`used\\s+${t.totals.used} \\(`))
    expect(out).toContain('P0 packet instructions does not fit')
  })

  it('shows at most `limit` rows per list and says how many more there are', () => {
    const t = tables[1]!
    const out = renderExplain(t, { limit: 3 })
    expect(out).toContain(`… ${t.dropped.length - 3} more`)
    const starts = (id: string) => out.split('\n').some((l) => l.startsWith(`  ${id} `))
    expect(t.dropped.slice(0, 3).every((r) => starts(r.id))).toBe(true)
    expect(t.dropped.slice(3).some((r) => starts(r.id))).toBe(false)
  })

  it('neutralises control characters in packet content', async () => {
    const r = await run(
      build(
        { query: 'why does the build fail', packets: [{ id: `a${ESC}[31mb\u0007\nc`, type: 'evidence', content: 'lunch', source: `s${ESC}[2J` }] },
        { tokenizer: gpt4o, now: NOW },
      ),
    )
    const out = renderExplain(explain(r))
    expect(out).not.toContain(ESC)
    expect(out).not.toContain('\u0007')
    expect(out).toContain('a␛[31mb␇ c')
  })
})
