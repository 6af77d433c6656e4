/**
 * Process start-up, measured in child processes against bare `node -e 0`, side by side:
 * `gssc --help`, a small `gssc build`, importing the package root, and process start → the
 * first exact o200k_base count through `gssc/tokenize`. Each round runs every command once,
 * in turn, so machine load hits them alike; medians over the rounds.
 *
 * The commands run the shipped files (`bin/gssc.mjs`, `dist/`); `ensureDist` rebuilds
 * `dist/` first when a source file is newer, so the figures are the current code's.
 *
 * @module
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { median } from './core.js'

/** Medians over the rounds, in milliseconds. */
export interface StartupRow {
  readonly rounds: number
  /** `node -e 0`, spawn to exit. */
  readonly bareNodeMs: number
  /** `gssc --help`, spawn to exit. */
  readonly helpMs: number
  /** `gssc build -q … --history <12 turns>`, spawn to exit. */
  readonly buildMs: number
  /** `await import('gssc')` inside a child (the import alone). */
  readonly importMs: number
  /** Process start → the first exact o200k_base count, through `gssc/tokenize`. */
  readonly firstCountMs: number
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const NODE = process.execPath

const newest = (dir: string): number => {
  let t = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return t
}

/** Builds `dist/` (library bundles, rank files, CLI bundle: as `npm run build`) when either is missing or older than `src/` or `scripts/bundle.mjs`. */
export const ensureDist = (): void => {
  // the bundler script shapes dist/ as much as the sources do
  const src = Math.max(newest(join(ROOT, 'src')), statSync(join(ROOT, 'scripts', 'bundle.mjs')).mtimeMs)
  const fresh = (file: string): boolean => existsSync(file) && statSync(file).mtimeMs >= src
  if (fresh(join(ROOT, 'dist', 'index.js')) && fresh(join(ROOT, 'dist', 'cli', 'bundle', 'gssc.js'))) return
  for (const args of [[join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], [join(ROOT, 'scripts', 'bundle.mjs')]]) {
    const r = spawnSync(NODE, args, { cwd: ROOT, encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`building dist/ failed: ${r.stdout}${r.stderr}`)
  }
}

const wall = (args: ReadonlyArray<string>, cwd: string): number => {
  const t0 = performance.now()
  const r = spawnSync(NODE, args, { cwd, encoding: 'utf8' })
  const ms = performance.now() - t0
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`)
  return ms
}

const printed = (args: ReadonlyArray<string>, cwd: string): number => {
  const r = spawnSync(NODE, args, { cwd, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`)
  return Number(r.stdout.trim().split('\n').pop())
}

/**
 * Runs `rounds` rounds of every start-up measure (after one warm-up round that fills the
 * file system cache).
 *
 * @category bench
 */
export const startup = (rounds: number): StartupRow => {
  ensureDist()
  const dir = mkdtempSync(join(tmpdir(), 'gssc-startup-'))
  try {
    const history = join(dir, 'history.jsonl')
    writeFileSync(
      history,
      Array.from({ length: 12 }, (_, i) => JSON.stringify({ role: i % 2 === 0 ? 'user' : 'assistant', content: `Turn ${i}: the build fails because the compile script is missing.` })).join('\n') + '\n',
    )
    const bin = join(ROOT, 'bin', 'gssc.mjs')
    const root = pathToFileURL(join(ROOT, 'dist', 'index.js')).href
    const tokenize = pathToFileURL(join(ROOT, 'dist', 'tokenize', 'index.js')).href
    const importScript = `const t0 = performance.now(); await import(${JSON.stringify(root)}); console.log(performance.now() - t0)`
    const countScript = `const { createTokenizer } = await import(${JSON.stringify(tokenize)}); const t = createTokenizer('gpt-4o').right; await t.ready?.(); t.count('Please summarise the build failure in the log below and suggest a fix.'); console.log(performance.now())`
    const measures = {
      bareNodeMs: () => wall(['-e', '0'], dir),
      helpMs: () => wall([bin, '--help'], dir),
      buildMs: () => wall([bin, 'build', '-q', 'Why does the build fail?', '--history', history, '--max-tokens', '2000'], dir),
      importMs: () => printed(['--input-type=module', '-e', importScript], dir),
      firstCountMs: () => printed(['--input-type=module', '-e', countScript], dir),
    }
    const keys = Object.keys(measures) as Array<keyof typeof measures>
    for (const k of keys) measures[k]()
    const ts = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<keyof typeof measures, number[]>
    for (let i = 0; i < rounds; i++) for (const k of keys) ts[k].push(measures[k]())
    return { rounds, ...(Object.fromEntries(keys.map((k) => [k, median(ts[k])])) as Record<keyof typeof measures, number>) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
