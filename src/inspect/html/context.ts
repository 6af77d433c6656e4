/**
 * The report's context view: the final document rendered as the exact output text, with
 * each item a link to the packet it came from. The text is built from the same pieces, in
 * the same order, as `renderText`, so the view's text content is the output itself.
 *
 * @module
 */
import { match } from 'ts-pattern'
import { isRendered, type Document, type Item, type Section } from '../../structure/document.js'
import { attr, escapeHtml } from './escape.js'
import { num } from '../format.js'


const itemHtml = (item: Item, rowOf: (packetId: string) => number | undefined): string => {
  const body = `${item.prefix === '' ? '' : `<span class="prefix">${escapeHtml(item.prefix)}</span>`}${escapeHtml(item.text)}${item.suffix === undefined || item.suffix === '' ? '' : `<span class="prefix">${escapeHtml(item.suffix)}</span>`}`
  const row = item.packetId === undefined ? undefined : rowOf(item.packetId)
  if (row === undefined) return `<span class="static">${body}</span>`
  const cut = item.cut === undefined ? '' : ` (cut: ${num(item.cut.keptTokens)} of ${num(item.cut.originalTokens)} tokens kept)`
  return `<a${attr('class', item.cut === undefined ? 'item' : 'item cut')}${attr('id', `ctx-${row}`)}${attr('href', `#pkt-${row}`)}${attr('data-packet', item.packetId ?? '')}${attr('title', `${item.packetId ?? ''} · ${num(item.tokens)} tokens${cut}`)}>${body}</a>`
}

const sectionHtml = (s: Section, rowOf: (packetId: string) => number | undefined): string =>
  `<span${attr('class', 'section')}${attr('data-section', s.name)}><span class="head">${escapeHtml(s.head)}</span>${s.items
    .map((i) => itemHtml(i, rowOf))
    .join(`<span class="sep">${escapeHtml(s.separator)}</span>`)}</span>`

/**
 * The document as linked HTML; its text content equals `renderText(doc)`.
 *
 * @category constructors
 */
export const contextHtml = (doc: Document, rowOf: (packetId: string) => number | undefined): string =>
  doc.blocks
    .flatMap((b) =>
      match(b)
        .with({ _tag: 'Literal' }, (l) => [`<span class="literal">${escapeHtml(l.text)}</span>`])
        .with({ _tag: 'Section' }, (s) => (isRendered(s) ? [sectionHtml(s, rowOf)] : []))
        .exhaustive(),
    )
    .join(`<span class="joiner">${escapeHtml(doc.joiner)}</span>`)
