/**
 * Neutral chat messages → an Anthropic Messages request `{ system, messages }`.
 *
 * The conversation is repaired first (`./repair.ts`), so the output always satisfies
 * {@link checkAnthropic}. Mapping:
 *
 * | neutral | Anthropic |
 * | --- | --- |
 * | `system` (anywhere) | a text block of the top-level `system`, in order; one that came after the conversation started is reported as `MovedSystem` |
 * | `user` | `user` turn: `text` and `image` blocks (base64 or URL) |
 * | `assistant` | `assistant` turn: `text`, `thinking`, `redacted_thinking`, `tool_use` (`input` is the arguments object) |
 * | `tool` result | a `tool_result` block (text and images, `is_error` when set) in the next `user` turn |
 *
 * Consecutive turns of one role are merged into one turn, so roles alternate; the results of
 * one assistant turn therefore land in one user turn, first, before any user text.
 *
 * Thinking is kept only for the model that wrote it (`target` = its provider and model) and
 * only with a signature (redacted thinking: only for that model). Any other reasoning is sent
 * as plain text, without `<thinking>` tags, or dropped with `thinking: 'drop'` (pi's rules).
 *
 * Prompt caching (`cache`): `system` marks the last system block; `prefixEnd: k` marks the last
 * block of the longest prefix of the turns made only of input messages `0..k`; `last` marks the
 * last block of the request. Thinking blocks cannot carry a breakpoint, so the nearest block
 * before one is marked instead. At most 3 of the API's 4 breakpoints are used.
 *
 * @module
 */
import { match } from 'ts-pattern'
import type { CacheControl, ChatMessage, ImagePart, Part } from '../message.js'
import { redactedData } from './clean.js'
import type { Finding } from './finding.js'
import type { AnthropicOptions } from './options.js'
import { repair } from './repair.js'
import {
  isAnthropicMediaType,
  type AnthropicAssistantBlock,
  type AnthropicBlock,
  type AnthropicImageBlock,
  type AnthropicMessage,
  type AnthropicRequest,
  type AnthropicTextBlock,
  type AnthropicUserBlock,
} from './wire.js'

/** What {@link toAnthropic} returns: the request body to send, and the repairs made. */
export interface AnthropicRendered {
  readonly request: AnthropicRequest
  readonly findings: ReadonlyArray<Finding>
  /**
   * Provenance: the input message indices each turn of the request comes from — the system
   * prompt first when the request has one, then each message.
   */
  readonly sources: ReadonlyArray<ReadonlyArray<number>>
}

interface Sourced<B> {
  readonly block: B
  readonly source: number
}

// built locally by toAnthropic, then frozen into the request
type Turn =
  | { readonly role: 'user'; readonly items: Array<Sourced<AnthropicUserBlock>> }
  | { readonly role: 'assistant'; readonly items: Array<Sourced<AnthropicAssistantBlock>> }

const image = (p: ImagePart): ReadonlyArray<AnthropicImageBlock> =>
  p.source._tag === 'Url'
    ? [{ type: 'image', source: { type: 'url', url: p.source.url } }]
    : isAnthropicMediaType(p.source.mimeType) // always true after repair; narrows the type
      ? [{ type: 'image', source: { type: 'base64', media_type: p.source.mimeType, data: p.source.data } }]
      : []

const userBlocks = (parts: ReadonlyArray<Part>): ReadonlyArray<AnthropicUserBlock> =>
  parts.flatMap((p): ReadonlyArray<AnthropicUserBlock> =>
    match(p)
      .with({ _tag: 'Text' }, (t): ReadonlyArray<AnthropicUserBlock> => [{ type: 'text', text: t.text }])
      .with({ _tag: 'Image' }, image)
      .with({ _tag: 'ToolResult' }, (r): ReadonlyArray<AnthropicUserBlock> => {
        const content = r.content.flatMap((c): ReadonlyArray<AnthropicTextBlock | AnthropicImageBlock> =>
          c._tag === 'Text' ? [{ type: 'text', text: c.text }] : image(c),
        )
        return [{ type: 'tool_result', tool_use_id: r.callId, ...(content.length > 0 ? { content } : {}), ...(r.isError ? { is_error: true } : {}) }]
      })
      .with({ _tag: 'Thinking' }, { _tag: 'ToolCall' }, { _tag: 'Document' }, () => [])
      .exhaustive(),
  )

const assistantBlocks = (parts: ReadonlyArray<Part>): ReadonlyArray<AnthropicAssistantBlock> =>
  parts.flatMap((p): ReadonlyArray<AnthropicAssistantBlock> =>
    match(p)
      .with({ _tag: 'Text' }, (t): ReadonlyArray<AnthropicAssistantBlock> => [{ type: 'text', text: t.text }])
      .with({ _tag: 'Thinking' }, (t): ReadonlyArray<AnthropicAssistantBlock> => [
        t.redacted === true ? { type: 'redacted_thinking', data: redactedData(t) } : { type: 'thinking', thinking: t.text, signature: t.signature ?? '' },
      ])
      .with({ _tag: 'ToolCall' }, (c): ReadonlyArray<AnthropicAssistantBlock> => [{ type: 'tool_use', id: c.id, name: c.name, input: c.args }])
      .with({ _tag: 'Image' }, { _tag: 'ToolResult' }, { _tag: 'Document' }, () => [])
      .exhaustive(),
  )

const cacheable = (b: AnthropicBlock): boolean => b.type !== 'thinking' && b.type !== 'redacted_thinking'

// cacheable() excludes the two block types without a cache_control field
const withCache = <B extends AnthropicBlock>(b: B, cc: CacheControl): B => ({ ...b, cache_control: cc }) as B

/** Adds a message to the turns, merging it into the last turn when the roles match. */
const appendTurn = (turns: Array<Turn>, m: ChatMessage, source: number): void => {
  const last = turns[turns.length - 1]
  if (m.role === 'assistant') {
    const items = assistantBlocks(m.parts).map((block) => ({ block, source }))
    if (last?.role === 'assistant') last.items.push(...items)
    else turns.push({ role: 'assistant', items })
  } else {
    const items = userBlocks(m.parts).map((block) => ({ block, source }))
    if (last?.role === 'user') last.items.push(...items)
    else turns.push({ role: 'user', items })
  }
}

/** Positions `[turn, block]` of the breakpoints the options ask for. */
const breakpoints = (turns: ReadonlyArray<Turn>, options: AnthropicOptions): ReadonlyArray<readonly [number, number]> => {
  const marks: Array<readonly [number, number]> = []
  if (options.cache?.prefixEnd === undefined && options.cache?.last !== true) return marks
  const flat = turns.flatMap((t, ti) => t.items.map((it, bi) => ({ at: [ti, bi] as const, ...it })))
  const lastCacheable = (upTo: number): readonly [number, number] | undefined => {
    for (let i = upTo; i >= 0; i--) if (cacheable(flat[i]!.block)) return flat[i]!.at
    return undefined
  }
  const k = options.cache?.prefixEnd
  if (k !== undefined) {
    const end = flat.findIndex((f) => f.source > k)
    const mark = lastCacheable((end === -1 ? flat.length : end) - 1)
    if (mark !== undefined) marks.push(mark)
  }
  if (options.cache?.last === true) {
    const mark = lastCacheable(flat.length - 1)
    if (mark !== undefined && !marks.some(([t, b]) => t === mark[0] && b === mark[1])) marks.push(mark)
  }
  return marks
}

/**
 * Renders neutral messages as an Anthropic Messages request, repairing what the API would
 * reject. The input is not mutated.
 *
 * @example
 * const { request } = toAnthropic(messages, { target: { provider: 'anthropic', model: 'claude-sonnet-4-5' }, cache: { system: true } })
 * await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, ...request })
 * @category renderers
 * @since 0.1.0
 */
export const toAnthropic = (messages: ReadonlyArray<ChatMessage>, options: AnthropicOptions = {}): AnthropicRendered => {
  const repaired = repair(messages, { ...options, format: 'anthropic' })
  const system: Array<AnthropicTextBlock> = []
  const systemSources: Array<number> = []
  const moved: Array<Finding> = []
  const turns: Array<Turn> = []
  repaired.messages.forEach((m, i) => {
    const source = repaired.sources[i]!
    if (m.role !== 'system') {
      appendTurn(turns, m, source)
      return
    }
    if (turns.length > 0) moved.push({ _tag: 'MovedSystem', index: source })
    systemSources.push(source)
    for (const p of m.parts) if (p._tag === 'Text') system.push({ type: 'text', text: p.text })
  })

  const cc: CacheControl = { type: 'ephemeral', ...(options.cache?.ttl === undefined ? {} : { ttl: options.cache.ttl }) }
  const marks = breakpoints(turns, options)
  const marked = (ti: number, bi: number): boolean => marks.some(([t, b]) => t === ti && b === bi)
  const out: Array<AnthropicMessage> = turns.map((t, ti): AnthropicMessage =>
    t.role === 'user'
      ? { role: 'user', content: t.items.map((it, bi) => (marked(ti, bi) ? withCache(it.block, cc) : it.block)) }
      : { role: 'assistant', content: t.items.map((it, bi) => (marked(ti, bi) ? withCache(it.block, cc) : it.block)) },
  )
  const systemOut = options.cache?.system === true ? system.map((b, i) => (i === system.length - 1 ? withCache(b, cc) : b)) : system
  const turnSources = turns.map((t) => [...new Set(t.items.map((it) => it.source))])
  return {
    request: { ...(systemOut.length > 0 ? { system: systemOut } : {}), messages: out },
    findings: [...repaired.findings, ...moved].sort((a, b) => a.index - b.index),
    sources: systemOut.length > 0 ? [systemSources, ...turnSources] : turnSources,
  }
}
