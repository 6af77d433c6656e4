import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { messageText } from '../../../src/message.js'
import type { Summarizer } from '../../../src/session/fit/model.js'
import { importantItem, smartHistory } from '../../../src/session/fit/smart.js'
import { OMITTED_WRAPPER } from '../../../src/session/fit/summary.js'
import { tokenizer } from '../helpers.js'
import { conversation, idsOf, paired } from './histories.js'

const h = conversation()
const tokensOf = (ids: ReadonlyArray<string>): number => ids.reduce((n, id) => n + h.find((i) => i.id === id)!.tokens, 0)
const fake: Summarizer = async (messages) => `summary of ${messages.length} turns`

describe('importantItem', () => {
  it('marks tool turns, errors, long turns and earlier summaries', () => {
    const important = idsOf(h.filter(importantItem()))
    expect(important).toEqual(['h3', 'h4', 'h8', 'h9', 'h10'])
    expect(idsOf(h.filter(importantItem(h[11]!.tokens)))).toContain('h11')
    expect(idsOf(h.filter(importantItem(h[11]!.tokens + 1)))).not.toContain('h11')
  })
})

describe('smart', () => {
  it('keeps the task and the important turns, summarizes the rest, and keeps chronological order', async () => {
    const allowance = 30
    const keep = ['h3', 'h4', 'h8', 'h9', 'h10', 'h11']
    const budget = tokensOf(keep) + allowance
    const r = await smartHistory({ budget, tokenizer, summarizer: fake, summaryTokens: allowance, fillWithRecent: false })(h)()
    if (E.isLeft(r)) throw new Error(r.left.message)
    const { items: out, report } = r.right
    expect(report.kept).toEqual(keep)
    expect(report.summarized).toEqual(['h0', 'h1', 'h2', 'h5', 'h6', 'h7'])
    // the summary sits where the first summarized turn was: at the start here
    expect(idsOf(out)).toEqual(['summary:h0', ...keep])
    expect(messageText(out[0]!.message)).toBe(`${OMITTED_WRAPPER.prefix}summary of 6 turns${OMITTED_WRAPPER.suffix}`)
    expect(report.tokensAfter).toBeLessThanOrEqual(budget)
    expect(paired(out)).toBe(true)
  })

  it('places the summary at the first gap when the oldest turns are kept', async () => {
    const keep = ['h0', 'h3', 'h4', 'h8', 'h9', 'h10', 'h11']
    const budget = tokensOf(keep) + 30
    const firstTurnMatters = (i: (typeof h)[number]): boolean => i.id === 'h0' || importantItem()(i)
    const r = await smartHistory({ budget, tokenizer, summarizer: fake, summaryTokens: 30, fillWithRecent: false, isImportant: firstTurnMatters })(h)()
    if (E.isLeft(r)) throw new Error(r.left.message)
    expect(idsOf(r.right.items)).toEqual(['h0', 'summary:h1', 'h3', 'h4', 'h8', 'h9', 'h10', 'h11'])
    expect(r.right.report.summary?.index).toBe(1)
  })

  it('fills what is left with the newest other turns by default', async () => {
    const budget = tokensOf(['h3', 'h4', 'h7', 'h8', 'h9', 'h10', 'h11']) + 30
    const r = await smartHistory({ budget, tokenizer, summarizer: fake, summaryTokens: 30 })(h)()
    expect(E.isRight(r) && r.right.report.kept).toContain('h7')
    expect(E.isRight(r) && r.right.report.tokensAfter).toBeLessThanOrEqual(budget)
  })

  it('keeps the current task even when tool turns are newer and bigger', async () => {
    const budget = h[11]!.tokens + h[5]!.tokens + 30
    const r = await smartHistory({ budget, tokenizer, summarizer: fake, summaryTokens: 30 })(h)()
    expect(E.isRight(r) && r.right.report.kept).toContain('h11')
  })

  it('without a working summarizer keeps its choice and reports the rest as dropped', async () => {
    const r = await smartHistory({ budget: tokensOf(['h8', 'h9', 'h10', 'h11']) + 60, summaryTokens: 60, tokenizer, summarizer: () => Promise.reject(new Error('offline')) })(h)()
    if (E.isLeft(r)) throw new Error(r.left.message)
    expect(r.right.report.fallback).toBe('summarizer failed: offline')
    expect(r.right.report.summarized).toEqual([])
    expect(r.right.report.dropped.every((d) => d.reason === 'summary_failed')).toBe(true)
    expect([...r.right.report.kept, ...r.right.report.dropped.map((d) => d.id)].sort()).toEqual([...idsOf(h)].sort())
  })
})
