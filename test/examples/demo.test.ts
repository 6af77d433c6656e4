import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../examples/demo.js'

describe('npm run demo', () => {
  it('tours every builder on the shipped data, each with its budget table', async () => {
    const out = await main()
    for (const n of [1, 2, 3, 4, 5, 6]) expect(out).toContain(`====== ${n}. `)
    // 1: Orama found the knowledge-base entry; 2: the tight build in Chinese labels
    expect(out).toContain('[Source: CI: missing compile script]')
    expect(out).toContain('用户问题：Why does the CI build fail')
    // 3: the smart strategy summarized the oldest turns instead of dropping the task's first statement
    expect(out).toMatch(/summarized +\d+/)
    expect(out).toContain('Summary of turns left out from this point on')
    // 4: no workspace part is dropped for relevance
    const workspace = out.slice(out.indexOf('====== 4.'), out.indexOf('====== 5.'))
    expect(workspace).not.toContain('below_min_relevance')
    expect(workspace).toContain('# nanobot 🐈')
    // 5: chunks as XML turns
    expect(out).toContain('<tool_call id="chunk_call_03"')
    // every table is within its budget
    for (const m of out.matchAll(/Budget by section · ([\d,]+) of ([\d,]+) tokens/g)) expect(Number(m[1]!.replace(/,/g, ''))).toBeLessThanOrEqual(Number(m[2]!.replace(/,/g, '')))
    expect(existsSync(join(tmpdir(), 'gssc-demo-report.html'))).toBe(true)
  })
})
