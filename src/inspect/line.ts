/**
 * Terminal lines as data: segments of text with an optional style. A line is fitted to the
 * width on its plain text first and styled last, so a cut never splits an escape sequence
 * and colour never changes the layout.
 *
 * @module
 */
import pc from 'picocolors'
import { match } from 'ts-pattern'
import { fit, width } from './width.js'

/** The styles the explain table uses. */
export type Style = 'bold' | 'dim' | 'red' | 'yellow' | 'green' | 'cyan' | 'magenta' | 'blue'

/** A run of text in one style. */
export interface Segment {
  readonly text: string
  readonly style?: Style
}

/** One output line. */
export type Line = ReadonlyArray<Segment>

/** A segment; without a style it prints as plain text. @category constructors */
export const seg = (text: string, style?: Style): Segment => (style === undefined ? { text } : { text, style })

/** Colours that tell sections apart, in layout order. @category constants */
export const PALETTE: ReadonlyArray<Style> = ['cyan', 'green', 'yellow', 'magenta', 'blue', 'red']

/**
 * The line cut to `cols` columns (the last visible segment ends in `…`), with trailing
 * spaces removed.
 *
 * @category utils
 */
export const fitLine = (line: Line, cols: number): Line => {
  const out: Segment[] = []
  let used = 0
  for (const s of line) {
    const w = width(s.text)
    if (used + w <= cols) {
      out.push(s)
      used += w
      continue
    }
    const room = cols - used
    if (room > 0) out.push({ ...s, text: fit(s.text, room) })
    break
  }
  const last = out.at(-1)
  if (last !== undefined) out[out.length - 1] = { ...last, text: last.text.trimEnd() }
  return out
}

/**
 * Lines joined into text, styled with ANSI colours only when `color` is true.
 *
 * @category utils
 */
export const print = (lines: ReadonlyArray<Line>, cols: number, color: boolean): string => {
  const c = pc.createColors(color)
  const paint = (s: Segment): string =>
    s.style === undefined || s.text === ''
      ? s.text
      : match(s.style)
          .with('bold', () => c.bold(s.text))
          .with('dim', () => c.dim(s.text))
          .with('red', () => c.red(s.text))
          .with('yellow', () => c.yellow(s.text))
          .with('green', () => c.green(s.text))
          .with('cyan', () => c.cyan(s.text))
          .with('magenta', () => c.magenta(s.text))
          .with('blue', () => c.blue(s.text))
          .exhaustive()
  return lines.map((l) => fitLine(l, cols).map(paint).join('').trimEnd()).join('\n') + '\n'
}
