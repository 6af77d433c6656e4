import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { num } from '../../src/inspect/format.js'
import { seeded } from '../prop.js'

// num groups integers itself (no Intl at import or on the common path); it must write exactly
// what Intl.NumberFormat('en-US') writes, for every number
const INTL = new Intl.NumberFormat('en-US')

describe('num', () => {
  it('writes what Intl.NumberFormat(en-US) writes, for every integer', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.integer({ min: -1e6, max: 1e6 })), (n) => {
        expect(num(n)).toBe(INTL.format(n))
      }),
      seeded(1000),
    )
  })

  it('writes what Intl.NumberFormat(en-US) writes, for every double (fractions, -0, NaN, infinities, huge ones)', () => {
    fc.assert(
      fc.property(fc.double(), (n) => {
        expect(num(n)).toBe(INTL.format(n))
      }),
      seeded(1000),
    )
    for (const n of [0, -0, 999, 1000, -1000, 123456789, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, 0.5, 1234.5678, NaN, Infinity, -Infinity])
      expect(num(n), String(n)).toBe(INTL.format(n))
  })
})
