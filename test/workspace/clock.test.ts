import { describe, expect, it } from 'vitest'
import { describeTime, instantOf, isoDate, utcOffset, wallTime } from '../../src/workspace/clock.js'
import { left, right } from './helpers.js'

describe('wallTime', () => {
  it('reads a moment on the wall clock of a time zone', () => {
    const t = right(wallTime(new Date('2026-07-02T01:15:30Z'), 'Asia/Shanghai'))
    expect(t).toEqual({ year: 2026, month: 7, day: 2, hour: 9, minute: 15, weekday: 'Thursday', offsetMinutes: 480, timeZone: 'Asia/Shanghai' })
    expect(describeTime(t)).toBe('2026-07-02 09:15 (Thursday) (Asia/Shanghai, UTC+08:00)')
    expect(isoDate(right(wallTime(new Date('2026-07-02T01:15:00Z'), 'America/New_York')))).toBe('2026-07-01')
    expect(utcOffset(right(wallTime(new Date('2026-01-15T12:00:00Z'), 'America/St_Johns')))).toBe('UTC-03:30')
    expect(describeTime(right(wallTime(new Date('2026-01-01T00:00:00Z'), 'UTC')))).toBe('2026-01-01 00:00 (Thursday) (UTC, UTC+00:00)')
  })

  it('rejects an unknown zone and an invalid date', () => {
    expect(left(wallTime(new Date(), 'Nowhere/City')).message).toMatch(/^config\.timeZone: is not a known IANA time zone/)
    expect(left(wallTime(new Date(Number.NaN), 'UTC')).message).toMatch(/^config\.now/)
  })
})

describe('instantOf', () => {
  it('turns a local YYYY-MM-DD HH:MM into an instant, across DST', () => {
    expect(instantOf('2026-07-02 09:15', 'Asia/Shanghai')).toBe(Date.parse('2026-07-02T01:15:00Z'))
    expect(instantOf('2026-07-02 09:15', 'Europe/Berlin')).toBe(Date.parse('2026-07-02T07:15:00Z'))
    expect(instantOf('2026-01-02 09:15', 'Europe/Berlin')).toBe(Date.parse('2026-01-02T08:15:00Z'))
    expect(instantOf('yesterday', 'UTC')).toBeUndefined()
  })
})
