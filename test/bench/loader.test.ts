/**
 * `scripts/bench-hooks.mjs`, the loader `npm run bench` runs under: each TypeScript module
 * compiled on its own as the package's build compiles gssc, names not kept (tsx keeps them,
 * and every closure a build makes then pays for its name), and the `.ts` file behind a
 * relative `./x.js` import found.
 */
import { spawnSync } from 'node:child_process'
import { dirname, join, resolve as resolvePath } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ES module script, without declarations
import { load, resolve } from '../../scripts/bench-hooks.mjs'

const ROOT = resolvePath(dirname(fileURLToPath(import.meta.url)), '..', '..')
const url = (path: string): string => pathToFileURL(join(ROOT, path)).href
const never = () => {
  throw new Error('not this one')
}

describe('the bench loader', () => {
  it("compiles a TypeScript module without keeping names, and leaves other modules to Node's loader", async () => {
    const r = (await load(url('src/select/fill.ts'), {}, never)) as { format: string; source: string }
    expect(r.format).toBe('module')
    // fill.ts makes named closures per call: under keepNames each is wrapped in __name(…)
    expect(r.source).toContain('const costOf = ')
    expect(r.source).not.toContain('__name')
    expect(r.source).not.toMatch(/\binterface\b|: Unit\b/)
    const next = (u: string) => ({ format: 'commonjs', source: u })
    expect(await load('file:///x/y.js', {}, next)).toEqual({ format: 'commonjs', source: 'file:///x/y.js' })
  })

  it('resolves a relative .js import of a TypeScript module to the .ts file beside it, and nothing else', async () => {
    const parentURL = url('bench/run.ts')
    expect(await resolve('./core.js', { parentURL }, never)).toMatchObject({ url: url('bench/core.ts') })
    expect(await resolve('../src/index.js', { parentURL }, never)).toMatchObject({ url: url('src/index.ts') })
    const next = (s: string) => ({ url: `next:${s}` })
    expect(await resolve('fp-ts/lib/Either.js', { parentURL }, next)).toEqual({ url: 'next:fp-ts/lib/Either.js' })
    expect(await resolve('./core.js', { parentURL: url('scripts/bundle.mjs') }, next)).toEqual({ url: 'next:./core.js' })
  })

  it('runs the benchmark modules: a build and its count, in a child process', () => {
    const code = `const { gsscBuild } = await import('./bench/core.ts'); const { gpt4o } = await import('./test/helpers.ts'); const r = await gsscBuild(gpt4o, 30, 5, { minRuns: 1, minMs: 0, maxRuns: 1 }); console.log(r.countChecked, r.kept > 0)`
    const r = spawnSync(process.execPath, ['--import', './scripts/bench-loader.mjs', '--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' })
    expect(r.stderr).toBe('')
    expect(r.stdout.trim()).toBe('true true')
  })
})
