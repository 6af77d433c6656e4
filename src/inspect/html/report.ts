/**
 * `renderReport`: one self-contained HTML file that shows where a build's budget went. No
 * network: styles and the one script are inline, images only inline `data:` ones, and the
 * page's Content-Security-Policy allows nothing else (the script is allowed by its hash, so
 * even a tag that escaped escaping could not run). The JSON report (`toJson`) is embedded
 * for tools, with `<` escaped so a `</script>` in a packet cannot end it.
 *
 * @module
 */
import * as O from 'fp-ts/lib/Option.js'
import { pipe } from 'fp-ts/lib/function.js'
import { describeWarning, reportOf, toJson, type Report, type Reported } from '../../report.js'
import { isRendered, renderText, sectionsOf } from '../../structure/document.js'
import { chatTurns } from '../chat.js'
import { explain, packetRows, type ExplainTable } from '../explain.js'
import { budgetHtml, sectionsHtml } from './budget.js'
import { chatHtml } from './chat.js'
import { contextHtml } from './context.js'
import { attr, escapeHtml, jsonForScript } from './escape.js'
import { SCRIPT, SCRIPT_SHA256 } from './script.js'
import { STYLE } from './style.js'
import { tableHtml, type PacketDetail } from './table.js'
import { num } from '../format.js'

/** Options of {@link renderReport}. */
export interface ReportOptions {
  /** The page title; default `gssc context report`. */
  readonly title?: string
  /**
   * What the packets said, by packet id (the report keeps only their fate): with it, the
   * packet table gets a role and a preview column, so the turns of a long session can be
   * told apart.
   */
  readonly details?: ReadonlyMap<string, PacketDetail>
}


const csp = (): string =>
  [
    "default-src 'none'",
    'img-src data:',
    "style-src 'unsafe-inline'",
    `script-src 'sha256-${SCRIPT_SHA256}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ')

const totalsHtml = (t: ExplainTable): string => {
  const x = t.totals
  const card = (key: string, label: string, value: number): string =>
    `<div><dt>${label}</dt><dd${attr('data-total', key)}${attr('data-value', value)}>${num(value)}</dd></div>`
  const data = Object.entries({ maxTokens: x.maxTokens, available: x.available, reserved: x.reserved, used: x.used, free: x.free, exact: x.exact, kept: x.kept, truncated: x.truncated, dropped: x.dropped })
    .map(([k, v]) => attr(`data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, v))
    .join('')
  return `<dl id="totals"${data}>${card('used', `Used${x.exact ? '' : ' (approx.)'}`, x.used)}${card('available', 'Available', x.available)}${card('free', 'Free', x.free)}${card('reserved', 'Reserved', x.reserved)}${card('maxTokens', 'Max tokens', x.maxTokens)}${card('kept', 'Kept', x.kept)}${card('truncated', 'Truncated', x.truncated)}${card('dropped', 'Dropped', x.dropped)}</dl>`
}

const notesHtml = (t: ExplainTable): string => {
  const items = [
    ...t.failures.map((f) => `<li class="failure">gatherer <code>${escapeHtml(f.gatherer)}</code> failed (${escapeHtml(f.reason)}): ${escapeHtml(f.message)}</li>`),
    ...t.warnings.map((w) => `<li class="warning">${escapeHtml(describeWarning(w))}</li>`),
  ]
  return items.length === 0 ? '' : `<h2>Failures and warnings</h2><ul class="notes card">${items.join('')}</ul>`
}

/**
 * The report page of any builder's result (see `explain`), as one HTML string.
 *
 * @example
 * await writeFile('report.html', renderReport(result))
 * @category constructors
 * @since 0.1.0
 */
export const renderReport = <O>(of: Report<O> | Reported<O>, options: ReportOptions = {}): string => {
  const result = reportOf(of)
  const title = options.title ?? 'gssc context report'
  const table = explain(result)
  const rows = packetRows(result)
  const rowIndex = new Map<string, number>()
  for (const [i, r] of rows.entries()) if (r.type !== undefined && !rowIndex.has(r.id)) rowIndex.set(r.id, i)
  const rowOf = (id: string): number | undefined => rowIndex.get(id)
  const inDoc = new Set(sectionsOf(result.doc).filter(isRendered).flatMap((s) => s.items.flatMap((i) => (i.packetId === undefined ? [] : [i.packetId]))))
  const layout = `<pre class="context" id="context">${contextHtml(result.doc, rowOf)}</pre>`
  // the linked view is shown as the output only when it is exactly the output
  const linked = typeof result.output === 'string' && renderText(result.doc) === result.output
  const turns = chatTurns(result.format, result.output)
  const layoutShown = linked || O.isSome(turns)
  const view = pipe(
    turns,
    O.match(
      () =>
        linked
          ? `<h2>Context</h2>${layout}`
          : `<h2>Output</h2><pre class="context" id="output">${escapeHtml(typeof result.output === 'string' ? result.output : (JSON.stringify(result.output, null, 2) ?? ''))}</pre>`,
      (turns) => `<h2>Messages</h2>${chatHtml(turns, result.sources, rowOf)}<h2>Layout</h2><p class="sub">The document the messages were rendered from.</p>${layout}`,
    ),
  )
  const anchored = (i: number): boolean => {
    const r = rows[i]
    return layoutShown && r !== undefined && r.status !== 'dropped' && inDoc.has(r.id) && rowOf(r.id) === i
  }
  const x = table.totals
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"${attr('content', csp())}>
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head>
<body><main>
<header><h1>${escapeHtml(title)}</h1><p class="sub">format <b>${escapeHtml(result.format)}</b> · ${x.exact ? 'exact' : 'approximate'} token count · ${num(rows.length)} packets</p></header>
${totalsHtml(table)}
<h2>Budget</h2><div class="card">${budgetHtml(table)}${sectionsHtml(table)}</div>
${notesHtml(table)}
<h2>Packets</h2>${tableHtml(rows, anchored, options.details)}
${view}
<script type="application/json" id="gssc-report">${jsonForScript(toJson(result))}</script>
<script>${SCRIPT}</script>
<footer>Made by gssc. This file is self-contained: it loads nothing from the network.</footer>
</main></body></html>
`
}
