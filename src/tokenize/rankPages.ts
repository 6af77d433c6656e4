/**
 * A packed rank file read page by page, as lookups reach it, until enough of it is wanted to
 * read the rest at once.
 *
 * Reading the whole o200k file (5.9 MB) was most of a first count: on a virtual machine every
 * page of fresh memory written costs a fault (~25–35 ms for the file, against ~50 ms for bare
 * `node` to start). A first count of a chat message reaches a few dozen of its 1,443 pages.
 * So the file's buffer is allocated whole (untouched memory costs nothing), the small direct
 * tables are read up front, and a lookup first reads the pages its bucket, entries and token
 * bytes lie on; past {@link READ_ALL_AFTER} pages the rest is read in one call and the file
 * closed. No lookup's result depends on which pages were read when: every byte a lookup
 * compares is read before it is compared.
 *
 * @module
 */
import type { RankTable } from './rankTable.js'

/** The parts of Node's fs this reads with. */
export interface PagesFs {
  readonly readSync: (fd: number, into: Uint8Array, offset: number, length: number, position: number) => number
  readonly closeSync: (fd: number) => void
}

/**
 * Which pages of an open rank file are in its buffer. The one mutable part of a rank table
 * (see {@link RankTable.pages}): pages only ever go from unread to read, with the bytes the
 * file holds, and the file is closed once all are in.
 */
export interface Pages {
  readonly fs: PagesFs
  readonly fd: number
  /** The whole file's buffer: the table's arrays are views of it. */
  readonly file: Uint8Array
  /** 1 for a page read, per page of {@link PAGE} bytes. */
  readonly read: Uint8Array
  /** Pages read one by one so far. */
  count: number
  /** True once the whole file is in (and closed). */
  complete: boolean
}

/** Bytes per page: the operating system's page, the unit a first write faults in. */
export const PAGE = 4096

/**
 * Pages read one by one before the rest is read in one call: about what reading it all costs
 * in calls, and far more than a first count of a message needs (~20–60).
 */
export const READ_ALL_AFTER = 256

/**
 * Starts paging a file of `size` bytes open as `fd`, with `ranges` (byte ranges: the header,
 * the direct tables, the pattern) read now.
 *
 * @category constructors
 */
export const pages = (fs: PagesFs, fd: number, file: Uint8Array, ranges: ReadonlyArray<readonly [number, number]>): Pages => {
  const p: Pages = { fs, fd, file, read: new Uint8Array(Math.ceil(file.length / PAGE)), count: 0, complete: false }
  for (const [from, to] of ranges) readRange(p, from, to)
  p.count = 0 // the direct tables are no lookup's pages
  return p
}

/**
 * Makes sure the bytes `[from, to)` of the file are in its buffer.
 *
 * @category utils
 */
export const readRange = (p: Pages, from: number, to: number): void => {
  if (p.complete) return
  const last = Math.ceil(to / PAGE)
  for (let page = Math.floor(from / PAGE); page < last; ) {
    if (p.read[page] === 1) {
      page++
      continue
    }
    // a run of unread pages, in one read
    let end = page + 1
    while (end < last && p.read[end] === 0) end++
    if ((p.count += end - page) > READ_ALL_AFTER) return readAll(p)
    fill(p, page * PAGE, Math.min(p.file.length, end * PAGE))
    p.read.fill(1, page, end)
    page = end
  }
}

/**
 * Reads the rest of the file (pages already read are read again: same bytes, one call) and
 * closes it.
 *
 * @category utils
 */
export const readAll = (p: Pages): void => {
  if (p.complete) return
  fill(p, 0, p.file.length)
  p.fs.closeSync(p.fd)
  p.complete = true
}

// One read of file bytes [from, to) into the same place of the buffer, in as many calls as it
// takes. The file is written by rename (scripts/bundle.mjs), so the open one never changes; a
// short file is an error, never zeros taken for ranks.
const fill = (p: Pages, from: number, to: number): void => {
  for (let at = from; at < to; ) {
    const n = p.fs.readSync(p.fd, p.file, at, to - at, at)
    if (n <= 0) throw new Error(`rank file: ended at byte ${at} of ${p.file.length} while in use`)
    at += n
  }
}

/**
 * Reads what a lookup in bucket `b` of `table` will compare: the bucket's bounds, its
 * entries, and the bytes past the first 8 of each entry's token.
 *
 * @category utils
 */
export const readBucket = (table: RankTable, p: Pages, b: number): void => {
  const { buckets, entries, bytes } = table
  readRange(p, buckets.byteOffset + 4 * b, buckets.byteOffset + 4 * b + 8)
  const first = buckets[b]! << 2
  const last = buckets[b + 1]! << 2
  readRange(p, entries.byteOffset + 4 * first, entries.byteOffset + 4 * last)
  for (let at = first; at < last; at += 4) {
    const length = entries[at]! & 255
    if (length > 8) readRange(p, bytes.byteOffset + entries[at + 3]!, bytes.byteOffset + entries[at + 3]! + length)
  }
}
