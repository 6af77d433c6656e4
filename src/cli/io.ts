/**
 * What the CLI touches of the outside world, passed in so tests run it in-process.
 *
 * @module
 */

/** A place to write text (process.stdout, or a buffer in tests). */
export interface Out {
  readonly write: (text: string) => unknown
  readonly isTTY?: boolean
  readonly columns?: number
}

/** The CLI's environment. */
export interface Io {
  readonly stdout: Out
  readonly stderr: Out
  readonly env: Readonly<Record<string, string | undefined>>
  readonly cwd: string
}

/** Exit codes: 0 ok, 1 bad input or a failed build, 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const
