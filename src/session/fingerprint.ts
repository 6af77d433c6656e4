/**
 * Recognizing a file an earlier build read: same inode, not shorter, and the same bytes at
 * its start and just before where the earlier read stopped. A rewrite (pi rewrites a file
 * when it migrates it) or a truncation fails one of these, and forces a full load. The
 * check itself is `growth` (`./growth.ts`), which reads the appended bytes in the same pass.
 *
 * @module
 */
import { createHash } from 'node:crypto'
import { open, stat } from 'node:fs/promises'

/** What identifies the part of a file that has been read. */
export interface Fingerprint {
  readonly dev: number
  readonly ino: number
  readonly mtimeMs: number
  /** Bytes read so far: everything before this offset is known. */
  readonly end: number
  /** Hash of the first (up to) 4 KiB. */
  readonly head: string
  /** Hash of the (up to) 4 KiB before `end`. */
  readonly tail: string
}

/** Bytes hashed at the start of a file and before where a read stopped. */
export const WINDOW = 4096

/** The hash a fingerprint keeps of a window's bytes. */
export const hashBytes = (bytes: Uint8Array): string => createHash('sha1').update(bytes).digest('hex')

const hashRange = async (file: string, start: number, length: number): Promise<string> => {
  const handle = await open(file, 'r')
  try {
    const buf = Buffer.alloc(length)
    const { bytesRead } = await handle.read(buf, 0, length, start)
    return hashBytes(buf.subarray(0, bytesRead))
  } finally {
    await handle.close()
  }
}

/** A file's identity, modification time and size, taken before reading. */
export interface FileStat {
  readonly dev: number
  readonly ino: number
  readonly mtimeMs: number
  readonly size: number
}

/** The {@link FileStat} of what `stat` or `fstat` gave. */
export const fileStat = (s: FileStat): FileStat => ({ dev: s.dev, ino: s.ino, mtimeMs: s.mtimeMs, size: s.size })

/** File identity and modification time, before reading. */
export const statOf = async (file: string): Promise<FileStat> => fileStat(await stat(file))

/**
 * The fingerprint of the first `end` bytes of a file, given a stat taken before reading.
 *
 * @category constructors
 */
export const fingerprint = async (file: string, s: { readonly dev: number; readonly ino: number; readonly mtimeMs: number }, end: number): Promise<Fingerprint> => ({
  dev: s.dev,
  ino: s.ino,
  mtimeMs: s.mtimeMs,
  end,
  head: await hashRange(file, 0, Math.min(WINDOW, end)),
  tail: await hashRange(file, Math.max(0, end - WINDOW), Math.min(WINDOW, end)),
})
