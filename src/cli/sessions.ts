/**
 * `gssc sessions <file>`: the branches of a session file, so a user can pick a `--leaf`.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { progress } from '../inspect/index.js'
import { listBranches, type BranchInfo } from '../session/branches.js'
import { loadSession } from '../session/load.js'
import { EXIT, type Io } from './io.js'

const time = (ms: number | undefined): string => (ms === undefined ? '-' : new Date(ms).toISOString().slice(0, 16).replace('T', ' '))

const row = (b: BranchInfo, width: number): string => {
  const head = `${b.isDefault ? '*' : ' '} ${b.leafId.padEnd(14).slice(0, 14)} ${String(b.length).padStart(6)} ${time(b.lastTimestamp).padEnd(16)} `
  const preview = b.lastMessage === undefined ? '' : `${b.lastMessage.role}: ${b.lastMessage.preview}`
  const line = `${head}${b.label === undefined ? '' : `[${b.label}] `}${preview}`
  return line.length > width ? `${line.slice(0, width - 1)}…` : line
}

/**
 * Runs `gssc sessions` and returns the exit code.
 *
 * @category constructors
 */
export const runSessions = async (file: string, flags: { readonly json?: boolean }, io: Io): Promise<number> => {
  const loading = progress(io.stderr, { label: `loading ${file}` })
  const loaded = await loadSession(file)()
  loading.done()
  if (E.isLeft(loaded)) {
    io.stderr.write(`gssc sessions: ${loaded.left.message}\n`)
    return EXIT.failed
  }
  const branches = listBranches()(loaded.right)
  if (flags.json === true) {
    io.stdout.write(`${JSON.stringify({ file, format: loaded.right.format, diagnostics: loaded.right.diagnostics, branches }, null, 2)}\n`)
    return EXIT.ok
  }
  const width = io.stdout.columns ?? 100
  io.stdout.write(`${`  ${'leaf'.padEnd(14)} ${'length'.padStart(6)} ${'last entry'.padEnd(16)} last message`}\n`)
  for (const b of branches) io.stdout.write(`${row(b, width)}\n`)
  io.stderr.write(
    `gssc: ${file}: ${loaded.right.format}, ${branches.length} branch(es); * marks the default leaf; pick one with gssc build --session ${file} --leaf <id>\n` +
      loaded.right.diagnostics.map((d) => `gssc: ${d.file}:${d.line}: skipped: ${d.reason}\n`).join(''),
  )
  return EXIT.ok
}
