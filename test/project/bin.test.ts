import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'

// The published CLI runs compiled code in plain Node, where module resolution is stricter
// than in the test runner; run it for real.
describe('bin/gssc.mjs', () => {
  beforeAll(() => {
    if (!existsSync('dist/cli/main.js')) execFileSync('npm', ['run', 'build'], { stdio: 'ignore' })
  }, 120_000)

  it('prints help with exit code 0', () => {
    const out = execFileSync(process.execPath, ['bin/gssc.mjs', '--help'], { encoding: 'utf8' })
    expect(out).toContain('Usage: gssc')
    expect(out).toContain('build')
  })

  it('builds a context from files', () => {
    const out = execFileSync(process.execPath, ['bin/gssc.mjs', 'build', '-q', 'Why does the compile step fail?', '--packets', 'test/fixtures/cli/packets.jsonl', '--json'], { encoding: 'utf8' })
    const j = JSON.parse(out)
    expect(j.output).toContain('[Source: ci-log]')
    expect(j.tokenCount).toBeLessThanOrEqual(j.budget.available)
  })
})
