/**
 * What a session file holds beyond an earlier read, found through one open file: its
 * identity and size (`fstat`), the fingerprint's two windows checked, and the appended bytes
 * read in the same pass, from which the next fingerprint is hashed too. A turn's rebuild then costs a handful of system calls instead of a file open
 * for each window checked, for the appended lines, and for each window of the next
 * fingerprint (about 17 round trips through libuv's thread pool, each waiting for a thread
 * on a busy machine).
 *
 * Synchronous on purpose: it reads two 4 KiB windows and one turn's lines, at most
 * {@link APPENDED_LIMIT} bytes of them; more is left to the streaming read (`Grown` with
 * nothing held).
 *
 * @module
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { fileStat, hashBytes, WINDOW, type FileStat, type Fingerprint } from './fingerprint.js'

/** Appended bytes read along with the check; a file that grew by more is streamed. */
export const APPENDED_LIMIT = 1 << 20

/** The file's bytes from `base` (the start of the fingerprint's tail window) to its size when checked. */
export interface Held {
  readonly base: number
  readonly bytes: Uint8Array
}

/** How a file compares with a fingerprint, and for a file that grew, its stat and the bytes held. */
export type Growth =
  | { readonly _tag: 'Same' }
  | { readonly _tag: 'Changed'; readonly reason: string }
  | { readonly _tag: 'Grown'; readonly stat: FileStat; readonly held?: Held }

const SAME: Growth = { _tag: 'Same' }

const changed = (reason: string): Growth => ({ _tag: 'Changed', reason })

/** `length` bytes from `start`, fewer at the end of the file. */
const readAt = (fd: number, start: number, length: number): Buffer => {
  const buf = Buffer.allocUnsafe(length)
  let got = 0
  for (let n = 1; got < length && n > 0; got += n) n = readSync(fd, buf, got, length - got, start + got)
  return got === length ? buf : buf.subarray(0, got)
}

/**
 * Compares a file with a fingerprint (replaced, shrunk, rewritten, unchanged or grown) and,
 * when it only grew by at most `limit` bytes, holds the appended bytes. Throws when the file cannot be read.
 *
 * @example
 * growth('s.jsonl', build.resume.fingerprint) // { _tag: 'Grown', stat, held: { base, bytes } }
 * @category utils
 */
export const growth = (file: string, fp: Fingerprint, limit = APPENDED_LIMIT): Growth => {
  const fd = openSync(file, 'r')
  try {
    const stat = fileStat(fstatSync(fd))
    if (stat.dev !== fp.dev || stat.ino !== fp.ino) return changed('the file was replaced (new inode)')
    if (stat.size < fp.end) return changed(`the file shrank (${stat.size} < ${fp.end} bytes read before)`)
    if (stat.size === fp.end && stat.mtimeMs === fp.mtimeMs) return SAME
    const base = Math.max(0, fp.end - WINDOW)
    const appended = stat.size - fp.end
    const hold = appended <= limit
    // the tail window and, when few enough, the appended bytes: one read
    const bytes = readAt(fd, base, fp.end - base + (hold ? appended : 0))
    const head = base === 0 ? bytes.subarray(0, fp.end) : readAt(fd, 0, WINDOW)
    if (hashBytes(head) !== fp.head || hashBytes(bytes.subarray(0, fp.end - base)) !== fp.tail) return changed('the bytes read before have changed (the file was rewritten)')
    if (appended === 0) return SAME
    return { _tag: 'Grown', stat, ...(hold && bytes.length === stat.size - base ? { held: { base, bytes } } : {}) }
  } finally {
    closeSync(fd)
  }
}

/**
 * The appended bytes held: from where the fingerprint's read stopped.
 *
 * @category utils
 */
export const appendedBytes = (fp: Fingerprint, held: Held): Uint8Array => held.bytes.subarray(fp.end - held.base)

/**
 * The fingerprint of the file read up to `end` (at or after `fp.end`), hashed from the bytes
 * held: what `fingerprint(file, stat, end)` gives, without reading again.
 *
 * @category utils
 */
export const heldFingerprint = (fp: Fingerprint, stat: FileStat, held: Held, end: number): Fingerprint => {
  const at = (from: number, to: number): Uint8Array => held.bytes.subarray(from - held.base, to - held.base)
  return {
    dev: stat.dev,
    ino: stat.ino,
    mtimeMs: stat.mtimeMs,
    end,
    // past the first window, the head was just checked unchanged
    head: fp.end >= WINDOW ? fp.head : hashBytes(at(0, Math.min(WINDOW, end))),
    tail: hashBytes(at(Math.max(0, end - WINDOW), end)),
  }
}
