/**
 * `gssc batch` from one worker to one per core (`batchSpeedup` in `npm run bench`): the
 * same folder of generated pi sessions through the shipped CLI (`bin/gssc.mjs batch`) in a
 * child process, with `--threads 1` and with `--threads <cores>`, in alternating rounds;
 * spawn to exit, medians. The outputs of the two runs must be the same lines. Beside it, the
 * machine's own ceiling: the same split of pure computation on worker threads.
 *
 * @module
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { Worker } from 'node:worker_threads'
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
  /**
   * What the machine itself gives from 1 to `cores` threads, the same split into `files`
   * tasks on worker threads: pure integer arithmetic (`compute`), and reads at random over
   * 16 MiB (`memory`: a tokenizer's memos and a JSON parser's heap are read that way). A
   * batch scales at most as far as these; on a VM whose vCPUs share caches or memory with
   * its neighbours, memory-bound work scales less than arithmetic.
   */
  readonly machineSpeedup: { readonly compute: number; readonly memory: number }
}

/** The two kernels: `n` steps of arithmetic, or of reads at random over a 16 MiB table. */
const KERNEL = `const { parentPort } = require('node:worker_threads')
const table = new Int32Array(1 << 22).map((_, i) => (i * 2654435761) >>> 10)
const kernels = {
  compute: (n) => { let x = 0; for (let k = 0; k < n; k++) x = (x * 31 + k) | 0; return x },
  memory: (n) => { let x = 1, s = 0; for (let k = 0; k < n; k++) { x = (x * 1103515245 + 12345) & 0x3fffff; s = (s + table[x]) | 0 } return s },
}
parentPort.on('message', ({ kernel, n }) => parentPort.postMessage(kernels[kernel](n)))`

/** Steps of each kernel that take about 30 ms on one thread here. */
const STEPS = { compute: 2e7, memory: 1.5e6 } as const

type Kernel = keyof typeof STEPS

/** Milliseconds for `tasks` tasks of `kernel` on `threads` worker threads. */
const kernelMs = async (kernel: Kernel, threads: number, tasks: number): Promise<number> => {
  const workers = Array.from({ length: threads }, () => new Worker(KERNEL, { eval: true, execArgv: [] }))
  const run = (w: Worker, n: number): Promise<unknown> => new Promise((done) => (w.once('message', done), w.postMessage({ kernel, n })))
  try {
    // started, and the kernel compiled, before the clock
    await Promise.all(workers.map((w) => run(w, STEPS[kernel] / 10)))
    const t0 = performance.now()
    let next = 0
    await Promise.all(
      workers.map(async (w) => {
        for (; next < tasks; next++) await run(w, STEPS[kernel])
      }),
    )
    return performance.now() - t0
  } finally {
    await Promise.all(workers.map((w) => w.terminate()))
  }
}

/**
 * The machine's own speed-up from one thread to `cores` on `tasks` equal tasks of each
 * kernel (see {@link BatchRow.machineSpeedup}), medians of `rounds`.
 *
 * @category bench
 */
export const machineSpeedup = async (tasks: number, cores: number, rounds: number): Promise<BatchRow['machineSpeedup']> => {
  const ratio = async (kernel: Kernel): Promise<number> => {
    const one: number[] = []
    const all: number[] = []
    for (let i = 0; i < rounds; i++) {
      one.push(await kernelMs(kernel, 1, tasks))
      all.push(await kernelMs(kernel, cores, tasks))
    }
    return median(one) / median(all)
  }
  return { compute: await ratio('compute'), memory: await ratio('memory') }
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Writes `files` sessions of `messages` messages and times `gssc batch` on them.
 *
 * @category bench
 */
export const batchSpeedup = async (files: number, messages: number, rounds: number): Promise<BatchRow> => {
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
    const machine = await machineSpeedup(files, cores, rounds)
    return { files, messagesPerFile: messages, cores, oneWorkerMs: median(one), allCoresMs: median(all), speedup: median(one) / median(all), rounds, checked, machineSpeedup: machine }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
