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
  /** Reads all of standard input (for a file flag given as `-`); absent: no standard input. */
  readonly stdin?: () => Promise<Buffer>
}

/**
 * All of a readable stream (standard input), as one buffer.
 *
 * @category utils
 */
export const readAll = async (stream: AsyncIterable<Buffer | string>): Promise<Buffer> => {
  const chunks: Buffer[] = []
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : c)
  return Buffer.concat(chunks)
}

/** Exit codes: 0 ok, 1 bad input or a failed build, 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const
