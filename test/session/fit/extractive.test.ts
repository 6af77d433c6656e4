import { describe, expect, it } from 'vitest'
import { messageText } from '../../../src/message.js'
import { extractiveSummarizer } from '../../../src/session/fit/extractive.js'
import { contextOf, tokenizer } from '../helpers.js'
import { conversation } from './histories.js'
import { fixture } from '../../shared.js'

const messages = conversation().map((i) => i.message)

describe('extractiveSummarizer', () => {
  const summarize = extractiveSummarizer(tokenizer)

  it('stays within the token target and is deterministic', async () => {
    for (const target of [10, 40, 120]) {
      const s = await summarize(messages, target)
      expect(tokenizer.count(s)).toBeLessThanOrEqual(target)
      expect(await summarize(messages, target)).toBe(s)
    }
  })

  it('prefers specific sentences over small talk and keeps them in their original order', async () => {
    const s = await summarize(messages, 30)
    const lines = s.split('\n')
    expect(lines.length).toBeGreaterThan(1)
    expect(s).toContain('left-pad')
    expect(s).not.toContain('nice weather')
    const order = lines.map((l) => messages.findIndex((m) => messageText(m).includes(l.replace(/^\w+: /, '').replace(/…$/, ''))))
    expect(order.every((o) => o >= 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    expect(lines.every((l) => /^(user|assistant|tool): /.test(l))).toBe(true)
  })

  it('summarizes a real session within a realistic target, in order', async () => {
    const c = await contextOf(fixture('pi', 'large-session.jsonl'))
    const older = c.messages.slice(0, 600).map((m) => m.message)
    const s = await summarize(older, 800)
    const n = tokenizer.count(s)
    expect(n).toBeLessThanOrEqual(800)
    expect(n).toBeGreaterThan(600)
    const positions = s.split('\n').map((l) => older.findIndex((m) => messageText(m).replace(/\s+/g, ' ').includes(l.replace(/^\w+: /, '').replace(/^called /, '').replace(/…$/, ''))))
    expect(positions.every((p) => p >= 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
  })

  it('cuts an overlong sentence with the one text cutter: at a word, never inside a character', async () => {
    const words = Array.from({ length: 80 }, (_, i) => `deploy${i}😀`).join(' ')
    const s = await extractiveSummarizer(tokenizer, { maxSentenceChars: 98 })([{ role: 'user', parts: [{ _tag: 'Text', text: words }] }], 500)
    const kept = s.replace(/^user: /, '')
    expect(kept.length).toBeLessThanOrEqual(98)
    expect(kept.endsWith('😀…')).toBe(true)
    expect(words.startsWith(kept.slice(0, -1))).toBe(true)
    expect(/\p{Cs}/u.test(s)).toBe(false) // no lone surrogate
  })

  it('returns an empty summary for nothing to summarize', async () => {
    expect(await summarize([], 100)).toBe('')
  })
})
