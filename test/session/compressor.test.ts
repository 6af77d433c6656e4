/**
 * `historyCompressor`: a history strategy as the pipeline's compressor. A summarizing strategy
 * folds every turn the budget leaves out into its summary, so the build reads them all; a
 * truncating one needs only the turns that can fit.
 */
import { describe, expect, it } from 'vitest'
import type { ChatMessage } from '../../src/message.js'
import { build } from '../../src/pipeline.js'
import { layoutAware } from '../../src/select/layoutAware.js'
import { historyCompressor } from '../../src/session/compressor.js'
import { compressHistory } from '../../src/session/fit/compress.js'
import { smartHistory } from '../../src/session/fit/smart.js'
import { truncateHistory } from '../../src/session/fit/truncate.js'
import { sectioned } from '../../src/structure/sectioned.js'
import { gpt4o, NOW, run } from '../helpers.js'

/** `n` turns of about 60 tokens each, each saying its number. */
const turns = (n: number) => Array.from({ length: n }, (_, i) => ({ role: i % 2 === 0 ? ('user' as const) : ('assistant' as const), content: `turn ${i}: ${'word '.repeat(50)}` }))

/** A summarizer that records what it was given. */
const recording = () => {
  const seen: Array<ReadonlyArray<ChatMessage>> = []
  const summarizer = async (messages: ReadonlyArray<ChatMessage>): Promise<string> => {
    seen.push(messages)
    return `summary of ${messages.length} turns`
  }
  return { seen, summarizer }
}

const textOf = (m: ChatMessage): string => m.parts.map((p) => (p._tag === 'Text' ? p.text : '')).join('')

describe('historyCompressor', () => {
  it.each([
    ['compress', (budget: number, summarizer: ReturnType<typeof recording>['summarizer']) => compressHistory({ budget, tokenizer: gpt4o, summarizer })],
    ['smart', (budget: number, summarizer: ReturnType<typeof recording>['summarizer']) => smartHistory({ budget, tokenizer: gpt4o, summarizer })],
  ] as const)('with a summarizing strategy (%s), folds every turn the budget leaves out into the summary, none left unread', async (_, strategy) => {
    const history = turns(60)
    const { seen, summarizer } = recording()
    const r = await run(
      build(
        { query: 'go on', history },
        { tokenizer: gpt4o, now: NOW, config: { maxTokens: 1200, maxHistoryMessages: Number.POSITIVE_INFINITY }, selector: layoutAware(sectioned(), { history: 'all' }), compressor: historyCompressor((budget) => strategy(budget, summarizer)) },
      ),
    )
    expect(r.tokenCount).toBeLessThanOrEqual(r.budget.available)
    // every turn is kept or summarized: none is left out as not even read
    const left = r.excluded.filter((x) => x.id.startsWith('history:'))
    expect(left.filter((x) => x.reason !== 'summarized')).toEqual([])
    const kept = r.included.filter((id) => id.startsWith('history:')).map((id) => Number(id.slice('history:'.length)))
    const summarized = left.map((x) => Number(x.id.slice('history:'.length)))
    expect([...summarized, ...kept].sort((a, b) => a - b)).toEqual(history.map((_, i) => i))
    // the summarizer read them all, oldest first
    expect(seen.flat().map((m) => Number(/^turn (\d+):/.exec(textOf(m))?.[1]))).toEqual([...summarized].sort((a, b) => a - b))
    expect(summarized[0] === 0 || summarized.includes(0)).toBe(true)
  })

  it('says whether it summarizes, and a build reads back only as far as turns can fit when it does not', async () => {
    expect(historyCompressor((budget) => truncateHistory({ budget })).summarizes).toBe(true)
    const compressor = historyCompressor((budget) => truncateHistory({ budget }), undefined, { summarizes: false })
    expect(compressor.summarizes).toBe(false)
    const r = await run(
      build(
        { query: 'go on', history: turns(60) },
        { tokenizer: gpt4o, now: NOW, config: { maxTokens: 1200, maxHistoryMessages: Number.POSITIVE_INFINITY }, selector: layoutAware(sectioned(), { history: 'all' }), compressor },
      ),
    )
    // the oldest turns were never read: one range, not one exclusion per turn
    expect(r.excluded.find((x) => x.id.startsWith('history:0..'))?.reason).toBe('over_budget')
  })

  it('checks every turn it reads: a bad turn far back fails a summarizing build, naming it, and is never read by a truncating one', async () => {
    // the first turn is always read (it may open the window); the bad one is next
    const history = [{ role: 'user', content: 'hello' }, { role: 'user', content: 42 }, ...turns(60)] as never
    const options = { tokenizer: gpt4o, now: NOW, config: { maxTokens: 1200, maxHistoryMessages: Number.POSITIVE_INFINITY }, selector: layoutAware(sectioned(), { history: 'all' }) }
    const { summarizer } = recording()
    const summarizing = await build({ query: 'go on', history }, { ...options, compressor: historyCompressor((budget) => compressHistory({ budget, tokenizer: gpt4o, summarizer })) })()
    expect(summarizing._tag === 'Left' && summarizing.left.message).toMatch(/history\[1\]\.content/)
    const truncating = await build({ query: 'go on', history }, { ...options, compressor: historyCompressor((budget) => truncateHistory({ budget }), undefined, { summarizes: false }) })()
    expect(truncating._tag).toBe('Right')
  })

  it('with truncation, keeps the newest turns that fit and reports the rest as left out', async () => {
    const history = turns(60)
    const r = await run(
      build(
        { query: 'go on', history },
        { tokenizer: gpt4o, now: NOW, config: { maxTokens: 1200, maxHistoryMessages: Number.POSITIVE_INFINITY }, selector: layoutAware(sectioned(), { history: 'all' }), compressor: historyCompressor((budget) => truncateHistory({ budget })) },
      ),
    )
    expect(r.tokenCount).toBeLessThanOrEqual(r.budget.available)
    const kept = r.included.filter((id) => id.startsWith('history:'))
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.at(-1)).toBe('history:59')
    // every turn accounted for, one by one or in ranges
    const ranges = r.excluded.filter((x) => x.id.startsWith('history:')).map((x) => x.id.slice('history:'.length).split('..').map(Number))
    const count = ranges.reduce((n, [from, to]) => n + ((to ?? from!) - from! + 1), 0)
    expect(count + kept.length).toBe(60)
  })
})
