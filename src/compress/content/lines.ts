/**
 * Line plumbing the line-oriented compressors (logs, code, Markdown) share: splitting into
 * lines, the line-number gutter some agents put on file reads, and rendering a text with
 * runs of lines hidden behind one marker line each.
 *
 * @module
 */
import type { Removal } from './model.js'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * The lines of a text. `\r` stays on its line, so joining with `\n` gives the text back.
 *
 * @category utils
 * @since 0.1.0
 */
export const linesOf = (text: string): ReadonlyArray<string> => text.split('\n')

/**
 * A read tool's line-number gutter: `     1→` (Claude Code's Read) or `     1\t` (`cat -n`).
 */
const GUTTER = /^ *\d+(?:→|\t)/

/**
 * The lines without a line-number gutter, when every non-blank line has one; otherwise the
 * lines as they are. Compressors analyse these and render the original lines, so the
 * numbers the model sees stay right.
 *
 * @category utils
 * @since 0.1.0
 */
export const withoutGutter = (lines: ReadonlyArray<string>): ReadonlyArray<string> => {
  const numbered = lines.filter((l) => l.trim() !== '')
  return numbered.length > 0 && numbered.every((l) => GUTTER.test(l)) ? lines.map((l) => l.replace(GUTTER, '')) : lines
}

/** The leading whitespace of a line. */
export const indentOf = (line: string): string => /^[ \t]*/.exec(line)![0]

/**
 * Renders `lines` with the hidden ones replaced: each maximal run of hidden lines becomes
 * one marker line, `marker(run length, first hidden index)`, and one `Lines` removal (unless
 * `report` is false for that run, when the caller reports it its own way).
 *
 * @category utils
 * @since 0.1.0
 */
export const renderHidden = (
  lines: ReadonlyArray<string>,
  hidden: (index: number) => boolean,
  marker: (count: number, first: number) => string,
  report: (count: number, first: number) => boolean = () => true,
): { readonly text: string; readonly removed: ReadonlyArray<Removal> } => {
  const out: string[] = []
  const removed: Removal[] = []
  let i = 0
  while (i < lines.length) {
    if (!hidden(i)) {
      out.push(lines[i]!)
      i++
      continue
    }
    const first = i
    while (i < lines.length && hidden(i)) i++
    out.push(marker(i - first, first))
    if (report(i - first, first)) removed.push({ _tag: 'Lines', line: first + 1, lines: i - first })
  }
  return { text: out.join('\n'), removed }
}
