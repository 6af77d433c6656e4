/**
 * One file of `gssc batch`, run in a pool worker: the same `gssc build --session FILE --json`
 * as the command (one path from a session to a context), in-process, its report as one JSON
 * line. A worker holds its own tokenizer tables, loaded once for all the files it builds.
 *
 * @module
 */
import { runBuild, type BuildFlags } from './build.js'
import type { Io } from './io.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What a worker is sent for one file. */
export interface BatchTask {
  readonly file: string
  /** The build's flags (`--session` and `--json` are set per file). */
  readonly flags: BuildFlags
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** What the build said on standard error, as lines (notes on success, the error on failure). */
const lines = (text: string): ReadonlyArray<string> => text.split('\n').filter((l) => l.trim() !== '')

/** One file's outcome: its JSON line, and whether the build succeeded. */
export interface BatchLine {
  readonly ok: boolean
  readonly line: string
}

/**
 * Builds one session file's context and returns its JSON line: `{ file, ok: true, notes,
 * ...report }` (the report `gssc build --json` prints), or `{ file, ok: false, exit, error }`.
 *
 * @example
 * await buildOne({ file: 'runs/a.jsonl', flags, cwd, env }) // { ok: true, line: '{"file":"runs/a.jsonl","ok":true,…}' }
 * @category utils
 * @since 0.2.0
 */
export const buildOne = async (task: BatchTask): Promise<BatchLine> => {
  let out = ''
  let err = ''
  const io: Io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, env: task.env, cwd: task.cwd }
  const exit = await runBuild({ ...task.flags, session: task.file, json: true }, io)
  return exit === 0
    ? { ok: true, line: JSON.stringify({ file: task.file, ok: true, notes: lines(err), ...(JSON.parse(out) as object) }) }
    : { ok: false, line: JSON.stringify({ file: task.file, ok: false, exit, error: lines(err).join('\n') }) }
}
