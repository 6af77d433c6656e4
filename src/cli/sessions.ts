/**
 * `gssc sessions <file>`: the branches of a session file, so a user can pick a `--leaf`.
 *
 * Leaf ids are printed whole (they are what `--leaf` takes); previews, labels and problems
 * come from the file, so their control characters are shown as visible symbols and cannot
 * move the cursor or retitle the terminal.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { progress } from '../inspect/index.js'
import { clean, fit, padEnd, width } from '../inspect/width.js'
import { listBranches, type BranchInfo } from '../session/branches.js'
import { loadSession } from '../session/load.js'
import { EXIT, type Io } from './io.js'

/** Problems printed before the rest are counted (all of them are in `--json`). */
const MAX_PROBLEMS = 20

const time = (ms: number | undefined): string => (ms === undefined ? '-' : new Date(ms).toISOString().slice(0, 16).replace('T', ' '))

const row = (b: BranchInfo, idWidth: number, cols: number): string => {
  const head = `${b.isDefault ? '*' : ' '} ${padEnd(b.leafId, idWidth)} ${String(b.length).padStart(6)} ${time(b.lastTimestamp).padEnd(16)} `
  const thread = b.thread === undefined ? '' : `[subagent ${b.thread.replace(/^sidechain:?/, '') || '?'}] `
  const label = b.label === undefined ? '' : `[${clean(b.label)}] `
  const preview = b.lastMessage === undefined ? '' : `${b.lastMessage.role}: ${clean(b.lastMessage.preview)}`
  // the id is never cut: only what follows it
  return `${head}${fit(`${thread}${label}${preview}`, Math.max(10, cols - width(head)))}`
}

/**
 * Runs `gssc sessions` and returns the exit code.
 *
 * @category constructors
 */
export const runSessions = async (file: string, flags: { readonly json?: boolean; readonly subagents?: boolean }, io: Io): Promise<number> => {
  const shown = clean(file)
  const loading = progress(io.stderr, { label: `loading ${shown}` })
  const loaded = await loadSession(file)()
  loading.done()
  if (E.isLeft(loaded)) {
    io.stderr.write(`gssc sessions: ${clean(loaded.left.message)}\n`)
    return EXIT.failed
  }
  const branches = listBranches({ subagents: flags.subagents === true })(loaded.right)
  if (flags.json === true) {
    io.stdout.write(`${JSON.stringify({ file, format: loaded.right.format, diagnostics: loaded.right.diagnostics, branches }, null, 2)}\n`)
    return EXIT.ok
  }
  const cols = io.stdout.columns ?? 100
  const idWidth = Math.max(4, ...branches.map((b) => width(b.leafId)))
  io.stdout.write(`  ${padEnd('leaf', idWidth)} ${'length'.padStart(6)} ${'last entry'.padEnd(16)} last message\n`)
  for (const b of branches) io.stdout.write(`${row({ ...b, leafId: clean(b.leafId) }, idWidth, cols)}\n`)
  const problems = loaded.right.diagnostics
  io.stderr.write(
    `gssc: ${shown}: ${loaded.right.format}, ${branches.length} branch(es); * marks the default leaf; pick one with gssc build --session ${shown} --leaf <id>\n` +
      problems
        .slice(0, MAX_PROBLEMS)
        .map((d) => `gssc: ${shown}:${d.line}: ${clean(d.reason)}\n`)
        .join('') +
      (problems.length > MAX_PROBLEMS ? `gssc: ${shown}: ${problems.length - MAX_PROBLEMS} more problems (--json lists them all)\n` : ''),
  )
  return EXIT.ok
}
