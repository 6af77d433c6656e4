/**
 * The Python front end of the code compressor: an outline from indentation, a documented
 * heuristic rather than a parser (no maintained Python parser for JavaScript is light).
 *
 * The rules:
 * - a definition starts at a line `def`, `async def` or `class` (after any indentation) and
 *   its header runs until brackets balance and a line ends with `:` (comments aside);
 * - its body is the lines after the header that are blank or indented deeper than the
 *   header, up to the last such non-blank line;
 * - a `def` body is elided (a docstring with it); a `class` body is not (its methods are);
 * - a top-level statement starts at a non-blank line at indentation 0 that is not a
 *   comment, a decorator continuing onto its definition, or a closing bracket; `import` and
 *   `from … import` are imports;
 * - comment lines start with `#`.
 * Triple-quoted strings whose lines start at indentation 0 can mislead it; the result is
 * still whole lines of the input with markers, never invented code.
 *
 * @module
 */
import type { LineRange, Outline } from './skeleton.js'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const DEF = /^([ \t]*)(async[ \t]+def|def|class)[ \t]+([A-Za-z_]\w*)/

/** Indentation width, a tab counting as 8. */
const width = (line: string): number => {
  let w = 0
  for (const c of line) {
    if (c === ' ') w++
    else if (c === '\t') w += 8 - (w % 8)
    else break
  }
  return w
}

const blank = (line: string): boolean => line.trim() === '' || line.trimStart().startsWith('#')

/** Bracket depth change over a line, strings and comments aside (roughly: quotes of one line). */
const bracketDelta = (line: string): number => {
  const code = line.replace(/(["'])(?:\\.|(?!\1).)*\1/g, '').replace(/#.*/, '')
  let d = 0
  for (const c of code) d += c === '(' || c === '[' || c === '{' ? 1 : c === ')' || c === ']' || c === '}' ? -1 : 0
  return d
}

/**
 * The outline of a Python source, by the rules in the module comment.
 *
 * @category utils
 * @since 0.1.0
 */
export const pythonOutline = (lines: ReadonlyArray<string>): Outline => {
  const bodies: Array<LineRange & { readonly name: string }> = []
  for (let i = 0; i < lines.length; i++) {
    const m = DEF.exec(lines[i]!)
    if (m === null || m[2] === 'class') continue
    const indent = width(lines[i]!)
    // the header ends where brackets balance on a line ending with ':'
    let depth = 0
    let end = i
    for (; end < lines.length; end++) {
      depth += bracketDelta(lines[end]!)
      if (depth <= 0 && /:\s*(#.*)?$/.test(lines[end]!)) break
    }
    let last = end
    for (let j = end + 1; j < lines.length; j++) {
      if (lines[j]!.trim() === '') continue
      if (width(lines[j]!) <= indent) break
      last = j
    }
    if (last > end) bodies.push({ from: end + 1, to: last + 1, name: m[3]! })
  }
  const comments = lines.flatMap((l, i) => (l.trimStart().startsWith('#') ? [{ from: i, to: i + 1 }] : []))
  const starts = lines.flatMap((l, i) =>
    !blank(l) && width(l) === 0 && !/^[)\]}]/.test(l) && !(i > 0 && lines[i - 1]!.startsWith('@')) ? [i] : [],
  )
  const statements = starts.map((from, k) => {
    let to = (starts[k + 1] ?? lines.length) - 1
    while (to > from && blank(lines[to]!)) to--
    const name = /^(?:async\s+def|def|class)\s+(\w+)|^(\w+)\s*[:=]/.exec(lines[from]!)
    // members: the class's own `def` lines, one indentation step in
    const members = lines.slice(from + 1, to + 1).flatMap((l, k) => (/^[ \t]+(async[ \t]+def|def)[ \t]/.test(l) && width(l) <= 8 ? [from + 1 + k] : []))
    return {
      from,
      to: to + 1,
      isImport: /^(import|from)\s/.test(lines[from]!),
      isExported: !(name?.[1] ?? name?.[2] ?? '').startsWith('_'),
      members,
    }
  })
  return { bodies, comments, statements }
}
