/**
 * Paging a rank file: `readRange` puts exactly the bytes asked for into the buffer, reads
 * each page once, in one call per run of unread pages, and past `READ_ALL_AFTER` pages reads
 * the rest and closes the file once. The file is an in-memory `PagesFs` (the module's own
 * seam), so every call is seen; test/tokenize/rankFile.test.ts pages the real o200k file.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PAGE, pages, readAll, readRange, READ_ALL_AFTER, type PagesFs } from '../../src/tokenize/rankPages.js'
import { seeded } from '../prop.js'

// Byte-for-byte equality (a deep equal walks a buffer element by element, far too slowly).
const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength))

interface Seen {
  readonly reads: Array<readonly [number, number]>
  closes: number
}

// byte i holds i·7 mod 251: never 0 where i is not a multiple of 251, so an unread byte shows
const BYTES = Uint8Array.from({ length: (2 * READ_ALL_AFTER + 10) * PAGE }, (_, i) => (i * 7) % 251)

/** A file of `size` bytes served in reads of at most `chunk` bytes. */
const fileOf = (size: number, chunk = Number.POSITIVE_INFINITY): { readonly fs: PagesFs; readonly bytes: Uint8Array; readonly seen: Seen } => {
  const bytes = BYTES.subarray(0, size)
  const seen: Seen = { reads: [], closes: 0 }
  const fs: PagesFs = {
    readSync: (fd, into, offset, length, position) => {
      expect(fd).toBe(3)
      const n = Math.max(0, Math.min(length, chunk, size - position))
      into.set(bytes.subarray(position, position + n), offset)
      seen.reads.push([position, position + n])
      return n
    },
    closeSync: (fd) => {
      expect(fd).toBe(3)
      seen.closes++
    },
  }
  return { fs, bytes, seen }
}

describe('rank file pages', () => {
  it('read the pages a range lies on, each run of unread pages in one call, and never a page twice', () => {
    const { fs, bytes, seen } = fileOf(10 * PAGE + 100)
    const p = pages(fs, 3, new Uint8Array(bytes.length), [[0, 10]])
    expect(seen.reads).toEqual([[0, PAGE]]) // the header's page, not counted as a lookup's
    expect(p.count).toBe(0)
    readRange(p, 2 * PAGE + 5, 4 * PAGE + 1) // pages 2, 3 and 4
    readRange(p, 3 * PAGE, 6 * PAGE) // 3 and 4 are in: only page 5
    readRange(p, 10 * PAGE, 10 * PAGE + 100) // the short last page
    expect(seen.reads.slice(1)).toEqual([
      [2 * PAGE, 5 * PAGE],
      [5 * PAGE, 6 * PAGE],
      [10 * PAGE, 10 * PAGE + 100],
    ])
    expect(p.count).toBe(5)
    expect([...p.read]).toEqual([1, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1])
    expect(same(p.file.subarray(2 * PAGE, 6 * PAGE), bytes.subarray(2 * PAGE, 6 * PAGE))).toBe(true)
    expect(p.file[PAGE]).toBe(0) // page 1 was never asked for
    expect(seen.closes).toBe(0)
    expect(p.complete).toBe(false)
  })

  it('read the rest in one go and close the file once when lookups pass READ_ALL_AFTER pages', () => {
    const size = (2 * READ_ALL_AFTER + 10) * PAGE
    const { fs, bytes, seen } = fileOf(size)
    const p = pages(fs, 3, new Uint8Array(size), [])
    // every other page, so each is its own run: READ_ALL_AFTER of them, one by one
    for (let k = 0; k < READ_ALL_AFTER; k++) readRange(p, 2 * k * PAGE, 2 * k * PAGE + 1)
    expect([p.complete, p.count, seen.reads.length, seen.closes]).toEqual([false, READ_ALL_AFTER, READ_ALL_AFTER, 0])
    // one more page: the rest in one call
    readRange(p, 2 * READ_ALL_AFTER * PAGE, 2 * READ_ALL_AFTER * PAGE + 1)
    expect(p.complete).toBe(true)
    expect(seen.closes).toBe(1)
    expect(seen.reads.at(-1)).toEqual([0, size])
    expect(same(p.file, bytes)).toBe(true)
    const calls = seen.reads.length
    readRange(p, 0, size)
    readAll(p)
    expect(seen.reads.length).toBe(calls)
    expect(seen.closes).toBe(1)
  })

  it('take a read in as many calls as the file gives, and refuse a file that ends early, naming the byte', () => {
    const { fs, bytes, seen } = fileOf(3 * PAGE, 1000)
    const p = pages(fs, 3, new Uint8Array(3 * PAGE), [])
    readRange(p, PAGE, 2 * PAGE)
    expect(seen.reads.length).toBe(Math.ceil(PAGE / 1000))
    expect(same(p.file.subarray(PAGE, 2 * PAGE), bytes.subarray(PAGE, 2 * PAGE))).toBe(true)
    // the buffer believes in 4 pages, the file holds 3: the fourth page cannot be read
    const cut = fileOf(3 * PAGE)
    const q = pages(cut.fs, 3, new Uint8Array(4 * PAGE), [])
    expect(() => readRange(q, 3 * PAGE, 3 * PAGE + 1)).toThrow(`rank file: ended at byte ${3 * PAGE} of ${4 * PAGE} while in use`)
  })

  it('hold every byte asked for, whatever ranges come in whatever order (property)', () => {
    const size = 40 * PAGE + 17
    const range = fc.tuple(fc.nat(size - 1), fc.nat(3 * PAGE)).map(([from, n]) => [from, Math.min(size, from + n + 1)] as const)
    fc.assert(
      fc.property(fc.array(range, { maxLength: 40 }), fc.integer({ min: 500, max: 3 * PAGE }), (ranges, chunk) => {
        const { fs, bytes, seen } = fileOf(size, chunk)
        const p = pages(fs, 3, new Uint8Array(size), [])
        const asked: Array<readonly [number, number]> = []
        for (const [from, to] of ranges) {
          readRange(p, from, to)
          asked.push([from, to])
          expect(same(p.file.subarray(from, to), bytes.subarray(from, to))).toBe(true)
        }
        // and stays so: a later read never disturbs an earlier range
        for (const [a, b] of asked) expect(same(p.file.subarray(a, b), bytes.subarray(a, b))).toBe(true)
        // no byte is read twice before the file is read whole
        const covered = new Uint8Array(size)
        for (const [a, b] of seen.reads) {
          if (a === 0 && b === size) continue
          for (let i = a; i < b; i++) covered[i]! += 1
        }
        expect(covered.every((c) => c <= 1)).toBe(true)
        expect(seen.closes).toBe(p.complete ? 1 : 0)
        if (!p.complete) expect(p.count).toBeLessThanOrEqual(READ_ALL_AFTER)
      }),
      seeded(200),
    )
  })
})
