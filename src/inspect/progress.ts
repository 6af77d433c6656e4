/**
 * A progress indicator for long operations (loading a large session, building many
 * contexts). It redraws one line in place on a TTY, at most every `intervalMs`, and writes
 * nothing at all when the output is not a TTY, so piped and logged output stays clean.
 *
 * @module
 */
import { bar } from './bar.js'
import { clean, fit, width } from './width.js'
import { num } from './format.js'

/** Where the indicator draws: `process.stderr`, or a buffer in tests. */
export interface ProgressOut {
  readonly write: (text: string) => unknown
  readonly isTTY?: boolean
  readonly columns?: number
}

/** Options of {@link progress}. */
export interface ProgressOptions {
  /** What is going on, e.g. `loading session.jsonl`. */
  readonly label: string
  /** The count at completion, when known: shows a bar and a percentage. */
  readonly total?: number
  /** The least time between two redraws; default 100 ms. */
  readonly intervalMs?: number
  /** The clock (epoch ms); default `Date.now`. */
  readonly now?: () => number
}

/** A running indicator. */
export interface Progress {
  /** Adds `n` (default 1) to the count and redraws if the last draw is old enough. */
  readonly tick: (n?: number) => void
  /** Erases the indicator; later ticks do nothing. */
  readonly done: () => void
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const
const ERASE = '\r\u001b[K'

/** The indicator's text for a count: `label ████░░ 40% 4,000/10,000` or `label ⠋ 4,000`. */
const line = (label: string, count: number, total: number | undefined, frame: number, cols: number): string => {
  const name = fit(clean(label), Math.max(8, Math.floor(cols / 3)))
  if (total === undefined || total <= 0) return fit(`${name} ${SPINNER[frame % SPINNER.length]} ${num(count)}`, cols)
  const f = Math.min(1, count / total)
  const tail = ` ${String(Math.floor(f * 100)).padStart(3)}% ${num(count)}/${num(total)}`
  return fit(`${name} ${bar(f, Math.max(4, Math.min(30, cols - width(name) - tail.length - 2)))}${tail}`, cols)
}

/**
 * Starts a progress indicator on `out`.
 *
 * The returned functions share a count and the time of the last draw. That state lives in
 * this one indicator's closure, never in the module, and ends with `done()`.
 *
 * @example
 * const p = progress(process.stderr, { label: 'loading session.jsonl', total: lines.length })
 * for (const l of lines) { parse(l); p.tick() }
 * p.done()
 * @category constructors
 * @since 0.1.0
 */
export const progress = (out: ProgressOut, options: ProgressOptions): Progress => {
  if (out.isTTY !== true) return { tick: () => undefined, done: () => undefined }
  const now = options.now ?? Date.now
  const interval = options.intervalMs ?? 100
  // one column short of the width: writing the last column makes some terminals wrap
  const cols = Math.max(10, (out.columns ?? 80) - 1)
  let count = 0
  let frame = 0
  let drawnAt: number | undefined
  let drawnCount = 0
  let finished = false
  return {
    tick: (n = 1) => {
      if (finished) return
      count += n
      const t = now()
      // reaching the total always shows, so a fast job does not end on a stale 97%
      const completes = options.total !== undefined && count >= options.total && drawnCount < options.total
      if (drawnAt !== undefined && t - drawnAt < interval && !completes) return
      drawnAt = t
      drawnCount = count
      out.write(ERASE + line(options.label, count, options.total, frame++, cols))
    },
    done: () => {
      if (finished) return
      finished = true
      if (drawnAt !== undefined) out.write(ERASE)
    },
  }
}
