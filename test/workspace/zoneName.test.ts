import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { intlZoneLabel } from '../../src/workspace/clock.js'
import { tzifLabel, zoneLabel } from '../../src/workspace/zoneName.js'
import { withTempDir } from './helpers.js'

const WINTER = new Date('2026-01-15T12:00:00Z')
const SUMMER = new Date('2026-07-15T12:00:00Z')

describe("zoneLabel: Python's %Z", () => {
  // the zone database ships with every Linux and macOS; CI has it
  it.skipIf(!existsSync('/usr/share/zoneinfo/Asia/Shanghai'))('reads the abbreviation in force from the system zone database', async () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ['Asia/Shanghai', 'CST', 'CST'],
      ['Europe/Berlin', 'CET', 'CEST'],
      ['America/New_York', 'EST', 'EDT'],
      ['Asia/Kolkata', 'IST', 'IST'],
      ['America/Sao_Paulo', '-03', '-03'],
      ['UTC', 'UTC', 'UTC'],
    ]
    for (const [zone, winter, summer] of cases) {
      expect([zone, await zoneLabel(WINTER, zone), await zoneLabel(SUMMER, zone)]).toEqual([zone, winter, summer])
    }
    // before the zone's last transition, from the transition table rather than the footer
    expect(await zoneLabel(new Date('1990-07-15T00:00:00Z'), 'Asia/Shanghai')).toBe('CDT')
  })

  it('falls back to Intl where there is no database, and never reads outside it', () =>
    withTempDir(async (empty) => {
      expect(await zoneLabel(WINTER, 'Asia/Shanghai', empty)).toBe('+08')
      expect(await zoneLabel(WINTER, 'America/Los_Angeles', empty)).toBe('PST')
      expect(await zoneLabel(WINTER, 'Asia/Kolkata', empty)).toBe('+0530')
      expect(await zoneLabel(WINTER, '../../etc/passwd')).toBe('UTC')
    }))

  it('reads no label from bytes that are not a TZif file', () => {
    expect(tzifLabel(new TextEncoder().encode('not a zone file at all, really not'), WINTER, 'UTC')).toBeUndefined()
    expect(intlZoneLabel(WINTER, 'America/St_Johns')).toBe('-0330')
  })
})
