/**
 * The Markdown compressor: every heading stays, with the first lines under it; the rest of
 * each section becomes `[... N lines]`. As the target tightens, fewer lines per section
 * stay, then the deepest headings go with their sections. A fenced code block cut open is
 * closed again, so what follows is not read as code.
 *
 * @module
 */
import type { Tokenizer } from '../../tokenize/tokenizer.js'
import { fitLadder } from './ladder.js'
import { linesOf } from './lines.js'
import type { ContentCompressor, ContentResult, Removal } from './model.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

interface Rung {
  /** Non-blank lines kept under each heading. */
  readonly lines: number
  /** Headings deeper than this go, with their sections. */
  readonly depth: number
}

const RUNGS: ReadonlyArray<Rung> = [
  ...[40, 20, 12, 8, 5, 3, 2, 1, 0].map((lines) => ({ lines, depth: 6 })),
  { lines: 0, depth: 3 },
  { lines: 0, depth: 2 },
  { lines: 0, depth: 1 },
]

interface Line {
  readonly text: string
  /** Heading level 1–6, 0 for other lines. */
  readonly heading: number
  /** The fence that is open on this line (its opening marker), if any. */
  readonly fence: string | undefined
  /** Which fenced block the line belongs to (a count), if any. */
  readonly block: number | undefined
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Compresses a Markdown text (see the module comment).
 *
 * @example
 * compressMarkdown('# Title\nintro\nmore\n## Part\ntext', 8, tokenizer)
 * @category compressors
 * @since 0.1.0
 */
export const compressMarkdown: ContentCompressor = (text: string, targetTokens: number, counter: Tokenizer): ContentResult => {
  const lines = scan(linesOf(text))
  const render = (rung: number) => {
    const r = RUNGS[rung]!
    const out: string[] = []
    const removed: Removal[] = []
    let level = 0 // the current section's heading level (0 before the first heading)
    let shown = 0 // non-blank lines shown in the current section
    let gap = 0 // lines hidden since the last one shown
    let gapStart = 0
    let openFence: string | undefined // a fence opened by a line shown and not yet closed
    const flush = (): void => {
      if (gap === 0) return
      if (openFence !== undefined) out.push(openFence)
      openFence = undefined
      // blank lines alone carry nothing worth a marker
      if (lines.slice(gapStart, gapStart + gap).some((l) => l.text.trim() !== '')) {
        out.push(`[... ${gap} line${gap === 1 ? '' : 's'}]`)
        removed.push({ _tag: 'Lines', line: gapStart + 1, lines: gap })
      }
      gap = 0
    }
    lines.forEach((l, i) => {
      const isHeading = l.heading > 0 && l.fence === undefined
      if (isHeading) {
        level = l.heading
        shown = 0
      }
      const keep = isHeading ? l.heading <= r.depth : level <= r.depth && shown < r.lines
      if (!keep) {
        if (gap === 0) gapStart = i
        gap++
        return
      }
      flush()
      out.push(l.text)
      if (!isHeading && l.text.trim() !== '') shown++
      openFence = fenceAfter(l, lines[i + 1])
    })
    flush()
    return { text: out.join('\n').replace(/\n+$/, ''), removed }
  }
  return fitLadder(RUNGS.length, render, targetTokens, counter)
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const FENCE = /^ {0,3}(`{3,}|~{3,})/
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]|$)/

/** Each line with its heading level and the fence open on it. */
const scan = (raw: ReadonlyArray<string>): ReadonlyArray<Line> => {
  let fence: string | undefined
  let blocks = 0
  return raw.map((text) => {
    const f = FENCE.exec(text)
    const inside = fence
    if (f !== null) {
      if (fence === undefined) {
        fence = f[1]!
        blocks++
      } else if (f[1]!.startsWith(fence[0]!) && f[1]!.length >= fence.length && text.trim() === f[1]) fence = undefined
    }
    const open = fence ?? inside
    const h = open === undefined ? HEADING.exec(text) : null
    return { text, heading: h === null ? 0 : h[1]!.length, fence: open, block: open === undefined ? undefined : blocks }
  })
}

/** The closing fence to add if output stops after `line`, while the next line is still in its block. */
const fenceAfter = (line: Line, next: Line | undefined): string | undefined =>
  line.block !== undefined && next?.block === line.block ? line.fence : undefined
