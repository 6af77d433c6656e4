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
      types: {},
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

  describe('types (per-type shares and scoring)', () => {
    it('takes floors, caps, decay and weights by packet type', () => {
      const types = { history: { floor: 0.3, recencyTau: 600 }, evidence: { cap: 0.4, relevanceWeight: 1, recencyWeight: 0 } }
      expect(right(makeConfig({ types })).types).toEqual(types)
    })

    it('accepts floors that sum to exactly 1 in decimal', () => {
      expect(right(makeConfig({ types: { history: { floor: 0.1 }, evidence: { floor: 0.2 }, custom: { floor: 0.7 } } })).types.custom?.floor).toBe(0.7)
    })

    it('rejects floors summing over 100%, naming every floor field', () => {
      const e = left(makeConfig({ types: { history: { floor: 0.7 }, evidence: { floor: 0.5 } } }))
      expect(e).toMatchObject({ _tag: 'ConfigError', field: 'types' })
      expect(e.message).toBe(
        'config.types: the floors sum to 1.2 (types.history.floor 0.7 + types.evidence.floor 0.5); they must not exceed 1 (got {"history":{"floor":0.7},"evidence":{"floor":0.5}})',
      )
    })

    it('names the nested field of a bad value, an unknown type or an unknown setting', () => {
      expect(left(makeConfig({ types: { history: { floor: 1.5 } } })).message).toBe('config.types.history.floor: must be in [0, 1] (got 1.5)')
      expect(left(makeConfig({ types: { evidence: { cap: 0 } } })).message).toBe('config.types.evidence.cap: must be in (0, 1] (got 0)')
      expect(left(makeConfig({ types: { evidence: { floor: 0.5, cap: 0.4 } } })).message).toBe('config.types.evidence.floor: must not exceed types.evidence.cap (0.4) (got 0.5)')
      expect(left(makeConfig({ types: { evidense: { cap: 0.4 } } as never })).message).toMatch(/^config\.types\.evidense: unknown packet type; known types: instructions, task/)
      expect(left(makeConfig({ types: { history: { flor: 0.3 } } as never })).message).toMatch(/^config\.types\.history\.flor: unknown field; known fields: floor, cap/)
      expect(left(makeConfig({ types: { history: { recencyTau: 0 } } })).field).toBe('types.history.recencyTau')
      expect(left(makeConfig({ types: [] as never })).field).toBe('types')
    })
  })
})
