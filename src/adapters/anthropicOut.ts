/**
 * gssc messages → an Anthropic `{ system, messages }`: the inverse of
 * {@link fromAnthropicMessages}, so a conversation read from Anthropic comes back exactly.
 *
 * Messages from elsewhere: system messages (only before the first turn: Anthropic has no
 * system turn later) become `system`; each user or assistant message one turn; a run of `tool`
 * messages one user turn of `tool_result` blocks (the API wants every result of a turn's calls
 * in the next user turn). What Anthropic cannot express — reasoning without a signature, an
 * image type it does not take, a document other than PDF or plain text — is an error naming
 * `messages[i].parts[j]`, never dropped.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { match } from 'ts-pattern'
import type { CacheControl, ChatMessage, DocumentPart, ImagePart, Part, TextPart, ToolResultPart } from '../message.js'
import { isAnthropicMediaType } from '../render/wire.js'
import { ANTHROPIC } from './anthropicIn.js'
import type { AnthropicBlockParam, AnthropicDocumentParam, AnthropicImageParam, AnthropicMessageParam, AnthropicMessages, AnthropicTextParam, AnthropicToolResultParam } from './anthropicWire.js'
import { cannotWrite, eachAt, fieldsOf, formOf, objOf, type Dec } from './decode.js'

const TARGET = 'an Anthropic message'

const cached = (p: { readonly cacheControl?: CacheControl }): { cache_control?: CacheControl } => (p.cacheControl === undefined ? {} : { cache_control: p.cacheControl })

const textBlock = (p: TextPart): AnthropicTextParam => ({ ...fieldsOf(ANTHROPIC, p), type: 'text', text: p.text, ...cached(p) })

const imageBlock = (p: ImagePart, at: string): Dec<AnthropicImageParam> => {
  const kept = objOf(formOf(ANTHROPIC, p)['source'])
  const s = p.source
  if (s._tag === 'Base64' && !isAnthropicMediaType(s.mimeType)) return cannotWrite(at, `an image of type ${s.mimeType}`, TARGET)
  const source: AnthropicImageParam['source'] = s._tag === 'Url' ? { ...kept, type: 'url', url: s.url } : { ...kept, type: 'base64', media_type: s.mimeType as 'image/png', data: s.data }
  return E.right({ ...fieldsOf(ANTHROPIC, p), type: 'image', source, ...cached(p) })
}

const documentBlock = (p: DocumentPart, at: string): Dec<AnthropicDocumentParam> => {
  const kept = objOf(formOf(ANTHROPIC, p)['source'])
  const s = p.source
  if ((s._tag === 'Base64' && s.mimeType !== 'application/pdf') || (s._tag === 'Text' && s.mimeType !== 'text/plain'))
    return cannotWrite(at, `a document of type ${s.mimeType}`, TARGET)
  const source: AnthropicDocumentParam['source'] = match(s)
    .with({ _tag: 'Base64' }, (b) => ({ ...kept, type: 'base64' as const, media_type: 'application/pdf' as const, data: b.data }))
    .with({ _tag: 'Text' }, (t) => ({ ...kept, type: 'text' as const, media_type: 'text/plain' as const, data: t.text }))
    .with({ _tag: 'Url' }, (u) => ({ ...kept, type: 'url' as const, url: u.url }))
    .with({ _tag: 'FileId' }, (f) => ({ ...kept, type: 'file' as const, file_id: f.id }))
    .exhaustive()
  return E.right({ ...fieldsOf(ANTHROPIC, p), type: 'document', source, ...(p.name === undefined ? {} : { title: p.name }), ...cached(p) })
}

const resultBlock = (r: ToolResultPart, at: string): Dec<AnthropicToolResultParam> => {
  const form = formOf(ANTHROPIC, r)
  const only = r.content[0]
  const plain = r.content.length === 1 && only?._tag === 'Text' && only.cacheControl === undefined && only.native === undefined
  const content = eachAt(r.content, `${at}.content`, (c, cat): Dec<AnthropicTextParam | AnthropicImageParam> => (c._tag === 'Text' ? E.right(textBlock(c)) : imageBlock(c, cat)))
  if (E.isLeft(content)) return content
  const written = form['content'] === 'absent' && r.content.length === 0 ? {} : form['content'] === 'string' && plain ? { content: (only as TextPart).text } : { content: content.right }
  return E.right({
    ...fieldsOf(ANTHROPIC, r),
    type: 'tool_result',
    tool_use_id: r.callId,
    ...written,
    ...(r.isError ? { is_error: true } : form['isError'] === 'false' ? { is_error: false } : {}),
    ...cached(r),
  })
}

const blockOf = (p: Part, at: string): Dec<AnthropicBlockParam> =>
  match(p)
    .with({ _tag: 'Text' }, (t): Dec<AnthropicBlockParam> => E.right(textBlock(t)))
    .with({ _tag: 'Image' }, (i) => imageBlock(i, at))
    .with({ _tag: 'Document' }, (d) => documentBlock(d, at))
    .with({ _tag: 'ToolCall' }, (c): Dec<AnthropicBlockParam> => E.right({ ...fieldsOf(ANTHROPIC, c), type: 'tool_use', id: c.id, name: c.name, input: c.args, ...cached(c) }))
    .with({ _tag: 'ToolResult' }, (r) => resultBlock(r, at))
    .with({ _tag: 'Thinking' }, (t): Dec<AnthropicBlockParam> => {
      if (t.redacted === true) return E.right({ ...fieldsOf(ANTHROPIC, t), type: 'redacted_thinking', data: t.signature ?? t.text })
      if (t.signature === undefined) return cannotWrite(at, 'reasoning without a signature', TARGET)
      return E.right({ ...fieldsOf(ANTHROPIC, t), type: 'thinking', thinking: t.text, signature: t.signature })
    })
    .exhaustive()

const blocksOf = (m: ChatMessage, at: string): Dec<Array<AnthropicBlockParam>> => eachAt(m.parts, `${at}.parts`, blockOf)

/** A user or assistant message as one turn: a string when it was written so. */
const turnOf = (m: ChatMessage, role: 'user' | 'assistant', at: string): Dec<AnthropicMessageParam> => {
  const only = m.parts[0]
  if (formOf(ANTHROPIC, m)['content'] === 'string' && m.parts.length === 1 && only?._tag === 'Text' && only.cacheControl === undefined && only.native === undefined)
    return E.right({ ...fieldsOf(ANTHROPIC, m), role, content: only.text })
  return E.map((content: Array<AnthropicBlockParam>): AnthropicMessageParam => ({ ...fieldsOf(ANTHROPIC, m), role, content }))(blocksOf(m, at))
}

const systemOf = (systems: ReadonlyArray<readonly [ChatMessage, string]>): Dec<AnthropicMessages['system']> => {
  const first = systems[0]
  if (first === undefined) return E.right(undefined)
  const only = first[0].parts[0]
  if (systems.length === 1 && formOf(ANTHROPIC, first[0])['content'] === 'string' && first[0].parts.length === 1 && only?._tag === 'Text' && only.cacheControl === undefined)
    return E.right(only.text)
  const blocks: Array<AnthropicTextParam> = []
  for (const [m, at] of systems)
    for (const [j, p] of m.parts.entries()) {
      if (p._tag !== 'Text') return cannotWrite(`${at}.parts[${j}]`, `a ${p._tag} part in a system message`, TARGET)
      blocks.push(textBlock(p))
    }
  return E.right(blocks)
}

/**
 * Writes gssc messages as an Anthropic `{ system, messages }`, to spread into
 * `client.messages.create({ model, max_tokens, ...request })`. Exact inverse of
 * {@link fromAnthropicMessages}; anything Anthropic cannot express is an error naming its path.
 *
 * @example
 * toAnthropicMessages([message('system', 'Be brief.'), message('user', 'Hi')])
 * // Right({ system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] })
 * @category writers
 * @since 0.2.0
 */
export const toAnthropicMessages = (messages: ReadonlyArray<ChatMessage>): Dec<AnthropicMessages> => {
  const systems: Array<readonly [ChatMessage, string]> = []
  const turns: Array<AnthropicMessageParam> = []
  let results: Array<AnthropicBlockParam> | undefined
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    const at = `messages[${i}]`
    if (m.role !== 'tool') results = undefined
    if (m.role === 'system') {
      if (turns.length > 0) return cannotWrite(at, 'a system message after the conversation started', TARGET)
      systems.push([m, at])
      continue
    }
    const written = m.role === 'tool' ? blocksOf(m, at) : turnOf(m, m.role, at)
    if (E.isLeft(written)) return written
    if (m.role !== 'tool') turns.push(written.right as AnthropicMessageParam)
    else if (results !== undefined) results.push(...(written.right as Array<AnthropicBlockParam>))
    else {
      // a run of tool messages is one user turn
      results = written.right as Array<AnthropicBlockParam>
      turns.push({ role: 'user', content: results })
    }
  }
  return E.map((system: AnthropicMessages['system']): AnthropicMessages => ({ ...(system === undefined ? {} : { system }), messages: turns }))(systemOf(systems))
}
