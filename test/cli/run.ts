/** Runs the CLI in-process and captures its output. */
import type { Io } from '../../src/cli/io.js'
import { run } from '../../src/cli/main.js'

export interface Ran {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

export const cli = async (argv: ReadonlyArray<string>, env: Record<string, string> = {}, stdin?: string | Buffer): Promise<Ran> => {
  let stdout = ''
  let stderr = ''
  const io: Io = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { NO_COLOR: '1', ...env },
    cwd: process.cwd(),
    ...(stdin === undefined ? {} : { stdin: async () => (typeof stdin === 'string' ? Buffer.from(stdin) : stdin) }),
  }
  const code = await run(argv, io)
  return { code, stdout, stderr }
}
