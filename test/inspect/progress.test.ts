import { describe, expect, it } from 'vitest'
import { progress } from '../../src/inspect/progress.js'
import { stripAnsi, width } from '../../src/inspect/width.js'

/** A fake terminal: records writes; the clock advances only when the test says so. */
const terminal = (isTTY: boolean, columns = 80) => {
  const writes: string[] = []
  let t = 0
  return {
    out: { write: (s: string) => writes.push(s), isTTY, columns },
    writes,
    now: () => t,
    advance: (ms: number) => {
      t += ms
    },
  }
}

/** What the line shows after the writes: the text after the last erase. */
const screen = (writes: ReadonlyArray<string>): string => stripAnsi(writes.join('').split('\r').at(-1) ?? '').replace(/\u001b\[K/g, '')

describe('progress', () => {
  it('writes nothing when the output is not a TTY', () => {
    const term = terminal(false)
    const p = progress(term.out, { label: 'loading', total: 10, now: term.now })
    for (let i = 0; i < 10; i++) p.tick()
    p.done()
    expect(term.writes).toEqual([])
  })

  it('redraws in place, at most once per interval', () => {
    const term = terminal(true)
    const p = progress(term.out, { label: 'loading session.jsonl', total: 1000, now: term.now, intervalMs: 100 })
    p.tick()
    expect(term.writes).toHaveLength(1)
    expect(term.writes[0]).toMatch(/^\r\u001b\[K/)
    for (let i = 0; i < 50; i++) p.tick()
    expect(term.writes).toHaveLength(1)
    term.advance(100)
    p.tick(449)
    expect(term.writes).toHaveLength(2)
    expect(screen(term.writes)).toMatch(/^loading session\.jsonl .*\s50% 500\/1,000$/)
  })

  it('always shows reaching the total, then erases the line when done', () => {
    const term = terminal(true)
    const p = progress(term.out, { label: 'building', total: 3, now: term.now })
    p.tick()
    p.tick()
    p.tick()
    expect(screen(term.writes)).toContain('100% 3/3')
    p.done()
    expect(term.writes.at(-1)).toBe('\r\u001b[K')
    const count = term.writes.length
    p.tick()
    p.done()
    expect(term.writes).toHaveLength(count)
  })

  it('counts without a total, with a spinner', () => {
    const term = terminal(true)
    const p = progress(term.out, { label: 'reading', now: term.now, intervalMs: 10 })
    p.tick(1200)
    term.advance(10)
    p.tick(34)
    expect(screen(term.writes)).toMatch(/^reading \S 1,234$/)
  })

  it('fits the terminal width and shows control characters in the label as text', () => {
    const term = terminal(true, 30)
    const p = progress(term.out, { label: 'a very long label that goes on \u001b[31m and on', total: 100, now: term.now })
    p.tick(42)
    const line = screen(term.writes)
    expect(width(line)).toBeLessThanOrEqual(29)
    expect(term.writes.join('').replace(/\r\u001b\[K/g, '')).not.toContain('\u001b')
  })

  it('erases nothing when it never drew', () => {
    const term = terminal(true)
    progress(term.out, { label: 'x', now: term.now }).done()
    expect(term.writes).toEqual([])
  })
})
