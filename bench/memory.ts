/**
 * Peak memory of one cold gssc build, measured in a fresh child process so nothing else
 * the benchmark did is in the figures.
 *
 * The child generates the request, loads the tokenizer, collects garbage, then resets the
 * kernel's peak-RSS mark (`/proc/self/clear_refs`, Linux) and runs the build once. The peak
 * is VmHWM (the peak resident set since the reset) minus the resident set before the build.
 * Where the mark cannot be reset, `process.resourceUsage().maxRSS` is used instead (a lower
 * bound: the data generation may have set the mark higher).
 *
 * Run alone: `node --expose-gc --import tsx bench/memory.ts 50000`.
 *
 * @module
 */
import { spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { build, encodingTokenizer } from '../src/index.js'
import { syntheticPiSession } from '../src/session/synthetic.js'
import { CONFIG, request } from './core.js'
import { history, NOW } from './data.js'

/** What one build cost in memory, in MiB. */
export interface MemoryRow {
  readonly messages: number
  readonly passages: number
  /** Peak resident set during the build, above the resident set before it. */
  readonly peakRssMiB: number
  /** How the peak was read: `VmHWM` (reset before the build) or `maxRSS` (not reset). */
  readonly peakSource: 'VmHWM' | 'maxRSS'
  /** Resident set before the build: node, the loader, the tokenizer tables and the input. */
  readonly baseRssMiB: number
  /** JS heap the generated request itself takes. */
  readonly inputMiB: number
  /** JS heap growth over the build, garbage included (no collection forced). */
  readonly heapGrowthMiB: number
  /** JS heap the result keeps alive after a full collection. */
  readonly retainedMiB: number
  readonly buildMs: number
  readonly tokenCount: number
}

const MiB = 1024 * 1024

const status = (): Readonly<Record<string, number>> => {
  const out: Record<string, number> = {}
  try {
    for (const line of readFileSync('/proc/self/status', 'utf8').split('\n')) {
      const m = /^(\w+):\s+(\d+) kB/.exec(line)
      if (m !== null) out[m[1]!] = Number(m[2]) * 1024
    }
  } catch {
    // not Linux: the caller falls back to process figures
  }
  return out
}

const gc = (): void => {
  const f = (globalThis as { gc?: () => void }).gc
  if (f === undefined) throw new Error('run with node --expose-gc')
  f()
  f()
}

/** The child's work: one build of `messages` turns and `passages` passages, measured. */
export const measureHere = async (messages: number, passages: number): Promise<MemoryRow> => {
  const tokenizer = encodingTokenizer('o200k_base')
  tokenizer.count('warm up: load the ranks before measuring')
  gc()
  const empty = process.memoryUsage().heapUsed
  const req = request(history(messages, NOW), passages)
  gc()
  const input = process.memoryUsage().heapUsed - empty
  let reset = true
  try {
    writeFileSync('/proc/self/clear_refs', '5')
  } catch {
    reset = false
  }
  const before = status()
  const heapBefore = process.memoryUsage().heapUsed
  const maxRssBefore = process.resourceUsage().maxRSS * 1024
  const t0 = performance.now()
  const r = await build(req, { tokenizer, now: NOW, config: CONFIG })()
  const buildMs = performance.now() - t0
  const heapAfter = process.memoryUsage().heapUsed
  const after = status()
  const maxRssAfter = process.resourceUsage().maxRSS * 1024
  if (E.isLeft(r)) throw new Error(r.left.message)
  gc()
  const retained = process.memoryUsage().heapUsed - heapBefore
  const hwm = reset && after['VmHWM'] !== undefined && before['VmRSS'] !== undefined
  const baseRss = before['VmRSS'] ?? process.memoryUsage().rss
  return {
    messages,
    passages,
    peakRssMiB: (hwm ? after['VmHWM']! - before['VmRSS']! : maxRssAfter - maxRssBefore) / MiB,
    peakSource: hwm ? 'VmHWM' : 'maxRSS',
    baseRssMiB: baseRss / MiB,
    inputMiB: input / MiB,
    heapGrowthMiB: (heapAfter - heapBefore) / MiB,
    retainedMiB: Math.max(0, retained) / MiB,
    buildMs,
    // read after the collection, so the result is alive when the retained heap is measured
    tokenCount: r.right.tokenCount,
  }
}

const SELF = fileURLToPath(import.meta.url)

/**
 * Measures one build in a fresh `node --expose-gc --import tsx` process.
 *
 * @category bench
 */
export const peakMemory = (messages: number, passages = 1000): MemoryRow => {
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', SELF, String(messages), String(passages)], {
    cwd: resolve(dirname(SELF), '..'),
    encoding: 'utf8',
  })
  if (r.status !== 0) throw new Error(`memory child failed: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as MemoryRow
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [messages = '50000', passages = '1000'] = process.argv.slice(2)
  console.log(JSON.stringify(await measureHere(Number(messages), Number(passages))))
}

// -------------------------------------------------------------------------------------
// a big session through the CLI
// -------------------------------------------------------------------------------------

/** A big session file through `gssc build --session --json`, in a child process. */
export interface Session200Row {
  readonly bytes: number
  readonly messages: number
  /** Peak resident set of the child (`maxRSS`), MB (10^6 bytes). */
  readonly peakRssMB: number
  /** Spawn to exit. */
  readonly seconds: number
  /** Size of the `--json` report printed. */
  readonly jsonBytes: number
}

/**
 * Writes a generated pi session of about `bytes` bytes, then runs the shipped CLI on it
 * (`bin/gssc.mjs build --session … --json`, output to a file) in a child that prints its own
 * peak resident set when it exits.
 *
 * @category bench
 */
export const session200 = (bytes: number): Session200Row => {
  const root = resolve(dirname(SELF), '..')
  const dir = mkdtempSync(join(tmpdir(), 'gssc-big-session-'))
  try {
    const file = join(dir, 'session.jsonl')
    const lines = syntheticPiSession({ messages: Math.round(bytes / 425) })
    const fd = openSync(file, 'w')
    for (let i = 0; i < lines.length; i += 10_000) writeSync(fd, `${lines.slice(i, i + 10_000).join('\n')}\n`)
    closeSync(fd)
    const wrapper = join(dir, 'run.mjs')
    writeFileSync(wrapper, `process.on('exit', () => process.stderr.write('\\nmaxRSS ' + process.resourceUsage().maxRSS + '\\n'))\nawait import(${JSON.stringify(pathToFileURL(join(root, 'bin', 'gssc.mjs')).href)})\n`)
    const out = join(dir, 'out.json')
    const outFd = openSync(out, 'w')
    const t0 = performance.now()
    const r = spawnSync(process.execPath, [wrapper, 'build', '--session', file, '-q', 'What is left to do?', '--json'], { stdio: ['ignore', outFd, 'pipe'], encoding: 'utf8' })
    const seconds = (performance.now() - t0) / 1000
    closeSync(outFd)
    if (r.status !== 0) throw new Error(`gssc build --session failed: ${r.stderr}`)
    const rss = /maxRSS (\d+)/.exec(r.stderr)
    return { bytes: statSync(file).size, messages: lines.length, peakRssMB: rss === null ? Number.NaN : (Number(rss[1]) * 1024) / 1e6, seconds, jsonBytes: statSync(out).size }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
