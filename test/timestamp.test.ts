import { describe, expect, it } from 'vitest'
import { isoMs, timestampMs, timestampProblem } from '../src/timestamp.js'

describe('timestamps', () => {
  it('reads ISO 8601 dates and date-times, with or without an offset (none means UTC)', () => {
    const six = Date.UTC(2026, 10, 22, 6)
    expect(isoMs('2026-11-22T06:00:00Z')).toBe(six)
    expect(isoMs('2026-11-22t06:00:00z')).toBe(six)
    expect(isoMs('2026-11-22T06:00:00')).toBe(six)
    expect(isoMs('2026-11-22 06:00')).toBe(six)
    expect(isoMs('2026-11-22T14:00:00+08:00')).toBe(six)
    expect(isoMs('2026-11-22T14:00+0800')).toBe(six)
    expect(isoMs('2026-11-22T01:00:00-05')).toBe(six)
    expect(isoMs('2026-11-22T06:00:00.5Z')).toBe(six + 500)
    expect(isoMs('2026-11-22T06:00:00,25Z')).toBe(six + 250)
    expect(isoMs('2026-11-22')).toBe(Date.UTC(2026, 10, 22))
    expect(isoMs('2024-02-29')).toBe(Date.UTC(2024, 1, 29))
  })

  it('refuses what is not a real ISO time, where Date.parse guesses or rolls over', () => {
    for (const text of ['2026-02-30', '2025-02-29', '2026-13-01', '2026-11-22T24:00:00Z', '2026-11-22T06:61Z', 'March 7, 2026', '2026/11/22', '1732255200000', '', 'T06:00', '2026-11-22T06:00:00+25:00'])
      expect([text, isoMs(text)]).toEqual([text, undefined])
  })

  it('takes finite numbers as epoch milliseconds and nothing else', () => {
    expect(timestampMs(0)).toBe(0)
    expect(timestampMs(1_795_327_200_000)).toBe(1_795_327_200_000)
    for (const v of [Number.NaN, Infinity, 1e300, null, true, {}, [2026]]) expect(timestampMs(v)).toBeUndefined()
    expect(timestampProblem('soon')).toBe('must be epoch milliseconds (a number) or an ISO 8601 date-time such as "2026-11-22T06:00:00Z" (got "soon")')
  })
})
