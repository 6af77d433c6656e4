/**
 * Chat outputs (OpenAI Chat Completions messages, an Anthropic Messages request, gssc's own
 * neutral messages) read back
 * as one neutral list of turns, so the report shows them the way a user sees a chat. The
 * output is treated as untrusted JSON: anything unrecognised is kept and shown as JSON,
 * never dropped.
 *
 * @module
 */
import * as O from 'fp-ts/lib/Option.js'
import { match, P } from 'ts-pattern'
import { partText, type ChatMessage, type ImagePart, type Part, type TextPart } from '../message.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Text or an image inside a turn or a tool result. */
export type MediaBlock = { readonly _tag: 'Text'; readonly text: string } | { readonly _tag: 'Image'; readonly url: string }

/** One block of a chat turn. */
export type ChatBlock =
  | MediaBlock
  | { readonly _tag: 'Thinking'; readonly text: string; readonly redacted: boolean }
  /** `args` is the arguments as indented JSON text. */
  | { readonly _tag: 'ToolCall'; readonly id: string; readonly name: string; readonly args: string }
  | { readonly _tag: 'ToolResult'; readonly callId: string; readonly content: ReadonlyArray<MediaBlock>; readonly isError: boolean }
  | { readonly _tag: 'Unknown'; readonly json: string }

/** One turn of the conversation as sent. */
export interface ChatTurn {
  readonly role: string
  readonly name?: string
  readonly blocks: ReadonlyArray<ChatBlock>
}

// -------------------------------------------------------------------------------------
// reading
// -------------------------------------------------------------------------------------

const json = (v: unknown): string => JSON.stringify(v, null, 2) ?? String(v)

/** A JSON-encoded arguments string, re-indented when it parses. */
const prettyArgs = (s: string): string => {
  try {
    return json(JSON.parse(s))
  } catch {
    return s
  }
}

const unknown = (v: unknown): ChatBlock => ({ _tag: 'Unknown', json: json(v) })

const media = (b: unknown): ChatBlock =>
  match(b)
    .with(P.string, (text) => ({ _tag: 'Text' as const, text }))
    .with({ type: 'text', text: P.string }, ({ text }) => ({ _tag: 'Text' as const, text }))
    .with({ type: 'image_url', image_url: { url: P.string } }, ({ image_url }) => ({ _tag: 'Image' as const, url: image_url.url }))
    .with({ type: 'image', source: { type: 'base64', media_type: P.string, data: P.string } }, ({ source }) => ({
      _tag: 'Image' as const,
      url: `data:${source.media_type};base64,${source.data}`,
    }))
    .with({ type: 'image', source: { type: 'url', url: P.string } }, ({ source }) => ({ _tag: 'Image' as const, url: source.url }))
    .otherwise(unknown)

const isMedia = (b: ChatBlock): b is MediaBlock => b._tag === 'Text' || b._tag === 'Image'

/** Text and images only; anything else in a tool result becomes JSON text. */
const mediaList = (content: unknown): ReadonlyArray<MediaBlock> =>
  (Array.isArray(content) ? content : content === undefined ? [] : [content]).map(media).map((b) => (isMedia(b) ? b : { _tag: 'Text', text: json(b) }))

const blocksOf = (content: unknown): ReadonlyArray<ChatBlock> => (Array.isArray(content) ? content.map(anthropicBlock) : content === undefined || content === null ? [] : [media(content)])

const anthropicBlock = (b: unknown): ChatBlock =>
  match(b)
    .with({ type: 'tool_use', id: P.string, name: P.string }, (c) => ({ _tag: 'ToolCall' as const, id: c.id, name: c.name, args: json((c as { input?: unknown }).input ?? {}) }))
    .with({ type: 'tool_result', tool_use_id: P.string }, (r) => ({
      _tag: 'ToolResult' as const,
      callId: r.tool_use_id,
      content: mediaList((r as { content?: unknown }).content),
      isError: (r as { is_error?: unknown }).is_error === true,
    }))
    .with({ type: 'thinking', thinking: P.string }, (t) => ({ _tag: 'Thinking' as const, text: t.thinking, redacted: false }))
    .with({ type: 'redacted_thinking' }, () => ({ _tag: 'Thinking' as const, text: '', redacted: true }))
    .otherwise(media)

const openaiTurn = (m: unknown): ChatTurn =>
  match(m)
    .with({ role: 'tool', tool_call_id: P.string }, (t) => ({
      role: 'tool',
      blocks: [{ _tag: 'ToolResult' as const, callId: t.tool_call_id, content: mediaList((t as { content?: unknown }).content), isError: false }],
    }))
    .with({ role: P.string }, (t) => {
      const r = t as { role: string; name?: unknown; content?: unknown; tool_calls?: unknown }
      const calls = Array.isArray(r.tool_calls)
        ? r.tool_calls.map((c: unknown): ChatBlock =>
            match(c)
              .with({ id: P.string, function: { name: P.string, arguments: P.string } }, (x) => ({ _tag: 'ToolCall' as const, id: x.id, name: x.function.name, args: prettyArgs(x.function.arguments) }))
              .otherwise(unknown),
          )
        : []
      return { role: r.role, ...(typeof r.name === 'string' ? { name: r.name } : {}), blocks: [...blocksOf(r.content), ...calls] }
    })
    .otherwise((x) => ({ role: 'unknown', blocks: [unknown(x)] }))

/** A neutral message part (gssc's own `ChatMessage`) as blocks; documents show as their text. */
const neutralBlock = (p: Part): ChatBlock =>
  match(p)
    .with({ _tag: 'Text' }, { _tag: 'Image' }, (m) => neutralMedia(m))
    .with({ _tag: 'Document' }, (d) => ({ _tag: 'Text' as const, text: partText(d) }))
    .with({ _tag: 'Thinking' }, (t) => ({ _tag: 'Thinking' as const, text: t.text, redacted: t.redacted === true }))
    .with({ _tag: 'ToolCall' }, (c) => ({ _tag: 'ToolCall' as const, id: c.id, name: c.name, args: json(c.args) }))
    .with({ _tag: 'ToolResult' }, (r) => ({ _tag: 'ToolResult' as const, callId: r.callId, content: r.content.map(neutralMedia), isError: r.isError }))
    .exhaustive()

const neutralMedia = (p: TextPart | ImagePart): MediaBlock =>
  match(p)
    .with({ _tag: 'Text' }, (t) => ({ _tag: 'Text' as const, text: t.text }))
    .with({ _tag: 'Image', source: { _tag: 'Base64' } }, (i) => ({ _tag: 'Image' as const, url: `data:${i.source.mimeType};base64,${i.source.data}` }))
    .with({ _tag: 'Image', source: { _tag: 'Url' } }, (i) => ({ _tag: 'Image' as const, url: i.source.url }))
    .exhaustive()

/** gssc's own chat messages (the chunk and session builders' output). */
const neutralTurn = (m: ChatMessage): ChatTurn => ({ role: m.role, ...(m.name === undefined ? {} : { name: m.name }), blocks: m.parts.map(neutralBlock) })

const anthropicTurns = (req: { readonly system?: unknown; readonly messages: ReadonlyArray<unknown> }): ReadonlyArray<ChatTurn> => [
  ...(req.system === undefined || (Array.isArray(req.system) && req.system.length === 0) ? [] : [{ role: 'system', blocks: blocksOf(req.system) }]),
  ...req.messages.map((m) =>
    match(m)
      .with({ role: P.string }, (t) => ({ role: t.role, blocks: blocksOf((t as { content?: unknown }).content) }))
      .otherwise((x) => ({ role: 'unknown', blocks: [unknown(x)] })),
  ),
]

/**
 * The turns of a chat output, or none for a text output. `format` picks the reader
 * (`openai`, `anthropic`); an unknown format is read by its shape (an array of messages, or
 * an object with `messages`).
 *
 * @example
 * chatTurns('openai', [{ role: 'user', content: 'Hi' }]) // O.some([{ role: 'user', blocks: [{ _tag: 'Text', text: 'Hi' }] }])
 * @category constructors
 * @since 0.1.0
 */
export const chatTurns = (format: string, output: unknown): O.Option<ReadonlyArray<ChatTurn>> =>
  match([format, output] as const)
    .with([P._, P.string], () => O.none)
    .with(['anthropic', { messages: P.array() }], [P._, { messages: P.array() }], ([, o]) => O.some(anthropicTurns(o)))
    .with([P._, P.array({ role: P.string, parts: P.array() })], ([, o]) => O.some((o as ReadonlyArray<ChatMessage>).map(neutralTurn)))
    .with([P._, P.array()], ([, o]) => O.some(o.map(openaiTurn)))
    .otherwise(() => O.none)

// -------------------------------------------------------------------------------------
// pairing
// -------------------------------------------------------------------------------------

/** Tool results by the id of the call they answer; only results whose call is in the output. */
export const pairResults = (turns: ReadonlyArray<ChatTurn>): ReadonlyMap<string, Extract<ChatBlock, { _tag: 'ToolResult' }>> => {
  const calls = new Set(turns.flatMap((t) => t.blocks.flatMap((b) => (b._tag === 'ToolCall' ? [b.id] : []))))
  const pairs = new Map<string, Extract<ChatBlock, { _tag: 'ToolResult' }>>()
  for (const t of turns) for (const b of t.blocks) if (b._tag === 'ToolResult' && calls.has(b.callId) && !pairs.has(b.callId)) pairs.set(b.callId, b)
  return pairs
}

/** The plain text of a turn, as the links to packets match it. @category utils */
export const turnText = (t: ChatTurn): string =>
  t.blocks
    .map((b) =>
      match(b)
        .with({ _tag: 'Text' }, (x) => x.text)
        .with({ _tag: 'Thinking' }, (x) => x.text)
        .with({ _tag: 'ToolCall' }, (x) => x.args)
        .with({ _tag: 'ToolResult' }, (x) => x.content.map((c) => (c._tag === 'Text' ? c.text : '')).join('\n'))
        .with({ _tag: 'Image' }, () => '')
        .with({ _tag: 'Unknown' }, (x) => x.json)
        .exhaustive(),
    )
    .join('\n')
