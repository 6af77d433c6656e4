import { describe, expect, it } from 'vitest'
import { truncateHistory, truncateHistorySync } from '../../../src/session/fit/truncate.js'
import { assistant, conversation, idsOf, paired, raw, result, system, user } from './histories.js'

const total = (xs: ReadonlyArray<{ readonly tokens: number }>): number => xs.reduce((n, i) => n + i.tokens, 0)

describe('truncate', () => {
  const h = conversation()

  it('keeps everything when it fits', async () => {
    const r = await truncateHistory({ budget: total(h) })(h)()
    expect(r._tag === 'Right' && idsOf(r.right.items)).toEqual(idsOf(h))
    expect(r._tag === 'Right' && r.right.report).toMatchObject({ strategy: 'truncate', dropped: [], summarized: [], tokensAfter: total(h) })
  })

  it('keeps the newest contiguous window that fits, never splitting a tool turn', () => {
    // room for the last user turn and part of the two-call unit before it
    const budget = h[11]!.tokens + h[10]!.tokens + h[9]!.tokens
    const r = truncateHistorySync({ budget })(h)
    expect(idsOf(r.items)).toEqual(['h11'])
    expect(r.report.dropped.map((d) => d.id)).toEqual(idsOf(h.slice(0, 11)))
    expect(r.report.dropped.every((d) => d.reason === 'over_budget')).toBe(true)
    const wider = truncateHistorySync({ budget: budget + h[8]!.tokens })(h)
    expect(idsOf(wider.items)).toEqual(['h8', 'h9', 'h10', 'h11'])
    expect(paired(wider.items)).toBe(true)
  })

  it('stops at keepRecentCount turns, counting a whole tool turn', () => {
    const r = truncateHistorySync({ budget: 100_000, keepRecentCount: 3 })(h)
    expect(idsOf(r.items)).toEqual(['h11'])
    expect(r.report.dropped.every((d) => d.reason === 'keep_recent_count')).toBe(true)
    expect(idsOf(truncateHistorySync({ budget: 100_000, keepRecentCount: 4 })(h).items)).toEqual(['h8', 'h9', 'h10', 'h11'])
  })

  it('pins system turns first, and never starts on a tool result', () => {
    const xs = raw([system('You are terse.'), result('ghost', 'stray output'), user('one'), assistant('two'), user('three')])
    const r = truncateHistorySync({ budget: xs[0]!.tokens + xs[4]!.tokens + xs[3]!.tokens })(xs)
    expect(idsOf(r.items)).toEqual(['h0', 'h3', 'h4'])
    expect(r.report.dropped).toEqual([
      { id: 'h1', reason: 'orphan_result' },
      { id: 'h2', reason: 'over_budget' },
    ])
    const unpinned = truncateHistorySync({ budget: xs[4]!.tokens, pinSystem: false })(xs)
    expect(idsOf(unpinned.items)).toEqual(['h4'])
  })

  it('returns nothing when even the newest turn does not fit, and does not touch its input', () => {
    const frozen = JSON.stringify(h)
    const r = truncateHistorySync({ budget: 1 })(h)
    expect(r.items).toEqual([])
    expect(r.report.tokensAfter).toBe(0)
    expect(JSON.stringify(h)).toBe(frozen)
  })
})
