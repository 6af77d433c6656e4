/**
 * The explain table for a terminal: a bar per section, the cut and dropped packets with
 * their reasons and scores, then the totals. Every line fits the given width (80 columns by
 * default); colour is added only when asked, so piped output stays plain text.
 *
 * @module
 */
import { describeWarning } from '../report.js'
import type { Scores } from '../select/score.js'
import { bar } from './bar.js'
import type { ExplainTable, PacketRow, SectionRow } from './explain.js'
import { PALETTE, print, seg, type Line, type Segment, type Style } from './line.js'
import { clean, fitTail, padEnd, padStart, wrap } from './width.js'
import { num, pct } from './format.js'

/** Options of {@link renderExplain}. */
export interface ExplainOptions {
  /** ANSI colours; default false. The CLI turns them on for a TTY without `NO_COLOR`. */
  readonly color?: boolean
  /** Columns to fit; default 80. */
  readonly width?: number
  /** Rows shown per packet list before `… N more`; default 30. */
  readonly limit?: number
}

const score = (x: number | undefined): string => (x === undefined ? '-' : x.toFixed(2))
const scoreCells = (s: Scores | undefined): ReadonlyArray<Segment> => [
  seg(` ${padStart(score(s?.relevance), 4)} ${padStart(s === undefined ? '-' : score(s.recency), 4)} ${padStart(s === undefined ? '-' : score(s.composite), 4)}`),
]

// -------------------------------------------------------------------------------------
// sections
// -------------------------------------------------------------------------------------

/** Columns before the bar: name 14, rank 4, kept 4, cut 4, drop 4, tokens 7, share 6, and gaps. */
const SECTION_FIXED = 51

const sectionLine = (name: string, cells: ReadonlyArray<string>, tokens: number, share: number | undefined, cols: number, style: Style | undefined): Line => [
  seg(padEnd(clean(name), 14), style),
  seg(` ${cells.map((c) => padStart(c, 4)).join(' ')} ${padStart(num(tokens), 7)} ${padStart(share === undefined ? '' : pct(share), 6)}  `),
  seg(share === undefined ? '' : bar(share, Math.max(8, cols - SECTION_FIXED)), style),
]

const sectionRows = (t: ExplainTable, cols: number): ReadonlyArray<Line> => {
  const { available, used, other } = t.totals
  const row = (s: SectionRow, i: number): Line =>
    sectionLine(
      s.rendered ? s.name : `${s.name} (out)`,
      [s.rank === undefined ? '-' : String(s.rank), String(s.kept), String(s.truncated), String(s.dropped)],
      s.tokens,
      s.rendered ? s.share : undefined,
      cols,
      s.rendered ? PALETTE[i % PALETTE.length] : 'dim',
    )
  return [
    [seg(padEnd('SECTION', 14), 'bold'), seg(' RANK KEPT  CUT DROP  TOKENS  SHARE  ', 'bold'), seg('OF THE AVAILABLE BUDGET', 'bold')],
    ...t.sections.map(row),
    // a negative gap is BPE merging across joins, which the sections' estimates cannot see
    ...(other > 0 ? [sectionLine('joins/framing', ['', '', '', ''], other, other / Math.max(1, available), cols, 'dim')] : []),
    sectionLine('total used', ['', String(t.totals.kept), String(t.totals.truncated), String(t.totals.dropped)], used, available > 0 ? used / available : 0, cols, 'bold'),
  ]
}

// -------------------------------------------------------------------------------------
// packets
// -------------------------------------------------------------------------------------

/** Columns before a dropped packet's detail. */
const DROPPED_FIXED = 66
/** Narrower than this, the detail goes on its own line. */
const MIN_DETAIL = 20

const more = (rows: ReadonlyArray<PacketRow>, limit: number): ReadonlyArray<Line> =>
  rows.length > limit ? [[seg(`  … ${num(rows.length - limit)} more (see --json or --report)`, 'dim')]] : []

const droppedRows = (rows: ReadonlyArray<PacketRow>, cols: number, limit: number): ReadonlyArray<Line> => {
  const inline = cols - DROPPED_FIXED - 2 >= MIN_DETAIL
  const head: Line = [seg(`  ${padEnd('ID', 22)} ${padEnd('REASON', 19)} ${padStart('TOKENS', 6)}  REL  REC COMP${inline ? '  DETAIL' : ''}`, 'bold')]
  const row = (p: PacketRow): ReadonlyArray<Line> => {
    const main: Segment[] = [
      seg(`  ${padEnd(fitTail(clean(p.id), 22), 22)} `),
      seg(padEnd(p.reason ?? '-', 19), 'yellow'),
      seg(` ${padStart(p.tokens === undefined ? '-' : num(p.tokens), 6)}`),
      ...scoreCells(p.scores),
    ]
    const detail = clean(p.detail ?? '')
    if (detail === '') return [main]
    return inline ? [[...main, seg(`  ${detail}`, 'dim')]] : [main, [seg(`      ${detail}`, 'dim')]]
  }
  return rows.length === 0 ? [] : [[seg(`Dropped (${num(rows.length)})`, 'bold')], head, ...rows.slice(0, limit).flatMap(row), ...more(rows, limit)]
}

const truncatedRows = (rows: ReadonlyArray<PacketRow>, limit: number): ReadonlyArray<Line> => {
  const head: Line = [seg(`  ${padEnd('ID', 22)} ${padEnd('SECTION', 14)} ${padStart('KEPT/TOTAL', 13)} ${padStart('KEPT', 5)}  REL  REC COMP`, 'bold')]
  const row = (p: PacketRow): Line => {
    const kept = p.keptTokens ?? 0
    const total = p.tokens ?? 0
    return [
      seg(`  ${padEnd(fitTail(clean(p.id), 22), 22)} ${padEnd(clean(p.section ?? '-'), 14)} `),
      seg(`${padStart(`${num(kept)}/${num(total)}`, 13)} ${padStart(total > 0 ? `${Math.round((kept / total) * 100)}%` : '-', 5)}`, 'yellow'),
      ...scoreCells(p.scores),
    ]
  }
  return rows.length === 0 ? [] : [[seg(`Truncated (${num(rows.length)})`, 'bold')], head, ...rows.slice(0, limit).map(row), ...more(rows, limit)]
}

// -------------------------------------------------------------------------------------
// totals, failures, warnings
// -------------------------------------------------------------------------------------

const totalRows = (t: ExplainTable): ReadonlyArray<Line> => {
  const x = t.totals
  const label = (s: string): Segment => seg(`  ${padEnd(s, 11)}`)
  return [
    [seg('Totals', 'bold')],
    [label('available'), seg(padStart(num(x.available), 7), 'bold'), seg(` of ${num(x.maxTokens)} max (${num(x.reserved)} reserved for the answer)`)],
    [label('used'), seg(padStart(num(x.used), 7), 'bold'), seg(` (${pct(x.available > 0 ? x.used / x.available : 0)} of available), ${x.exact ? 'exact count' : 'approximate count'}`)],
    [label('free'), seg(padStart(num(x.free), 7), 'bold')],
    [label('packets'), seg(`${num(x.kept)} kept, ${num(x.truncated)} truncated, ${num(x.dropped)} dropped`)],
  ]
}

const messages = (title: string, items: ReadonlyArray<string>, style: Style, cols: number): ReadonlyArray<Line> =>
  items.length === 0
    ? []
    : [[seg(`${title} (${items.length})`, 'bold')], ...items.flatMap((m) => wrap(clean(m), cols - 4).map((l, i): Line => [seg(i === 0 ? '  ! ' : '    '), seg(l, style)]))]

/**
 * The explain table as terminal text, `width` columns wide at most, with ANSI colours only
 * when `color` is true.
 *
 * @example
 * process.stderr.write(renderExplain(explain(result), { color: process.stderr.isTTY && !process.env.NO_COLOR, width: process.stderr.columns ?? 80 }))
 * @category constructors
 * @since 0.1.0
 */
export const renderExplain = (table: ExplainTable, options: ExplainOptions = {}): string => {
  const cols = Math.max(20, Math.floor(options.width ?? 80))
  const limit = Math.max(0, options.limit ?? 30)
  const x = table.totals
  const title: Line = [
    seg('Budget by section', 'bold'),
    seg(` · ${num(x.used)} of ${num(x.available)} tokens${x.exact ? '' : ' (approx.)'} · format ${clean(table.format)}`),
  ]
  const blocks: ReadonlyArray<ReadonlyArray<Line>> = [
    [title, ...sectionRows(table, cols)],
    droppedRows(table.dropped, cols, limit),
    truncatedRows(table.truncated, limit),
    totalRows(table),
    messages('Failed gatherers', table.failures.map((f) => `${f.gatherer} (${f.reason}): ${f.message}`), 'red', cols),
    messages('Warnings', table.warnings.map(describeWarning), 'yellow', cols),
  ]
  return print(
    blocks.filter((b) => b.length > 0).flatMap((b, i) => (i === 0 ? b : [[], ...b])),
    cols,
    options.color === true,
  )
}
