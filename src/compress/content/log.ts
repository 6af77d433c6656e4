/**
 * The log compressor, for command output, build logs and stack traces. Two steps:
 * - lines of the same *shape* (numbers, hex ids and times aside) in a row fold into the first,
 *   followed by `... N more similar lines` (never the last line: it holds the outcome);
 * - then, as the target tightens, the first lines (the command, its header), the last lines
 *   (where the outcome is), every error line with the lines right after it (a stack trace's
 *   top, a compiler's code frame) and every warning line are kept, and each run of the rest
 *   becomes `... N lines omitted`. Warnings go before errors do; only the first errors are
 *   kept at the harshest rungs (the first is the likeliest cause; the tail shows the outcome). Error and warning lines fold only into an identical line:
 *   two errors of one shape usually name different places.
 *
 * @module
 */
import type { Tokenizer } from '../../tokenize/tokenizer.js'
import { fitLadder } from './ladder.js'
import { indentOf, linesOf, renderHidden } from './lines.js'
import type { ContentCompressor, ContentResult, Removal } from './model.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

interface Rung {
  readonly head: number
  readonly tail: number
  /** Lines kept after each error line. */
  readonly context: number
  /** Error lines kept, the first ones (the first error is the likeliest cause; the tail shows the outcome). */
  readonly errors: number
  /** Warning lines kept, the first ones. */
  readonly warnings: number
}

const ALL = Number.POSITIVE_INFINITY

/** `from`, then about 15% less each step, down to `to` (included). */
const steps = (from: number, to = 0): ReadonlyArray<number> => {
  const out: number[] = []
  for (let n = from; n > to; n = Math.min(n - 1, Math.floor(n * 0.85))) out.push(n)
  return [...out, to]
}

/** Gentlest first: keep everything (repeats folded), then less context, then fewer errors. */
const RUNGS: ReadonlyArray<Rung> = [
  { head: ALL, tail: ALL, context: ALL, errors: ALL, warnings: ALL },
  ...steps(400, 5).map((tail) => ({
    head: Math.ceil(tail / 5),
    tail,
    context: tail >= 30 ? 3 : tail >= 8 ? 1 : 0,
    errors: ALL,
    warnings: tail >= 20 ? ALL : tail >= 8 ? 10 : 0,
  })),
  ...steps(300).map((errors) => ({ head: errors > 3 ? 1 : 0, tail: errors > 0 ? 2 : 1, context: 0, errors, warnings: 0 })),
  { head: 0, tail: 0, context: 0, errors: 0, warnings: 0 },
]

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Lines that report a failure. Word-bounded, so `errorHandler` or `terror` do not count.
 *
 * @category utils
 * @since 0.1.0
 */
export const ERROR_LINE =
  /\b(?:errors?|err!|fail(?:s|ed|ure|ing)?|fatal|panic(?:ked)?|exception|traceback|uncaught|unhandled|denied|refused|segmentation fault|assertion)\b|✗|✘|❌/i

/** Lines that warn. */
export const WARNING_LINE = /\b(?:warn(?:ing|ings)?|deprecated)\b|⚠/i

/**
 * A line's shape: the line with digits, hex ids and quoted values blurred, so that lines
 * that differ only there fold together.
 *
 * @category utils
 * @since 0.1.0
 */
export const lineShape = (line: string): string =>
  line
    .replace(/\b[0-9a-f]{7,}\b|0x[0-9a-f]+/gi, 'h')
    .replace(/\d+(?:[.:,]\d+)*/g, '0')
    .replace(/'[^']*'|"[^"]*"/g, 'q')
    .trimEnd()

/**
 * Compresses a log (see the module comment).
 *
 * @example
 * compressLog(['npm run build', ...Array(500).fill('compiling...'), 'error TS2304: x'].join('\n'), 40, tokenizer)
 * @category compressors
 * @since 0.1.0
 */
export const compressLog: ContentCompressor = (text: string, targetTokens: number, counter: Tokenizer): ContentResult => {
  const lines = linesOf(text)
  const shapes = lines.map(lineShape)
  const important = lines.map((l) => ERROR_LINE.test(l) || WARNING_LINE.test(l))
  // folded[i]: line i repeats line i - 1: its shape, or for errors and warnings (each one
  // names its own file and line) the very text. The last line with text never folds: it is
  // the outcome (`compiled 40 of 40 files`), whatever lines of its shape came before it.
  const last = lines.findLastIndex((l) => l.trim() !== '')
  const folded = lines.map(
    (l, i) => i > 0 && i !== last && l.trim() !== '' && (important[i] ? l === lines[i - 1] : shapes[i] === shapes[i - 1] && !important[i - 1]),
  )
  const errors = lines.flatMap((l, i) => (ERROR_LINE.test(l) && !folded[i] ? [i] : []))
  const warnings = lines.flatMap((l, i) => (!ERROR_LINE.test(l) && WARNING_LINE.test(l) && !folded[i] ? [i] : []))
  const render = (rung: number) => {
    const r = RUNGS[rung]!
    const kept = new Set<number>()
    const keep = (i: number): void => {
      if (i >= 0 && i < lines.length && !folded[i]) kept.add(i)
    }
    // head and tail count lines with text, not blank ones
    const firsts = lines.flatMap((l, i) => (folded[i] || l.trim() === '' ? [] : [i]))
    firsts.slice(0, Math.min(r.head, firsts.length)).forEach(keep)
    firsts.slice(Math.max(0, firsts.length - r.tail)).forEach(keep)
    errors.slice(0, r.errors).forEach((e) => {
      keep(e)
      // the lines after an error, counted in unfolded lines
      for (let k = 1, j = e + 1; k <= r.context && j < lines.length; j++) if (!folded[j]) (keep(j), k++)
    })
    warnings.slice(0, r.warnings).forEach(keep)
    const hidden = (i: number): boolean => !kept.has(i)
    const allFolded = (count: number, first: number): boolean => {
      for (let i = first; i < first + count; i++) if (!folded[i]) return false
      return kept.has(first - 1)
    }
    const repeats: Removal[] = []
    const rendered = renderHidden(
      lines,
      hidden,
      (count, first) =>
        allFolded(count, first)
          ? `${indentOf(lines[first]!)}... ${count} more similar line${count === 1 ? '' : 's'}`
          : `... ${count} line${count === 1 ? '' : 's'} omitted`,
      (count, first) => {
        if (!allFolded(count, first)) return true
        repeats.push({ _tag: 'RepeatedLines', line: first + 1, lines: count })
        return false
      },
    )
    return { text: rendered.text, removed: [...repeats, ...rendered.removed] }
  }
  return fitLadder(RUNGS.length, render, targetTokens, counter)
}
