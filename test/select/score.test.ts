import { describe, expect, it } from 'vitest'
import { packet } from '../../src/packet.js'
import { compositeScore, recency, relevance } from '../../src/select/score.js'
import { NOW } from '../helpers.js'

const evidence = (content: string, extra: object = {}) => packet({ type: 'evidence', content, ...extra }, NOW)

describe('relevance', () => {
  it("is the share of the query's keywords found in the content (the seed's overlap)", () => {
    const r = relevance('Why does the build fail on Mondays?')
    expect(r(evidence('The build fails every Monday.'))).toBeCloseTo(1)
    expect(r(evidence('The build is green.'))).toBeCloseTo(1 / 3)
    expect(r(evidence('Paris is sunny.'))).toBe(0)
  })

  it('matches Chinese keywords inside unsegmented content', () => {
    const r = relevance('今天天气怎么样？')
    expect(r(evidence('北京今天的天气晴朗。'))).toBe(1)
    expect(r(evidence('明天会下雨。'))).toBe(0)
  })

  it("uses a packet's own relevance (a retriever's score) when it has one", () => {
    expect(relevance('build failure')(evidence('no shared words', { relevance: 0.9 }))).toBe(0.9)
  })

  it('cannot judge a query without keywords', () => {
    expect(relevance('?!')(evidence('anything'))).toBeUndefined()
  })
})

describe('recency', () => {
  it('decays as e^(−Δt/τ) and treats the future as now', () => {
    const r = recency(NOW, 3600)
    expect(r(packet({ type: 'history', content: 'x', timestamp: NOW }, NOW))).toBe(1)
    expect(r(packet({ type: 'history', content: 'x', timestamp: NOW - 3600_000 }, NOW))).toBeCloseTo(Math.exp(-1))
    expect(r(packet({ type: 'history', content: 'x', timestamp: NOW + 5000 }, NOW))).toBe(1)
  })
})

describe('compositeScore', () => {
  it('weights relevance and recency as the seed does', () => {
    expect(compositeScore(0.7, 0.3)(0.5, 1)).toBeCloseTo(0.65)
    expect(compositeScore(0.7, 0.3)(undefined, 1)).toBeCloseTo(0.3)
  })
})
