/**
 * The few Python semantics nanobot's prompt depends on, so gssc reproduces them exactly:
 * `str.strip()` (its whitespace set differs from JavaScript's `trim`: it includes the
 * information separators U+001C–U+001F and U+0085, and excludes U+FEFF) and truthiness of
 * JSON values.
 *
 * @module
 */

/** Python's `str.isspace()` characters. */
const SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
const EDGES = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, 'g')

/**
 * Python's `s.strip()`, or `s.strip(chars)` when `chars` is given.
 *
 * @example
 * pyStrip('\u001c x \n') // 'x'
 * pyStrip('"quoted\'', '"\'') // 'quoted'
 * @category utils
 */
export const pyStrip = (s: string, chars?: string): string => {
  if (chars === undefined) return s.replace(EDGES, '')
  let start = 0
  let end = s.length
  while (start < end && chars.includes(s[start]!)) start++
  while (end > start && chars.includes(s[end - 1]!)) end--
  return s.slice(start, end)
}

/**
 * Python's truthiness of a value decoded from JSON or YAML: `false`, `0`, `''`, `null`,
 * empty lists and mappings are false; everything else (the string `"false"` too) is true.
 *
 * @example
 * pyTruthy('false') // true
 * pyTruthy([])      // false
 * @category utils
 */
export const pyTruthy = (v: unknown): boolean => {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false
  if (Array.isArray(v)) return v.length > 0
  if (typeof v === 'object') return Object.keys(v).length > 0
  return true
}
