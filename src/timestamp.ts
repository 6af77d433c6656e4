/**
 * Timestamps as people write them, read the same way wherever gssc reads one (packets,
 * history turns, CLI files, session files): epoch milliseconds (a JSON number), or an ISO 8601
 * date or date-time string.
 *
 * The ISO reader is strict on purpose: `Date.parse` also takes `"March 7"` or `"2026/11/22"`
 * (differently per engine) and rolls `2026-02-30` over to March 2, so a typo would become a
 * wrong but plausible time. Accepted: `YYYY-MM-DD`, optionally followed by `T` (or a space)
 * and `hh:mm`, `hh:mm:ss` or `hh:mm:ss.fff` (any number of fraction digits), optionally
 * followed by `Z` or an offset `±hh:mm` / `±hhmm` / `±hh`. A time without an offset is read as
 * UTC, so the same file gives the same times on every machine (ECMAScript would read it in
 * the machine's local zone).
 *
 * @module
 */
import { show } from './error.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What a timestamp may be written as. */
export type TimestampInput = number | string

/** The largest distance from the epoch a JavaScript date can hold, in milliseconds. */
const MAX_MS = 8.64e15

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?)?$/

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const leap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * Reads an ISO 8601 date or date-time string as epoch milliseconds; undefined when the text
 * is not one (or names a day that does not exist).
 *
 * @example
 * isoMs('2026-11-22T06:00:00Z') // 1795327200000
 * isoMs('2026-02-30')           // undefined
 * @category utils
 * @since 0.1.0
 */
export const isoMs = (text: string): number | undefined => {
  const m = ISO.exec(text.trim())
  if (m === null) return undefined
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number]
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && leap(year) ? 29 : DAYS[month - 1]!)) return undefined
  if (hour > 23 || minute > 59 || second > 60) return undefined
  const fraction = m[7] === undefined ? 0 : Number(`0.${m[7]}`) * 1000
  let offset = 0
  if (m[9] !== undefined) {
    const oh = Number(m[10])
    const om = Number(m[11] ?? 0)
    if (oh > 23 || om > 59) return undefined
    offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000
  }
  const ms = Date.UTC(year, month - 1, day, hour, minute, second) + Math.floor(fraction) - offset
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_MS ? ms : undefined
}

/**
 * A timestamp as epoch milliseconds: a finite number as it is, an ISO 8601 string read by
 * {@link isoMs}; undefined for anything else.
 *
 * @example
 * timestampMs(1795327200000)          // 1795327200000
 * timestampMs('2026-11-22T06:00:00Z') // 1795327200000
 * timestampMs('yesterday')            // undefined
 * @category utils
 * @since 0.1.0
 */
export const timestampMs = (v: unknown): number | undefined =>
  typeof v === 'number' ? (Number.isFinite(v) && Math.abs(v) <= MAX_MS ? v : undefined) : typeof v === 'string' ? isoMs(v) : undefined

/**
 * What is wrong with a timestamp value, for an error naming its field; undefined when it is
 * readable.
 *
 * @category utils
 * @since 0.1.0
 */
export const timestampProblem = (v: unknown): string | undefined =>
  timestampMs(v) === undefined
    ? `must be epoch milliseconds (a number) or an ISO 8601 date-time such as "2026-11-22T06:00:00Z" (got ${show(v)})`
    : undefined
