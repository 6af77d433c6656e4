/**
 * Number formats shared by the terminal table, the progress line and the HTML report. The
 * locale is fixed so output does not change with the machine it runs on.
 *
 * @module
 */

/**
 * `12345` → `12,345`: what `Intl.NumberFormat('en-US')` writes. Integers (all a report
 * holds) are grouped here: the first `Intl` number format of a process loads ICU's data
 * (56-87 ms on a loaded 2-core VM, Node 20; the CLI paid it on import, as this module made
 * one at the top level). Other numbers (fractions, −0,
 * NaN, ±∞, unsafe integers) go through `toLocaleString('en-US')`, the same format.
 *
 * @category utils
 */
export const num = (n: number): string => (Number.isSafeInteger(n) && !Object.is(n, -0) ? String(n).replace(THOUSANDS, ',') : n.toLocaleString('en-US'))

// the places between digits with a multiple of three digits after them
const THOUSANDS = /\B(?=(?:\d{3})+$)/g

/** `0.1234` → `12.3%`. @category utils */
export const pct = (f: number): string => `${(f * 100).toFixed(1)}%`
