import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'

/** The last file `npm run build` writes (scripts/bundle.mjs: library, rank files, then the CLI). */
const BUILT = 'dist/cli/bundle/gssc.js'

// The published CLI runs compiled code in plain Node, where module resolution is stricter
// than in the test runner; run it for real.
describe('bin/gssc.mjs', () => {
  beforeAll(() => {
    // build when dist/ is missing or older than any source file (a stale build would test old code)
    const newest = (dir: string): number =>
      Math.max(0, ...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs)))
    if (!existsSync(BUILT) || statSync(BUILT).mtimeMs < newest('src')) execFileSync('npm', ['run', 'build'], { stdio: 'ignore' })
  }, 120_000)

  it('prints help with exit code 0', () => {
    const out = execFileSync(process.execPath, ['bin/gssc.mjs', '--help'], { encoding: 'utf8' })
    expect(out).toContain('Usage: gssc')
    expect(out).toContain('build')
  })

  it('prints its version, and reads a file flag given as - from standard input', () => {
    expect(execFileSync(process.execPath, ['bin/gssc.mjs', '--version'], { encoding: 'utf8' }).trim()).toMatch(/^\d+\.\d+\.\d+/)
    const out = execFileSync(process.execPath, ['bin/gssc.mjs', 'build', '-q', 'compile', '--packets', '-', '--json'], { encoding: 'utf8', input: '\ufeff{"type":"evidence","content":"compile needs a script","source":"stdin-log"}\n' })
    expect(JSON.parse(out).output).toContain('[Source: stdin-log]')
  })

  it('builds a context from files', () => {
    const out = execFileSync(process.execPath, ['bin/gssc.mjs', 'build', '-q', 'Why does the compile step fail?', '--packets', 'test/fixtures/cli/packets.jsonl', '--json'], { encoding: 'utf8' })
    const j = JSON.parse(out)
    expect(j.output).toContain('[Source: ci-log]')
    expect(j.tokenCount).toBeLessThanOrEqual(j.budget.available)
  })
})
