/**
 * `gssc batch <dir or glob>`: the context of every session file, one JSON line each, built
 * by a pool of workers (tinypool), one per core unless `--threads` says otherwise.
 *
 * Each file goes through `gssc build --session FILE --json` in a worker (`./batchWorker.ts`),
 * so a batch builds exactly what the command builds file by file. Lines come out in the
 * files' sorted order, each as soon as every file before it is done; a file that fails is a
 * line with `ok: false` and its error, and the exit code is 1. The progress bar is drawn on
 * standard error only when it is a terminal.
 *
 * @module
 */
import { stat } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { glob } from 'tinyglobby'
import Tinypool from 'tinypool'
import { describeThrown, show } from '../error.js'
import { progress } from '../inspect/progress.js'
import { visible } from '../inspect/width.js'
import type { BuildFlags } from './build.js'
import type { BatchLine, BatchTask } from './batchWorker.js'
import { EXIT, type Io } from './io.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Parsed options of `gssc batch`: the build's, and the pool's size. */
export interface BatchFlags extends Omit<BuildFlags, 'session' | 'json'> {
  /** Workers; default one per core (`os.availableParallelism()`). */
  readonly threads?: number
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** The files a batch reads: every `.jsonl` below a folder, or what a glob matches; sorted. */
export const sessionFiles = async (pattern: string, cwd: string): Promise<ReadonlyArray<string>> => {
  const dir = await stat(resolve(cwd, pattern)).then(
    (s) => s.isDirectory(),
    () => false,
  )
  const found = dir ? await glob('**/*.jsonl', { cwd: resolve(cwd, pattern), absolute: true }) : await glob(pattern, { cwd, absolute: true, onlyFiles: true })
  return [...found].sort()
}

/**
 * The worker module: next to this one when built (`dist/cli/`, or the CLI bundle, where it
 * is an entry of its own); run from source (tests, tsx) it is TypeScript, which a child
 * process started with tsx can load.
 */
const workerOf = (): { readonly filename: string; readonly runtime?: 'child_process'; readonly execArgv?: string[] } =>
  import.meta.url.endsWith('.ts')
    ? { filename: new URL('./batchWorker.ts', import.meta.url).href, runtime: 'child_process', execArgv: ['--import', 'tsx'] }
    : { filename: new URL('./batchWorker.js', import.meta.url).href }

// -------------------------------------------------------------------------------------
// run
// -------------------------------------------------------------------------------------

/**
 * Runs `gssc batch` (see the module comment) and returns the exit code.
 *
 * @example
 * await runBatch('runs/', { model: 'gpt-4o', format: 'text', structurer: 'default', compression: true }, io) // one line per file on io.stdout
 * @category constructors
 * @since 0.2.0
 */
export const runBatch = async (pattern: string, flags: BatchFlags, io: Io): Promise<number> => {
  const files = await sessionFiles(pattern, io.cwd)
  if (files.length === 0) {
    io.stderr.write(visible(`gssc batch: no session files in or matching ${show(pattern)}\n`))
    return EXIT.failed
  }
  const { threads: wanted, ...buildFlags } = flags
  const threads = Math.max(1, Math.min(wanted ?? availableParallelism(), files.length))
  const pool = new Tinypool({ ...workerOf(), minThreads: threads, maxThreads: threads })
  const bar = progress(io.stderr, { label: `gssc batch (${threads} worker${threads === 1 ? '' : 's'})`, total: files.length })
  // lines wait here until every file before them is written, so the output keeps the files' order
  const done: Array<string | undefined> = files.map(() => undefined)
  let written = 0
  let failed = 0
  const one = async (file: string, i: number): Promise<void> => {
    const task: BatchTask = { file, flags: buildFlags, cwd: io.cwd, env: io.env }
    const r = await (pool.run(task, { name: 'buildOne' }) as Promise<BatchLine>).catch(
      (e: unknown): BatchLine => ({ ok: false, line: JSON.stringify({ file, ok: false, exit: EXIT.failed, error: describeThrown(e) }) }),
    )
    if (!r.ok) failed++
    done[i] = r.line
    for (; written < files.length && done[written] !== undefined; written++) {
      io.stdout.write(`${done[written]}\n`)
      done[written] = undefined
    }
    bar.tick()
  }
  try {
    await Promise.all(files.map(one))
  } finally {
    bar.done()
    await pool.destroy()
  }
  return failed === 0 ? EXIT.ok : EXIT.failed
}
