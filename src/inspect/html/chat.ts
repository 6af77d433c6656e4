/**
 * The report's chat view: the messages of a chat output as bubbles by role, each tool call
 * with its result right under it, and each turn linked to the packets it shows. Images are
 * shown only when inline (`data:image/…;base64`); a URL image is named, never fetched, so the
 * report stays offline.
 *
 * @module
 */
import { match } from 'ts-pattern'
import { pairResults, type ChatBlock, type ChatTurn, type MediaBlock } from '../chat.js'
import { attr, escapeHtml } from './escape.js'

const INLINE_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$/

const mediaHtml = (b: MediaBlock): string =>
  match(b)
    .with({ _tag: 'Text' }, (t) => `<div class="text">${escapeHtml(t.text)}</div>`)
    .with({ _tag: 'Image' }, (i) =>
      INLINE_IMAGE.test(i.url) ? `<img class="image"${attr('src', i.url)} alt="image">` : `<div class="image-ref">[image: ${escapeHtml(i.url.slice(0, 200))}]</div>`,
    )
    .exhaustive()

type ToolResult = Extract<ChatBlock, { _tag: 'ToolResult' }>

const resultHtml = (r: ToolResult, paired: boolean): string =>
  `<div${attr('class', `tool-result${r.isError ? ' error' : ''}${paired ? '' : ' orphan'}`)}${attr('data-call', r.callId)}><div class="label">${
    paired ? 'result' : `result of ${escapeHtml(r.callId)} (no matching call)`
  }${r.isError ? ' · error' : ''}</div>${r.content.map(mediaHtml).join('')}</div>`

const blockHtml = (b: ChatBlock, results: ReadonlyMap<string, ToolResult>): string =>
  match(b)
    .with({ _tag: 'Text' }, { _tag: 'Image' }, mediaHtml)
    .with({ _tag: 'Thinking' }, (t) => `<details class="thinking"><summary>thinking${t.redacted ? ' (redacted)' : ''}</summary><div class="text">${escapeHtml(t.text)}</div></details>`)
    .with({ _tag: 'ToolCall' }, (c) => {
      const result = results.get(c.id)
      return `<div class="tool-call"${attr('data-call', c.id)}><div class="label">call <code>${escapeHtml(c.name)}</code> <span class="call-id">${escapeHtml(c.id)}</span></div><pre class="args">${escapeHtml(c.args)}</pre>${
        result === undefined ? '<div class="tool-result missing"><div class="label">no result in the output</div></div>' : resultHtml(result, true)
      }</div>`
    })
    .with({ _tag: 'ToolResult' }, (r) => (results.get(r.callId) === r ? '' : resultHtml(r, false)))
    .with({ _tag: 'Unknown' }, (u) => `<pre class="unknown">${escapeHtml(u.json)}</pre>`)
    .exhaustive()

/**
 * The turns as a chat, as HTML. `sources[i]` lists the packets turn `i` shows and `rowOf`
 * finds their table rows.
 *
 * @category constructors
 */
export const chatHtml = (turns: ReadonlyArray<ChatTurn>, sources: ReadonlyArray<ReadonlyArray<string>>, rowOf: (packetId: string) => number | undefined): string => {
  const results = pairResults(turns)
  const bodies = turns.map((t) => t.blocks.map((b) => blockHtml(b, results)).join(''))
  // a tool turn whose results all sit under their calls is not shown; its packets are listed with the call
  const callTurn = new Map(turns.flatMap((t, i) => t.blocks.flatMap((b) => (b._tag === 'ToolCall' ? [[b.id, i] as const] : []))))
  const moved = turns.map((_, i) =>
    turns.flatMap((t, j) =>
      bodies[j] === '' && t.blocks.some((b) => b._tag === 'ToolResult' && callTurn.get(b.callId) === i) ? (sources[j] ?? []) : [],
    ),
  )
  const turnHtml = (t: ChatTurn, i: number): string => {
    if (bodies[i] === '') return ''
    const links = [...(sources[i] ?? []), ...(moved[i] ?? [])]
      .map((id) => {
        const row = rowOf(id)
        return row === undefined ? '' : `<a class="source"${attr('href', `#pkt-${row}`)}>${escapeHtml(id)}</a>`
      })
      .join('')
    return `<div${attr('class', `turn role-${t.role.replace(/[^a-z]/g, '')}`)}${attr('data-role', t.role)}><div class="who">${escapeHtml(t.role)}${
      t.name === undefined ? '' : ` · ${escapeHtml(t.name)}`
    }</div>${bodies[i]}${links === '' ? '' : `<div class="sources">from ${links}</div>`}</div>`
  }
  return `<div class="chat">${turns.map(turnHtml).join('\n')}</div>`
}
