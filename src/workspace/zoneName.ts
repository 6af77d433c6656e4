/**
 * The time-zone label Python's `time.strftime("%Z")` prints (`CST` for Asia/Shanghai,
 * `CEST` for Europe/Berlin in summer, `+0530`-style numbers where the zone has no letters).
 * nanobot v0.1.4 writes it into its prompt. Python takes it from the C library, which reads
 * the system's compiled time-zone file (TZif, RFC 8536); so does this module, from
 * `$TZDIR` or `/usr/share/zoneinfo`. Intl alone cannot do it: ICU names Asia/Shanghai
 * `GMT+8`.
 *
 * Where no file exists (Windows), the label falls back to `intlZoneLabel`.
 *
 * @module
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { intlZoneLabel, wallTime } from './clock.js'

/** A zone name that is a plain relative path of the zone database (no `..`, no absolute path). */
const ZONE_PATH = /^[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)*$/

/**
 * `%Z` for `date` in `timeZone`, read from the zone database on disk when it is there.
 *
 * @example
 * await zoneLabel(new Date('2026-11-22T01:15:00Z'), 'Asia/Shanghai') // 'CST'
 * @category utils
 */
export const zoneLabel = async (date: Date, timeZone: string, zoneinfo = process.env['TZDIR'] || '/usr/share/zoneinfo'): Promise<string> => {
  if (ZONE_PATH.test(timeZone)) {
    try {
      const fromFile = tzifLabel(new Uint8Array(await readFile(join(zoneinfo, timeZone))), date, timeZone)
      if (fromFile !== undefined && fromFile !== '') return fromFile
    } catch {
      // no database on this system: Intl below
    }
  }
  return intlZoneLabel(date, timeZone)
}

/** The abbreviation in force at `date` in a TZif file, or `undefined` when the file is not one. */
export const tzifLabel = (bytes: Uint8Array, date: Date, timeZone: string): string | undefined => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const header = (at: number) =>
    String.fromCharCode(...bytes.subarray(at, at + 4)) !== 'TZif'
      ? undefined
      : { version: bytes[at + 4]!, counts: [0, 1, 2, 3, 4, 5].map((i) => view.getUint32(at + 20 + 4 * i)) as [number, number, number, number, number, number] }
  const v1 = header(0)
  if (v1 === undefined) return undefined
  const blockSize = (c: ReadonlyArray<number>, timeSize: number) => c[3]! * timeSize + c[3]! + c[4]! * 6 + c[5]! + c[2]! * (timeSize + 4) + c[1]! + c[0]!
  let at = 44
  let timeSize = 4
  let counts = v1.counts
  if (v1.version >= 0x32) {
    // version 2+: skip the 32-bit block; the 64-bit one and the footer follow
    const v2 = header(44 + blockSize(v1.counts, 4))
    if (v2 === undefined) return undefined
    at = 44 + blockSize(v1.counts, 4) + 44
    timeSize = 8
    counts = v2.counts
  }
  const [, , , timecnt, typecnt, charcnt] = counts
  const times = Array.from({ length: timecnt }, (_, i) => (timeSize === 8 ? Number(view.getBigInt64(at + 8 * i)) : view.getInt32(at + 4 * i)))
  const indices = bytes.subarray(at + timecnt * timeSize, at + timecnt * timeSize + timecnt)
  const typesAt = at + timecnt * (timeSize + 1)
  const charsAt = typesAt + typecnt * 6
  const abbreviation = (type: number): string => {
    const start = charsAt + bytes[typesAt + type * 6 + 5]!
    const end = bytes.indexOf(0, start)
    return String.fromCharCode(...bytes.subarray(start, end < 0 || end > charsAt + charcnt ? charsAt + charcnt : end))
  }
  const t = Math.floor(date.getTime() / 1000)
  const last = times.findLastIndex((x) => x <= t)
  const footer = timeSize === 8 ? footerNames(bytes.subarray(at + blockSize(counts, 8))) : undefined
  if ((last === times.length - 1 || times.length === 0) && footer !== undefined) {
    const wall = wallTime(date, timeZone)
    // POSIX offsets count west of UTC: "CST-8" is UTC+8
    const isStd = footer.dst === undefined || E.isLeft(wall) || wall.right.offsetMinutes === -footer.stdOffsetMinutes
    return isStd ? footer.std : footer.dst
  }
  return typecnt === 0 ? undefined : abbreviation(last < 0 ? 0 : indices[last]!)
}

/** The names and standard offset of a TZif footer's POSIX TZ string (`\nCST-8\n`, `\n<+0530>-5:30\n`). */
const footerNames = (tail: Uint8Array): { readonly std: string; readonly stdOffsetMinutes: number; readonly dst?: string } | undefined => {
  const text = String.fromCharCode(...tail)
  const m = /^\n(<[^>]*>|[A-Za-z]{3,})([+-]?\d{1,2})(?::(\d{2}))?(?::\d{2})?(<[^>]*>|[A-Za-z]{3,})?/.exec(text)
  if (m === null) return undefined
  const name = (s: string): string => s.replace(/^<|>$/g, '')
  const hours = Number(m[2])
  const minutes = Number(m[3] ?? 0) * (m[2]!.startsWith('-') ? -1 : 1)
  return { std: name(m[1]!), stdOffsetMinutes: hours * 60 + minutes, ...(m[4] === undefined ? {} : { dst: name(m[4]) }) }
}
