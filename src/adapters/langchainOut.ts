/**
 * gssc messages → LangChain.js messages: real `BaseMessage` instances, made with the classes
 * the caller passes in (`import * as lc from '@langchain/core/messages'`), so gssc does not
 * depend on `@langchain/core` and the instances are those of the app's own copy. The inverse
 * of {@link fromLangChain}: a conversation read from LangChain comes back as equal instances.
 *
 * Messages from elsewhere: content as a string for one plain text, else standard blocks
 * (`text`, `image` with `url` or `data` and `mimeType`, `reasoning`, and Anthropic's
 * `thinking` / `redacted_thinking` for signed reasoning); tool results as ToolMessages (the
 * results a user turn holds, as Anthropic keeps them, before it). Documents cannot be written:
 * an error naming `messages[i].parts[j]`, never dropped.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ChatMessage, ImagePart, Part, ToolCallPart, ToolResultPart } from '../message.js'
import { cannotWrite, eachAt, fieldsOf, flatEachAt, formOf, objOf, type Dec, type Obj } from './decode.js'
import { LANGCHAIN } from './langchainIn.js'
import { urlOfImageSource } from './media.js'

/**
 * The LangChain message classes to build instances with. `import * as lc from
 * '@langchain/core/messages'` is one.
 */
export interface LangChainClasses<S, H, A, T> {
  readonly SystemMessage: new (fields: never) => S
  readonly HumanMessage: new (fields: never) => H
  readonly AIMessage: new (fields: never) => A
  readonly ToolMessage: new (fields: never) => T
}

const TARGET = 'a LangChain message'

const imageBlock = (p: ImagePart): Obj => {
  const form = formOf(LANGCHAIN, p)
  const fields = fieldsOf(LANGCHAIN, p)
  const url = urlOfImageSource(p.source)
  if (form['block'] === 'image_url') return { ...fields, type: 'image_url', image_url: form['url'] === 'string' ? url : { ...objOf(form['imageUrl']), url } }
  if (p.source._tag === 'Url') return { ...fields, type: 'image', url }
  return { ...(p.native?.shape === LANGCHAIN ? {} : { mimeType: p.source.mimeType }), ...fields, type: 'image', data: p.source.data }
}

const blockOf = (p: Part, at: string): Dec<Obj> => {
  const fields = fieldsOf(LANGCHAIN, p)
  if (p._tag === 'Text') return E.right({ ...fields, type: 'text', text: p.text })
  if (p._tag === 'Image') return E.right(imageBlock(p))
  if (p._tag === 'Thinking') {
    if (p.redacted === true) return E.right({ ...fields, type: 'redacted_thinking', data: p.signature ?? p.text })
    const kind = formOf(LANGCHAIN, p)['block'] ?? (p.signature === undefined ? 'reasoning' : 'thinking')
    return E.right(kind === 'reasoning' ? { ...fields, type: 'reasoning', reasoning: p.text } : { ...fields, type: 'thinking', thinking: p.text, ...(p.signature === undefined ? {} : { signature: p.signature }) })
  }
  return cannotWrite(at, `a ${p._tag} part in message content`, TARGET)
}

/** Fields common to every message: what was kept, the content, the name. */
const contentOf = (m: ChatMessage, parts: ReadonlyArray<readonly [Part, number]>, at: string, calls: ReadonlyArray<ToolCallPart>): Dec<string | Array<Obj>> => {
  const only = parts[0]?.[0]
  const twins = calls.flatMap((c) => {
    const form = formOf(LANGCHAIN, c)
    return form['block'] === undefined ? [] : [[form['block'] as Obj, Number(form['at'])] as const]
  })
  const asString = formOf(LANGCHAIN, m)['content'] === 'string' || m.native?.shape !== LANGCHAIN
  if (parts.length === 1 && only?._tag === 'Text' && only.native === undefined && asString && twins.length === 0) return E.right(only.text)
  return E.map((blocks: Array<Obj>): Array<Obj> => {
    // the blocks that repeat tool calls go back where they were
    for (const [b, i] of [...twins].sort((x, y) => x[1] - y[1])) blocks.splice(Math.min(i, blocks.length), 0, b)
    return blocks
  })(eachAt(parts, `${at}.parts`, ([p, j]) => blockOf(p, `${at}.parts[${j}]`)))
}

const toolMessageFields = (r: ToolResultPart, m: ChatMessage | undefined, at: string): Dec<Obj> => {
  const form = formOf(LANGCHAIN, r)
  const holder: ChatMessage = { role: 'tool', parts: r.content, ...(m?.native === undefined ? {} : { native: m.native }) }
  return E.map((content: string | Array<Obj>): Obj => ({
    ...(m === undefined ? {} : fieldsOf(LANGCHAIN, m)),
    content,
    tool_call_id: r.callId,
    ...(form['name'] === 'absent' ? {} : { name: r.name }),
    ...(r.isError ? { status: 'error' } : form['status'] === 'success' ? { status: 'success' } : {}),
  }))(contentOf(holder, r.content.map((c, k) => [c, k] as const), `${at}.content`, []))
}

const instances = <S, H, A, T>(m: ChatMessage, at: string, lc: LangChainClasses<S, H, A, T>): Dec<ReadonlyArray<S | H | A | T>> => {
  const make = <X>(C: new (fields: never) => X, fields: Obj): X => new C(fields as never)
  const results = m.parts.flatMap((p, j): Array<readonly [ToolResultPart, number]> => (p._tag === 'ToolResult' ? [[p, j]] : []))
  if (m.role === 'tool' || m.role === 'user') {
    const tools = eachAt(results, `${at}.parts`, ([r, j]) => E.map((f: Obj) => make(lc.ToolMessage, f))(toolMessageFields(r, m.role === 'tool' ? m : undefined, `${at}.parts[${j}]`)))
    if (E.isLeft(tools)) return tools
    const rest = m.parts.map((p, j) => [p, j] as const).filter(([p]) => p._tag !== 'ToolResult')
    if (m.role === 'tool') return rest.length > 0 ? cannotWrite(`${at}.parts[${rest[0]![1]}]`, `a ${rest[0]![0]._tag} part in a tool turn`, TARGET) : tools
    if (results.length > 0 && rest.length === 0) return tools
    return E.map((content: string | Array<Obj>) => [...tools.right, make(lc.HumanMessage, { ...fieldsOf(LANGCHAIN, m), content, ...named(m) })])(contentOf(m, rest, at, []))
  }
  if (results.length > 0) return cannotWrite(`${at}.parts[${results[0]![1]}]`, `a tool result in a ${m.role} message`, TARGET)
  const calls = m.parts.filter((p): p is ToolCallPart => p._tag === 'ToolCall')
  const rest = m.parts.map((p, j) => [p, j] as const).filter(([p]) => p._tag !== 'ToolCall')
  return E.map((content: string | Array<Obj>): ReadonlyArray<S | H | A | T> => {
    if (m.role === 'system') return [make(lc.SystemMessage, { ...fieldsOf(LANGCHAIN, m), content, ...named(m) })]
    const toolCalls = calls.map((c) => ({ ...fieldsOf(LANGCHAIN, c), name: c.name, args: c.args, id: c.id }))
    return [make(lc.AIMessage, { ...fieldsOf(LANGCHAIN, m), content, ...named(m), ...(toolCalls.length > 0 || m.native?.shape !== LANGCHAIN ? { tool_calls: toolCalls } : {}) })]
  })(m.role === 'system' && calls.length > 0 ? cannotWrite(`${at}.parts`, 'a tool call in a system message', TARGET) : contentOf(m, rest, at, calls))
}

const named = (m: ChatMessage): Obj => (m.name === undefined ? {} : { name: m.name })

/**
 * Writes gssc messages as LangChain.js messages, built with the classes passed in. Exact inverse
 * of {@link fromLangChain}; anything LangChain cannot take is an error naming its path.
 *
 * @example
 * import * as lc from '@langchain/core/messages'
 * toLangChain([message('user', 'Hi')], lc) // Right([new HumanMessage({ content: 'Hi' })])
 * @category writers
 * @since 0.2.0
 */
export const toLangChain = <S, H, A, T>(messages: ReadonlyArray<ChatMessage>, classes: LangChainClasses<S, H, A, T>): Dec<Array<S | H | A | T>> =>
  flatEachAt(messages, 'messages', (m, at) => instances(m, at, classes))
