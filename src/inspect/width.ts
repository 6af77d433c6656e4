/**
 * Terminal text: display widths (a CJK character takes two columns, a combining mark none),
 * cutting and padding to a width, word wrap, and neutralising control characters so a
 * packet id cannot move the cursor or recolour the terminal.
 *
 * @module
 */
import { controlPicture } from '../internal/controlPicture.js'

const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
]

const ZERO = /^[\p{Mn}\p{Me}\u200b-\u200f\ufe00-\ufe0f]$/u

/** Columns one code point takes. @category utils */
export const charWidth = (ch: string): number => {
  const cp = ch.codePointAt(0) ?? 0
  if (ZERO.test(ch)) return 0
  return WIDE.some(([lo, hi]) => cp >= lo && cp <= hi) ? 2 : 1
}

/** Columns a string takes (ANSI escape sequences excluded). @category utils */
export const width = (s: string): number => {
  let w = 0
  for (const ch of stripAnsi(s)) w += charWidth(ch)
  return w
}

/** The string without ANSI colour sequences. @category utils */
export const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '')

/**
 * Makes untrusted text safe for one terminal line: whitespace breaks become spaces, other
 * control characters their visible Control Pictures (ESC shows as ␛), so content can neither
 * break the table nor send escape sequences.
 *
 * @category utils
 */
export const clean = (s: string): string => visible(s.replace(/[\n\r\t\v\f]/g, ' '))

/**
 * Makes untrusted text safe for a terminal, keeping its lines: line feeds and tabs stay, every
 * other control character (CR, ESC, BEL, DEL, C1 …) shows as a visible symbol (ESC as ␛), so
 * printed text cannot move the cursor, clear the screen, set the title or recolour output.
 *
 * @example
 * visible('a\u001b]0;pwned\u0007b\n') // 'a␛]0;pwned␇b\n'
 * @category utils
 */
export const visible = (s: string): string => s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, controlPicture)

/**
 * The string cut to at most `n` columns, ending in `…` when cut.
 *
 * @example
 * fit('evidence:very-long-id', 10) // 'evidence:…'
 * @category utils
 */
export const fit = (s: string, n: number): string => {
  if (width(s) <= n) return s
  if (n <= 0) return ''
  let out = ''
  let w = 0
  for (const ch of s) {
    const cw = charWidth(ch)
    if (w + cw > n - 1) break
    out += ch
    w += cw
  }
  return `${out}…`
}

/**
 * The string cut to at most `n` columns from the left, starting with `…` when cut: for ids,
 * whose ends tell apart packets of one source (`…session.jsonl#v1-987`).
 *
 * @example
 * fitTail('pi:large-session.jsonl#v1-987', 16) // '…ion.jsonl#v1-987'
 * @category utils
 */
export const fitTail = (s: string, n: number): string => {
  if (width(s) <= n) return s
  if (n <= 0) return ''
  let out = ''
  let w = 0
  for (const ch of [...s].reverse()) {
    const cw = charWidth(ch)
    if (w + cw > n - 1) break
    out = ch + out
    w += cw
  }
  return `…${out}`
}

/** Cut or padded on the right to exactly `n` columns. @category utils */
export const padEnd = (s: string, n: number): string => {
  const f = fit(s, n)
  return f + ' '.repeat(Math.max(0, n - width(f)))
}

/** Cut or padded on the left to exactly `n` columns. @category utils */
export const padStart = (s: string, n: number): string => {
  const f = fit(s, n)
  return ' '.repeat(Math.max(0, n - width(f))) + f
}

/**
 * Word-wrapped lines of at most `n` columns; a word longer than a line is cut with `…`.
 *
 * @category utils
 */
export const wrap = (s: string, n: number): ReadonlyArray<string> => {
  const lines: string[] = []
  let line = ''
  for (const word of s.split(' ').filter((x) => x !== '')) {
    const next = line === '' ? word : `${line} ${word}`
    if (width(next) <= n) line = next
    else {
      if (line !== '') lines.push(line)
      line = fit(word, n)
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line)
  return lines
}
