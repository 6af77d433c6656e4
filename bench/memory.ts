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
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { build, encodingTokenizer } from '../src/index.js'
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
