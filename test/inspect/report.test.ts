import { createHash } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { explain } from '../../src/inspect/explain.js'
import { renderReport } from '../../src/inspect/html/report.js'
import { escapeHtml, jsonForScript } from '../../src/inspect/html/escape.js'
import { SCRIPT, SCRIPT_SHA256 } from '../../src/inspect/html/script.js'
import { toJson, type BuildResult } from '../../src/report.js'
import { anthropicOutput, openaiOutput, openaiSources } from './chatFixtures.js'
import { roomy, SCRIPT_ID, SCRIPT_PAYLOAD, tight } from './fixtures.js'

let big: BuildResult<string>
let small: BuildResult<string>
beforeAll(async () => {
  ;[big, small] = await Promise.all([roomy(), tight(400)])
})

const unescape = (s: string): string =>
  s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
const textOf = (html: string): string => unescape(html.replace(/<[^>]*>/g, ''))
const between = (html: string, start: string, end: string): string => {
  const from = html.indexOf(start)
  expect(from, start).toBeGreaterThanOrEqual(0)
  return html.slice(from + start.length, html.indexOf(end, from + start.length))
}
const embedded = (html: string): unknown => JSON.parse(between(html, '<script type="application/json" id="gssc-report">', '</script>'))
/** Attributes and CSS that would make a browser fetch something. */
const FETCHES = /(?:\s(?:src|href|srcset|action|poster|data)\s*=\s*["']?\s*(?:https?:|\/\/|file:|ftp:))|<link\b|<iframe\b|<object\b|<embed\b|@import|url\(/i

describe('renderReport', () => {
  it('shows packet content as text: <script>, </script>, quotes and tags are escaped', () => {
    const html = renderReport(big)
    expect(html).not.toContain(SCRIPT_PAYLOAD)
    expect(html).toContain(escapeHtml(SCRIPT_PAYLOAD))
    expect(html).toContain(escapeHtml(SCRIPT_ID))
    expect(html).toContain('evil &quot;quoted&quot; &lt;source&gt;')
    // exactly two script elements: the JSON data and the page script
    expect(html.match(/<script\b/gi)).toHaveLength(2)
    expect(html.match(/<\/script>/gi)).toHaveLength(2)
  })

  it('embeds the JSON report, which a </script> in a packet cannot break out of', () => {
    for (const r of [big, small]) {
      const html = renderReport(r)
      const data = between(html, '<script type="application/json" id="gssc-report">', '</script>')
      expect(data).not.toMatch(/[<>]/)
      expect(embedded(html)).toEqual(JSON.parse(JSON.stringify(toJson(r))))
    }
    expect(JSON.parse(jsonForScript({ a: '</script><!-- \u2028 & >' }))).toEqual({ a: '</script><!-- \u2028 & >' })
  })

  it('shows totals equal to the JSON report, in data attributes', () => {
    for (const r of [big, small]) {
      const html = renderReport(r)
      const j = toJson(r)
      const totals = between(html, '<dl id="totals"', '>')
      const attr = (name: string) => new RegExp(`data-${name}="([^"]*)"`).exec(totals)?.[1]
      expect(attr('max-tokens')).toBe(String(j.budget.maxTokens))
      expect(attr('available')).toBe(String(j.budget.available))
      expect(attr('reserved')).toBe(String(j.budget.reserved))
      expect(attr('used')).toBe(String(j.tokenCount))
      expect(attr('free')).toBe(String(j.budget.available - j.tokenCount))
      expect(attr('exact')).toBe(String(j.tokenCountExact))
      expect(html).toContain(`<dd data-total="used" data-value="${j.tokenCount}">`)
    }
  })

  it('has a row for every packet, with its status, and for every exclusion that is not a packet', () => {
    for (const r of [big, small]) {
      const html = renderReport(r)
      for (const [i, p] of r.packets.entries()) {
        const row = between(html, `<tr id="pkt-${i}" data-status="${p.status}" data-index="${i}">`, '</tr>')
        expect(row).toContain(`data-v="${escapeHtml(p.id)}" data-key="id"`)
        expect(row).toContain(`<span class="status ${p.status}">${p.status}</span>`)
        if (p.reason !== undefined) expect(row).toContain(`<code>${p.reason}</code>`)
      }
    }
    const html = renderReport(big)
    expect(html).toContain('data-v="gatherer:broken-search"')
    expect(html.match(/<tr id="pkt-/g)).toHaveLength(big.packets.length + 2)
  })

  it('shows the context as the exact output, each part linked to its packet row and back', () => {
    for (const r of [big, small]) {
      const html = renderReport(r)
      const context = between(html, '<pre class="context" id="context">', '</pre>')
      expect(textOf(context)).toBe(r.output)
      for (const id of r.included) {
        const i = r.packets.findIndex((p) => p.id === id)
        expect(context).toContain(`id="ctx-${i}" href="#pkt-${i}" data-packet="${escapeHtml(id)}"`)
        expect(html).toContain(`<a href="#ctx-${i}">`)
      }
    }
  })

  it('is self-contained: nothing to fetch, and a CSP that allows only its own script', () => {
    const html = renderReport(big)
    expect(html).not.toMatch(/https?:\/\//)
    expect(html).not.toMatch(FETCHES)
    const script = between(html, '<script>', '</script>')
    const hash = createHash('sha256').update(script, 'utf8').digest('base64')
    expect(html).toContain(escapeHtml(`script-src 'sha256-${hash}'`))
    expect(html).toContain(escapeHtml("default-src 'none'"))
  })

  it('reports a build whose output is empty', async () => {
    const r = await tight(12)
    expect(r.output).toBe('')
    const html = renderReport(r)
    expect(between(html, '<pre class="context" id="context">', '</pre>')).toBe('')
    expect(html).toContain('<li class="warning">P0 packet instructions')
    expect(html).toContain('<dd data-total="used" data-value="0">0</dd>')
    // every packet dropped, plus the duplicate id and the range of uncounted turns
    expect(html.match(/<tr id="pkt-[^"]+" data-status="dropped"/g)?.length).toBe(r.packets.length + 2)
    expect(explain(r).dropped.slice(-2).map((d) => [d.id, d.reason])).toEqual([
      ['history:0..9', 'over_budget'],
      ['why', 'duplicate_id'],
    ])
  })

  it('falls back to the plain output when the document is not what was rendered', () => {
    const html = renderReport({ ...big, output: `custom renderer ${SCRIPT_PAYLOAD}` })
    expect(between(html, '<pre class="context" id="output">', '</pre>')).toBe(escapeHtml(`custom renderer ${SCRIPT_PAYLOAD}`))
    expect(html).not.toContain('id="ctx-')
    expect(html).not.toContain('href="#ctx-')
  })
})

describe('renderReport for chat formats', () => {
  it('shows OpenAI messages by role, each tool call with its result', () => {
    const html = renderReport({ ...big, format: 'openai', output: openaiOutput, sources: openaiSources } as BuildResult<unknown>)
    const chat = between(html, '<div class="chat">', '<h2>Layout</h2>')
    expect(chat.match(/<div class="turn role-(\w+)"/g)?.map((s) => s.replace(/.*role-(\w+)"/, '$1'))).toEqual(['system', 'user', 'assistant', 'tool', 'user'])
    const call = between(chat, '<div class="tool-call" data-call="call_1">', '<div class="turn')
    expect(call).toContain('<code>read_file</code>')
    expect(call).toContain('<div class="tool-result" data-call="call_1">')
    expect(call).toContain('npm ERR! Missing script: &quot;compile&quot;')
    // the orphan result shows alone, flagged, and its script is text
    expect(chat).toContain('result of call_zzz (no matching call)')
    expect(chat).toContain(escapeHtml(SCRIPT_PAYLOAD))
    expect(html.match(/<script\b/gi)).toHaveLength(2)
    // inline images show; a URL image is named, never fetched
    expect(chat).toMatch(/<img class="image" src="data:image\/png;base64,[^"]+" alt="image">/)
    expect(chat).toContain('[image: https://example.com/remote.png]')
    expect(html).not.toMatch(FETCHES)
    // turns link to their packets
    const i = big.packets.findIndex((p) => p.id === 'history:8')
    expect(chat).toContain(`<a class="source" href="#pkt-${i}">history:8</a>`)
    // the result's turn is shown under the call, so its packet is listed there
    expect(call).toContain(`<a class="source" href="#pkt-${i + 1}">history:9</a>`)
    // the layout is still there, linked
    expect(html).toContain('<pre class="context" id="context">')
  })

  it('shows an Anthropic request: system, thinking, tool use with its error result', () => {
    const html = renderReport({ ...small, format: 'anthropic', output: anthropicOutput } as BuildResult<unknown>)
    const chat = between(html, '<div class="chat">', '<h2>Layout</h2>')
    expect(chat).toContain('<details class="thinking"><summary>thinking</summary>')
    const call = between(chat, '<div class="tool-call" data-call="toolu_1">', '<div class="turn')
    expect(call).toContain('<div class="tool-result error" data-call="toolu_1"><div class="label">result · error</div>')
    expect(chat).not.toContain('no matching call')
    expect(chat).toContain('server_tool_use')
    expect(chat).toContain(escapeHtml(SCRIPT_PAYLOAD))
    expect(html.match(/<script\b/gi)).toHaveLength(2)
  })
})

describe('the page script hash', () => {
  it('is the SHA-256 of the script, so the Content-Security-Policy lets exactly it run', () => {
    expect(SCRIPT_SHA256).toBe(createHash('sha256').update(SCRIPT, 'utf8').digest('base64'))
  })
})
