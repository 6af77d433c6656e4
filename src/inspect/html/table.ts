/**
 * The report's packet table: one row per packet (and per left-out entry that is not a
 * packet), sortable by any column and filterable by status and text. Sort keys live in
 * `data-v` attributes, so the page script sorts numbers as numbers and never parses
 * formatted text.
 *
 * When the packets' own details are given, a role and a preview column tell the turns of a
 * long session apart. A turn a strategy summarized is shown as `summarized`, not as dropped:
 * its content is still in the context, in the summary.
 *
 * @module
 */
import type { PacketRow } from '../explain.js'
import { attr, escapeHtml } from './escape.js'
import { num } from '../format.js'

/** What a packet said, for the role and preview columns. */
export interface PacketDetail {
  /** The chat role of a history turn. */
  readonly role?: string
  /** The start of its text, on one line. */
  readonly preview: string
}

/** The status a row shows: a summarized turn is not plainly dropped. */
type Shown = PacketRow['status'] | 'summarized'
const shownStatus = (r: PacketRow): Shown => (r.reason === 'summarized' ? 'summarized' : r.status)

/** A table column: its header, how it sorts, and a row's cell. */
interface Column {
  readonly key: string
  readonly label: string
  readonly sort: 'text' | 'num'
  readonly cell: (r: PacketRow, index: number, inOutput: boolean) => { readonly value: string | number | undefined; readonly html: string }
}

const text = (v: string | undefined) => ({ value: v, html: v === undefined ? '<span class="none">–</span>' : escapeHtml(v) })
const score = (v: number | undefined) => ({ value: v, html: v === undefined ? '<span class="none">–</span>' : v.toFixed(2) })

const COLUMNS: ReadonlyArray<Column> = [
  {
    key: 'id',
    label: 'Packet',
    sort: 'text',
    cell: (r, i, inOutput) => ({ value: r.id, html: inOutput ? `<a${attr('href', `#ctx-${i}`)}>${escapeHtml(r.id)}</a>` : escapeHtml(r.id) }),
  },
  { key: 'type', label: 'Type', sort: 'text', cell: (r) => text(r.type) },
  { key: 'source', label: 'Source', sort: 'text', cell: (r) => text(r.source) },
  { key: 'section', label: 'Section', sort: 'text', cell: (r) => text(r.section) },
  {
    key: 'tokens',
    label: 'Tokens',
    sort: 'num',
    cell: (r) => ({
      value: r.keptTokens ?? r.tokens,
      html: r.tokens === undefined ? '<span class="none">–</span>' : r.keptTokens === undefined ? num(r.tokens) : `${num(r.keptTokens)} <span class="of">/ ${num(r.tokens)}</span>`,
    }),
  },
  { key: 'relevance', label: 'Relevance', sort: 'num', cell: (r) => score(r.scores?.relevance) },
  { key: 'recency', label: 'Recency', sort: 'num', cell: (r) => score(r.scores?.recency) },
  { key: 'composite', label: 'Composite', sort: 'num', cell: (r) => score(r.scores?.composite) },
  { key: 'status', label: 'Status', sort: 'text', cell: (r) => ({ value: shownStatus(r), html: `<span${attr('class', `status ${shownStatus(r)}`)}>${shownStatus(r)}</span>` }) },
  {
    key: 'reason',
    label: 'Reason',
    sort: 'text',
    cell: (r) => ({
      value: r.reason,
      html: `${r.reason === undefined ? '' : `<code>${escapeHtml(r.reason)}</code>`}${r.detail === undefined ? '' : `<div class="detail">${escapeHtml(r.detail)}</div>`}`,
    }),
  },
]

const detailColumns = (details: ReadonlyMap<string, PacketDetail>): ReadonlyArray<Column> => [
  { key: 'role', label: 'Role', sort: 'text', cell: (r) => text(details.get(r.id)?.role) },
  { key: 'preview', label: 'Preview', sort: 'text', cell: (r) => ({ value: details.get(r.id)?.preview, html: `<span class="preview">${escapeHtml(details.get(r.id)?.preview ?? '')}</span>` }) },
]

const filters = (rows: ReadonlyArray<PacketRow>): string => {
  const count = (s: Shown): number => rows.filter((r) => shownStatus(r) === s).length
  const box = (s: Shown): string =>
    `<label><input type="checkbox" checked${attr('value', s)}${attr('name', 'status')}> <span${attr('class', `status ${s}`)}>${s}</span> ${count(s)}</label>`
  return (
    `<div class="filters"><fieldset id="status-filter"><legend>Status</legend>${box('kept')}${box('truncated')}${box('summarized')}${box('dropped')}</fieldset>` +
    `<label class="search">Filter <input type="search" id="text-filter" placeholder="id, type, source, reason…" autocomplete="off"></label>` +
    `<span id="visible-count" aria-live="polite">${rows.length} of ${rows.length}</span></div>`
  )
}

/**
 * The filters and the table, as HTML. `inOutput(i)` says whether row `i` has an anchor in
 * the context view, so its id links there; `details` adds the role and preview columns.
 *
 * @category constructors
 */
export const tableHtml = (rows: ReadonlyArray<PacketRow>, inOutput: (index: number) => boolean, details?: ReadonlyMap<string, PacketDetail>): string => {
  // role and preview go right after the packet id
  const columns = details === undefined ? COLUMNS : [COLUMNS[0]!, ...detailColumns(details), ...COLUMNS.slice(1)]
  const head = columns.map((c) => `<th${attr('data-key', c.key)}${attr('data-sort', c.sort)} aria-sort="none"><button type="button">${c.label}</button></th>`).join('')
  const body = rows
    .map((r, i) => {
      const cells = columns.map((c) => {
        const { value, html } = c.cell(r, i, inOutput(i))
        return `<td${attr('data-v', value === undefined ? '' : value)}${attr('data-key', c.key)}>${html}</td>`
      }).join('')
      return `<tr${attr('id', `pkt-${i}`)}${attr('data-status', shownStatus(r))}${attr('data-index', i)}>${cells}</tr>`
    })
    .join('\n')
  return `${filters(rows)}<div class="table-wrap"><table id="packets"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`
}
