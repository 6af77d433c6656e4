import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { messageText } from '../../../src/message.js'
import { compressHistory } from '../../../src/session/fit/compress.js'
import type { Summarizer } from '../../../src/session/fit/model.js'
import { EARLIER_WRAPPER } from '../../../src/session/fit/summary.js'
import { tokenizer } from '../helpers.js'
import { conversation, idsOf, items, paired, system, user } from './histories.js'

const h = conversation()
const total = h.reduce((n, i) => n + i.tokens, 0)

/** A deterministic fake: says how many turns it saw and the target it was given. */
const fake: Summarizer = async (messages, target) => `${messages.length} turns, target ${target}`

describe('compress', () => {
  it('summarizes the older part and keeps the recent part verbatim, in order', async () => {
    const budget = Math.floor(total * 0.6)
    const r = await compressHistory({ budget, tokenizer, summarizer: fake, summaryTokens: 60 })(h)()
    if (E.isLeft(r)) throw new Error(r.left.message)
    const { items: out, report } = r.right
    const summary = out[0]!
    expect(summary.kind).toBe('summary')
    expect(summary.message.role).toBe('user')
    const target = 60 - tokenizer.count(EARLIER_WRAPPER.prefix + EARLIER_WRAPPER.suffix)
    expect(messageText(summary.message)).toBe(`${EARLIER_WRAPPER.prefix}${report.summarized.length} turns, target ${target}${EARLIER_WRAPPER.suffix}`)
    expect([...report.summarized, ...report.kept]).toEqual(idsOf(h))
    expect(idsOf(out.slice(1))).toEqual(report.kept)
    expect(report.summary).toEqual({ id: `summary:h0`, tokens: summary.tokens, index: 0, truncated: false })
    expect(report.tokensAfter).toBeLessThanOrEqual(budget)
    expect(report.tokensAfter).toBe(out.reduce((n, i) => n + i.tokens, 0))
    expect(paired(out)).toBe(true)
  })

  it('keeps at most keepRecentCount turns verbatim', async () => {
    const r = await compressHistory({ budget: total, tokenizer, summarizer: fake, keepRecentCount: 4 })(h)()
    expect(E.isRight(r) && r.right.report.kept).toEqual(['h8', 'h9', 'h10', 'h11'])
  })

  it('cuts a summary longer than its allowance on a token boundary', async () => {
    const verbose: Summarizer = async () => 'The build failed because a module was missing. '.repeat(200)
    const r = await compressHistory({ budget: Math.floor(total * 0.6), tokenizer, summarizer: verbose, summaryTokens: 40 })(h)()
    if (E.isLeft(r)) throw new Error(r.left.message)
    expect(r.right.report.summary?.truncated).toBe(true)
    expect(r.right.items[0]!.tokens).toBeLessThanOrEqual(40)
    expect(tokenizer.count(messageText(r.right.items[0]!.message))).toBe(r.right.items[0]!.tokens)
    expect(messageText(r.right.items[0]!.message)).toMatch(/…\n<\/summary>$/)
  })

  it('falls back to truncation with the full budget when the summarizer fails, and says why', async () => {
    const failing: Summarizer = async () => {
      throw new Error('rate limited')
    }
    const budget = Math.floor(total * 0.6)
    const r = await compressHistory({ budget, tokenizer, summarizer: failing })(h)()
    if (E.isLeft(r)) throw new Error(r.left.message)
    expect(r.right.report.fallback).toBe('summarizer failed: rate limited')
    expect(r.right.items.every((i) => i.kind !== 'summary')).toBe(true)
    expect(r.right.report.dropped.every((d) => d.reason === 'summary_failed')).toBe(true)
    expect(r.right.report.tokensAfter).toBeLessThanOrEqual(budget)
    const strict = await compressHistory({ budget, tokenizer, summarizer: failing, onSummarizerError: 'fail' })(h)()
    expect(E.isLeft(strict) && strict.left).toEqual({ _tag: 'GatherError', gatherer: 'history summarizer', message: 'gatherer "history summarizer" failed: summarizer failed: rate limited' })
  })

  it('treats an empty summary as a failure', async () => {
    const r = await compressHistory({ budget: Math.floor(total * 0.6), tokenizer, summarizer: async () => '  ' })(h)()
    expect(E.isRight(r) && r.right.report.fallback).toBe('summarizer returned an empty summary')
  })

  it('works offline with the extractive default, and pins system turns before the summary', async () => {
    const xs = items([system('You are a build assistant.'), ...h.map((i) => i.message)])
    const budget = Math.floor(total * 0.5)
    const r = await compressHistory({ budget, tokenizer, summaryTokens: 50 })(xs)()
    if (E.isLeft(r)) throw new Error(r.left.message)
    expect(r.right.items.map((i) => i.kind).slice(0, 2)).toEqual(['message', 'summary'])
    expect(r.right.items[0]!.message.role).toBe('system')
    expect(r.right.report.summary?.index).toBe(1)
    expect(messageText(r.right.items[1]!.message)).toContain('user: Our nightly build fails.')
    expect(r.right.report.tokensAfter).toBeLessThanOrEqual(budget)
  })

  it('does not call the summarizer when everything fits', async () => {
    let calls = 0
    const counting: Summarizer = async (m, t) => {
      calls++
      return fake(m, t)
    }
    const r = await compressHistory({ budget: total, tokenizer, summarizer: counting })(items([user('hi')]))()
    expect(E.isRight(r) && r.right.report.kept).toEqual(['h0'])
    expect(calls).toBe(0)
  })
})
