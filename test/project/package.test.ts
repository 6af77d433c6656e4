/**
 * The package as users get it: a fresh build packed by `npm pack`, linted by publint and
 * arethetypeswrong, installed from the tarball into a throwaway app that has no
 * `@types/node`, type-checked there under `nodenext` and `bundler` resolution, and run there.
 *
 * The build goes to a staging copy of the package, never to `./dist`, so a test reading
 * `./dist` at the same time (test/project/bin.test.ts) never sees a half-written build.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

interface Manifest {
  readonly name: string
  readonly version: string
  readonly files: ReadonlyArray<string>
  readonly exports: Readonly<Record<string, unknown>>
  readonly engines: { readonly node: string }
}
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest
const require = createRequire(import.meta.url)
const TSC = require.resolve('typescript/bin/tsc')
const ATTW = join(dirname(require.resolve('@arethetypeswrong/cli/package.json')), 'dist', 'index.js')
/** Every import specifier the package offers: `gssc`, `gssc/render`, …. */
const SPECIFIERS = Object.keys(pkg.exports)
  .filter((k) => !k.endsWith('.json'))
  .map((k) => pkg.name + k.slice(1))

/** Runs a command; fails the test with its output unless it exits 0. */
const sh = (cmd: string, args: ReadonlyArray<string>, options: SpawnSyncOptions = {}): string => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...options })
  const out = `${String(r.stdout)}${String(r.stderr)}`
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${out}`)
  return String(r.stdout)
}

let tmp = ''
let tarball = ''
let packed: ReadonlyArray<string> = []
let app = ''

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'gssc-package-'))
  const stage = join(tmp, 'stage')
  // as `npm run build`: tsc's declarations, then the library bundles, the rank files and the CLI bundle
  sh(process.execPath, [TSC, '-p', 'tsconfig.build.json', '--outDir', join(stage, 'dist')])
  sh(process.execPath, ['scripts/bundle.mjs', join(stage, 'dist')])
  for (const f of ['package.json', 'README.md', 'LICENSE', ...pkg.files.filter((f) => f !== 'dist')]) cpSync(f, join(stage, f), { recursive: true })
  const [info] = JSON.parse(sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: stage })) as ReadonlyArray<{ filename: string; files: ReadonlyArray<{ path: string }> }>
  tarball = join(tmp, info!.filename)
  packed = info!.files.map((f) => f.path)

  // the app: installs the tarball and its dependencies only; it lives outside the repository,
  // so no node_modules/@types/node of ours is on its lookup path
  app = join(tmp, 'app')
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
  sh('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: app })
}, 300_000)

afterAll(() => {
  if (tmp !== '') rmSync(tmp, { recursive: true, force: true })
})

describe('the packed package', () => {
  it('ships the build, the CLI, the templates, the README and the LICENSE, and no source maps', () => {
    const top = [...new Set(packed.map((p) => p.split('/')[0]))].sort()
    expect(top).toEqual(['LICENSE', 'README.md', ...pkg.files, 'package.json'].sort())
    // (scripts only: the packed rank tables hold code tokens such as "sourceMappingURL")
    expect(packed.filter((p) => p.endsWith('.map') || (/\.[cm]?js$/.test(p) && /sourceMappingURL/.test(readFileSync(join(tmp, 'stage', p), 'utf8'))))).toEqual([])
    expect(packed).toEqual(expect.arrayContaining(['dist/ranks/o200k_base.bin', 'dist/ranks/cl100k_base.bin']))
    for (const s of SPECIFIERS) expect(packed).toContain(`dist/${s === pkg.name ? '' : s.slice(pkg.name.length + 1) + '/'}index.d.ts`)
  })

  it('passes publint, suggestions included', async () => {
    const buf = readFileSync(tarball)
    const { messages, pkg: manifest } = await publint({ pack: { tarball: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) }, level: 'suggestion', strict: true })
    expect(messages.map((m) => formatMessage(m, manifest))).toEqual([])
  })

  // ESM only: `require()` of it is an error before Node 20.19 (and needs a dynamic import in
  // TypeScript's CommonJS modes), and `moduleResolution: node10` ignores `exports` (deprecated
  // in TypeScript 6, gone in 7). The esm-only profile checks what users can use: node16/nodenext
  // from ESM, and bundler.
  it('passes arethetypeswrong (esm-only profile) for every entry point', () => {
    const r = spawnSync(process.execPath, [ATTW, tarball, '--profile', 'esm-only', '--format', 'json'], { encoding: 'utf8' })
    const report = JSON.parse(r.stdout) as { analysis: { entrypoints: Record<string, unknown>; problems: ReadonlyArray<{ kind: string; entrypoint: string; resolutionKind?: string }> } }
    expect(Object.keys(report.analysis.entrypoints)).toEqual(Object.keys(pkg.exports))
    expect(report.analysis.problems.filter((p) => p.resolutionKind !== 'node10' && p.resolutionKind !== 'node16-cjs')).toEqual([])
    expect(r.status).toBe(0)
  }, 180_000)
})

describe('an app that installs the tarball', () => {
  const usage = [
    ...SPECIFIERS.map((s, i) => `import * as entry${i} from '${s}'`),
    `import { build, createTokenizer } from 'gssc'`,
    `export const entries = [${SPECIFIERS.map((_, i) => `entry${i}`).join(', ')}]`,
    `export const run = async (): Promise<number> => {`,
    `  const tokenizer = createTokenizer('gpt-4o')`,
    `  if (tokenizer._tag === 'Left') return -1`,
    `  const r = await build({ query: 'Why?', history: [{ role: 'user', content: 'hi' }] }, { tokenizer: tokenizer.right, config: { maxTokens: 1000 } })()`,
    `  // @ts-expect-error the types are real, not any: tokenCount is a number`,
    `  const wrong: string = r._tag === 'Right' ? r.right.tokenCount : ''`,
    `  return r._tag === 'Right' ? r.right.tokenCount + wrong.length : -1`,
    `}`,
  ].join('\n')

  it('has no @types/node', () => {
    expect(existsSync(join(app, 'node_modules', '@types', 'node'))).toBe(false)
  })

  it.each([
    ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
  ])('type-checks every entry without @types/node (%s)', (name, resolution) => {
    writeFileSync(join(app, 'main.ts'), usage)
    // strict, and library declarations checked too (no skipLibCheck): a Node type leaking into
    // gssc's declarations is an error here. DOM declares AbortSignal, the one web-platform type
    // gssc's signatures use.
    const compilerOptions = { ...resolution, target: 'es2022', lib: ['es2023', 'dom'], types: [], strict: true, skipLibCheck: false, noEmit: true }
    writeFileSync(join(app, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files: ['main.ts'] }))
    expect(sh(process.execPath, [TSC, '-p', `tsconfig.${name}.json`], { cwd: app })).toBe('')
  }, 180_000)

  it('imports every entry and counts tokens in plain Node, and runs the CLI', () => {
    const script = [
      ...SPECIFIERS.map((s) => `await import('${s}')`),
      `const { encodingTokenizer } = await import('gssc')`,
      // counting before any load reads the ranks through process.getBuiltinModule (Node ≥ 20.16)
      `console.log(encodingTokenizer('o200k_base').count('hello world'))`,
      // ready() opens the packed file shipped in dist/ranks (read page by page), not js-tiktoken's module
      `const { isLoaded } = await import('gssc/tokenize')`,
      `const cl100k = encodingTokenizer('cl100k_base')`,
      `await cl100k.ready()`,
      `console.log(cl100k.count('hello world'), isLoaded('cl100k_base'))`,
    ].join('\n')
    expect(sh(process.execPath, ['--input-type=module', '-e', script], { cwd: app }).trim().split('\n')).toEqual(['2', '2 false'])
    expect(sh(join(app, 'node_modules', '.bin', 'gssc'), ['--version'], { cwd: app }).trim()).toBe(pkg.version)
  }, 180_000)

  it("finds the rank files beside its own modules, where the package's name resolves to nothing", () => {
    // dist/ alone, far from any node_modules: only the files' places can find dist/ranks
    const loose = mkdtempSync(join(tmpdir(), 'gssc-loose-'))
    try {
      cpSync(join(app, 'node_modules', 'gssc', 'dist'), join(loose, 'dist'), { recursive: true })
      const script = [
        `const { createTokenizer, isLoaded } = await import('./dist/tokenize/index.js')`,
        `const t = createTokenizer('gpt-4o').right`,
        `await t.ready()`,
        `console.log(t.count('hello world'), isLoaded('o200k_base'))`,
      ].join('\n')
      expect(sh(process.execPath, ['--input-type=module', '-e', script], { cwd: loose }).trim()).toBe('2 false')
    } finally {
      rmSync(loose, { recursive: true, force: true })
    }
  }, 60_000)
})

describe('what users read', () => {
  const readme = readFileSync('README.md', 'utf8')

  it('the README starts with how to install gssc into an app, and states the Node versions of engines', () => {
    expect(readme.split('\n').slice(0, 6).join('\n')).toContain(`npm install ${pkg.name}`)
    expect(readme).toContain(pkg.engines.node)
  })

  it('examples, the README and docs import only entry points the package exports', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : /\.(ts|md)$/.test(n) ? [join(dir, n)] : []))
    const used = ['README.md', ...files('examples'), ...files('docs')].flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/(?:from|import\()\s*'(gssc(?:\/[^']*)?)'/g)].map((m) => `${f}: ${m[1]}`),
    )
    expect(used.length).toBeGreaterThan(10)
    expect(used.filter((u) => !SPECIFIERS.includes(u.slice(u.indexOf(': ') + 2)))).toEqual([])
  })
})
