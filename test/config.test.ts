import { describe, expect, it } from 'vitest'
import { availableTokens, DEFAULT_CONFIG, makeConfig } from '../src/config.js'
import { left, right } from './helpers.js'

describe('makeConfig', () => {
  it("has the seed's defaults", () => {
    expect(right(makeConfig())).toEqual({
      maxTokens: 8000,
      reserveRatio: 0.15,
      minRelevance: 0.3,
      relevanceWeight: 0.7,
      recencyWeight: 0.3,
      recencyTau: 3600,
      maxHistoryMessages: 10,
      maxItemShare: 0.25,
      enableCompression: true,
      enableMMR: false,
      mmrLambda: 0.7,
      locale: 'en',
    })
    expect(availableTokens(DEFAULT_CONFIG)).toBe(6800)
  })

  it('overrides fields and keeps the rest', () => {
    const c = right(makeConfig({ maxTokens: 16000, minRelevance: 0.5, maxHistoryMessages: Infinity }))
    expect(c.maxTokens).toBe(16000)
    expect(c.minRelevance).toBe(0.5)
    expect(c.maxHistoryMessages).toBe(Infinity)
    expect(c.recencyTau).toBe(3600)
    expect(availableTokens(c)).toBe(13600)
  })

  it.each([
    [{ maxTokens: -1 }, 'maxTokens', -1],
    [{ maxTokens: 10.5 }, 'maxTokens', 10.5],
    [{ maxTokens: Number.NaN }, 'maxTokens', Number.NaN],
    [{ reserveRatio: 1 }, 'reserveRatio', 1],
    [{ reserveRatio: -0.1 }, 'reserveRatio', -0.1],
    [{ minRelevance: 2 }, 'minRelevance', 2],
    [{ relevanceWeight: Number.POSITIVE_INFINITY }, 'relevanceWeight', Number.POSITIVE_INFINITY],
    [{ recencyWeight: Number.NaN }, 'recencyWeight', Number.NaN],
    [{ recencyTau: 0 }, 'recencyTau', 0],
    [{ maxHistoryMessages: -3 }, 'maxHistoryMessages', -3],
    [{ mmrLambda: 1.5 }, 'mmrLambda', 1.5],
  ])('rejects %j naming the field and the value', (overrides, field, value) => {
    const e = left(makeConfig(overrides))
    expect(e.field).toBe(field)
    expect(Object.is(e.value, value)).toBe(true)
    expect(e.message).toContain(`config.${field}`)
    expect(e.message).toContain(String(value))
  })

  it('rejects unknown fields instead of ignoring a typo', () => {
    const e = left(makeConfig({ maxToken: 100 } as never))
    expect(e.field).toBe('maxToken')
    expect(e.message).toMatch(/unknown field/)
  })

  it('rejects weights that are both zero and budgets that leave nothing', () => {
    expect(left(makeConfig({ relevanceWeight: 0, recencyWeight: 0 })).field).toBe('relevanceWeight')
    expect(left(makeConfig({ maxTokens: 1, reserveRatio: 0.5 })).field).toBe('maxTokens')
  })
})
