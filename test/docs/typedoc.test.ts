/**
 * The API reference is generated from the doc comments by TypeDoc (`npm run docs`), one entry
 * point per subpath export, with warnings as errors (typedoc.config.mjs). Here it runs without
 * writing anything: a broken `{@link}`, or an exported declaration that refers to a type no
 * entry point exports, fails this test with TypeDoc's own message.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

// the package's own bin (its exports do not list it): beside its package.json
const typedoc = resolve(dirname(createRequire(import.meta.url).resolve('typedoc/package.json')), 'bin', 'typedoc')
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { readonly exports: Readonly<Record<string, unknown>>; readonly scripts: Readonly<Record<string, string>> }

describe('the API reference (TypeDoc)', () => {
  it('documents one entry point per subpath export, and npm run docs writes it', async () => {
    // a computed specifier: the config is plain JavaScript, read as TypeDoc reads it
    const config = (await import(pathToFileURL(resolve('typedoc.config.mjs')).href)) as { readonly default: { readonly entryPoints: ReadonlyArray<string> } }
    const entries = config.default.entryPoints
    expect(entries).toEqual(Object.keys(pkg.exports).flatMap((k) => (k === './package.json' ? [] : [k === '.' ? 'src/index.ts' : `src/${k.slice(2)}/index.ts`])))
    expect(entries.filter((e) => !existsSync(e))).toEqual([])
    expect(pkg.scripts['docs']).toBe('typedoc')
  })

  it('builds from the doc comments with no warning: every link resolves, every referenced type is exported', () => {
    const run = spawnSync(process.execPath, [typedoc, '--emit', 'none', '--logLevel', 'Warn'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } })
    expect(`${run.stdout}${run.stderr}`.trim()).toBe('')
    expect(run.status).toBe(0)
  }, 240_000)
})
