/**
 * Wall-clock time in a named time zone, from an injected `Date`: the prompt's "Current Time"
 * line, the name of today's note, the instants of history timestamps, and a zone label when
 * the system's zone database is not at hand (`zoneName.ts` reads it). Intl does the zone
 * arithmetic, so no time-zone database ships with gssc.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { configError, type ConfigError } from '../error.js'

/** A moment as a clock on the wall of `timeZone` shows it. */
export interface WallTime {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  /** English weekday name, e.g. `Thursday`. */
  readonly weekday: string
  /** Minutes east of UTC at that moment (480 for Asia/Shanghai). */
  readonly offsetMinutes: number
  readonly timeZone: string
}

/** The time zone the process runs in. */
export const systemTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone

/**
 * `date` on the wall clock of `timeZone`; an unknown zone is a config error.
 *
 * @example
 * wallTime(new Date('2026-07-02T01:15:00Z'), 'Asia/Shanghai')
 * // Right({ year: 2026, month: 7, day: 2, hour: 9, minute: 15, weekday: 'Thursday', offsetMinutes: 480, … })
 * @category constructors
 */
export const wallTime = (date: Date, timeZone: string): E.Either<ConfigError, WallTime> => {
  if (Number.isNaN(date.getTime())) return E.left(configError('now', String(date), 'the clock returned an invalid date'))
  let format: Intl.DateTimeFormat
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'long',
    })
  } catch {
    return E.left(configError('timeZone', timeZone, 'is not a known IANA time zone (e.g. "Asia/Shanghai", "UTC")'))
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]))
  const n = (key: string): number => Number(parts[key])
  const local = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'))
  const utc = Math.floor(date.getTime() / 1000) * 1000
  return E.right({
    year: n('year'),
    month: n('month'),
    day: n('day'),
    hour: n('hour'),
    minute: n('minute'),
    weekday: parts.weekday ?? '',
    offsetMinutes: Math.round((local - utc) / 60_000),
    timeZone,
  })
}

const pad = (v: number, width = 2): string => String(v).padStart(width, '0')

/**
 * `YYYY-MM-DD`: the name of the day's note.
 *
 * @category utils
 */
export const isoDate = (t: WallTime): string => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`

/**
 * `UTC+08:00`, `UTC-03:30`, `UTC+00:00`.
 *
 * @category utils
 */
export const utcOffset = (t: WallTime): string => {
  const abs = Math.abs(t.offsetMinutes)
  return `UTC${t.offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
}

/**
 * The prompt's time line: `2026-07-02 09:15 (Thursday) (Asia/Shanghai, UTC+08:00)`.
 *
 * @category utils
 */
export const describeTime = (t: WallTime): string =>
  `${isoDate(t)} ${pad(t.hour)}:${pad(t.minute)} (${t.weekday}) (${t.timeZone}, ${utcOffset(t)})`

/**
 * The instant of a `YYYY-MM-DD HH:MM` wall-clock time in `timeZone`, or `undefined` when
 * the text is not such a time. (During a DST fold the earlier instant is taken.)
 *
 * @example
 * instantOf('2026-07-02 09:15', 'Asia/Shanghai') // Date.parse('2026-07-02T01:15:00Z')
 * @category utils
 */
export const instantOf = (timestamp: string, timeZone: string): number | undefined => {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})/.exec(timestamp)
  if (m === null) return undefined
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]))
  return Number.isNaN(asUtc) ? undefined : zonedInstant(asUtc, timeZone)
}

/**
 * The instant at which the clocks of `timeZone` show the wall time `asUtc` (that wall time
 * read as if it were UTC, in epoch ms), or `undefined` for an unknown zone. During a DST
 * fold the earlier instant is taken.
 *
 * @example
 * zonedInstant(Date.UTC(2026, 10, 22, 9, 15), 'Asia/Shanghai') // Date.UTC(2026, 10, 22, 1, 15)
 * @category utils
 */
export const zonedInstant = (asUtc: number, timeZone: string): number | undefined => {
  // the offset at the guess, then at the corrected instant (they differ only near a DST change)
  const first = wallTime(new Date(asUtc), timeZone)
  if (E.isLeft(first)) return undefined
  const guess = asUtc - first.right.offsetMinutes * 60_000
  const second = wallTime(new Date(guess), timeZone)
  return E.isLeft(second) ? guess : asUtc - second.right.offsetMinutes * 60_000
}

/**
 * The label from Intl alone: its short name when that is letters (`UTC`, `PST`), else the
 * offset as tzdata writes numeric abbreviations (`+08`, `+0530`, `-03`).
 *
 * @example
 * intlZoneLabel(new Date('2026-11-22T01:15:00Z'), 'Asia/Kolkata') // '+0530'
 * @category utils
 */
export const intlZoneLabel = (date: Date, timeZone: string): string => {
  try {
    const short = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(date).find((p) => p.type === 'timeZoneName')?.value
    if (short !== undefined && /^[A-Z]{3,5}$/.test(short)) return short
  } catch {
    return 'UTC'
  }
  const wall = wallTime(date, timeZone)
  return E.isLeft(wall) ? 'UTC' : numericLabel(wall.right.offsetMinutes)
}

const numericLabel = (minutes: number): string => {
  const abs = Math.abs(minutes)
  const hh = String(Math.floor(abs / 60)).padStart(2, '0')
  return `${minutes < 0 ? '-' : '+'}${hh}${abs % 60 === 0 ? '' : String(abs % 60).padStart(2, '0')}`
}
