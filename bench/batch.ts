/**
 * `gssc batch` from one worker to one per core (`batchSpeedup` in `npm run bench`): the
 * same folder of generated pi sessions through the shipped CLI (`bin/gssc.mjs batch`) in a
 * child process, with `--threads 1` and with `--threads <cores>`, in alternating rounds;
 * spawn to exit, medians. The outputs of the two runs must be the same lines.
 *
 * @module
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { syntheticPiSession } from '../src/session/synthetic.js'
import { ensureDist } from './cli.js'
import { median } from './core.js'

/** One worker against all cores, medians of `rounds`, milliseconds. */
export interface BatchRow {
  readonly files: number
  readonly messagesPerFile: number
  readonly cores: number
  readonly oneWorkerMs: number
  readonly allCoresMs: number
  /** oneWorkerMs ÷ allCoresMs. */
  readonly speedup: number
  readonly rounds: number
  /** Both runs printed the same lines, one per file, every one ok. */
  readonly checked: boolean
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Writes `files` sessions of `messages` messages and times `gssc batch` on them.
 *
 * @category bench
 */
export const batchSpeedup = (files: number, messages: number, rounds: number): BatchRow => {
  ensureDist()
  const dir = mkdtempSync(join(tmpdir(), 'gssc-batch-'))
  const cores = availableParallelism()
  try {
    for (let f = 0; f < files; f++) writeFileSync(join(dir, `s${String(f).padStart(3, '0')}.jsonl`), `${syntheticPiSession({ messages, seed: f + 1 }).join('\n')}\n`)
    const run = (threads: number): { readonly ms: number; readonly out: string } => {
      const t0 = performance.now()
      const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'gssc.mjs'), 'batch', dir, '--threads', String(threads), '-q', 'What is left to do?'], { encoding: 'utf8', maxBuffer: 1 << 30 })
      const ms = performance.now() - t0
      if (r.status !== 0) throw new Error(`gssc batch failed: ${r.stderr}`)
      return { ms, out: r.stdout }
    }
    const one: number[] = []
    const all: number[] = []
    let checked = true
    for (let i = 0; i < rounds; i++) {
      const a = run(1)
      const b = run(cores)
      one.push(a.ms)
      all.push(b.ms)
      const lines = a.out.trimEnd().split('\n')
      checked &&= a.out === b.out && lines.length === files && lines.every((l) => (JSON.parse(l) as { ok: boolean }).ok)
    }
    return { files, messagesPerFile: messages, cores, oneWorkerMs: median(one), allCoresMs: median(all), speedup: median(one) / median(all), rounds, checked }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
