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
 * Prompt caching: a part's own `cacheControl` (the caller's breakpoint) is sent as the block's
 * `cache_control`. Options (`cache`) add more: `system` marks the last system block;
 * `prefixEnd: k` marks the last block of the longest prefix of the turns made only of input
 * messages `0..k`; `last` marks the last block of the request. Thinking blocks cannot carry a
 * breakpoint, so the nearest block before one is marked instead. Added breakpoints follow the
 * API's rules (at most 4 in all with the caller's, a `1h` one never after a `5m` one), in the
 * order `prefixEnd`, `system`, `last`; see `./breakpoints.ts`.
 *
 * @module
 */
import { match } from 'ts-pattern'
import type { CacheControl, ChatMessage, ImagePart, Part } from '../message.js'
import { lastCacheable, placeBreakpoints, type PartRef } from './breakpoints.js'
import { redactedData } from './clean.js'
import type { Finding } from './finding.js'
import type { AnthropicOptions } from './options.js'
import { repair } from './repair.js'
import {
  isAnthropicMediaType,
  type AnthropicAssistantBlock,
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

/** A part's own breakpoint, as the block's `cache_control`. */
const cc = (p: { readonly cacheControl?: CacheControl }): { readonly cache_control?: CacheControl } => (p.cacheControl === undefined ? {} : { cache_control: p.cacheControl })

const image = (p: ImagePart): ReadonlyArray<AnthropicImageBlock> =>
  p.source._tag === 'Url'
    ? [{ type: 'image', source: { type: 'url', url: p.source.url }, ...cc(p) }]
    : isAnthropicMediaType(p.source.mimeType) // always true after repair; narrows the type
      ? [{ type: 'image', source: { type: 'base64', media_type: p.source.mimeType, data: p.source.data }, ...cc(p) }]
      : []

const userBlocks = (parts: ReadonlyArray<Part>): ReadonlyArray<AnthropicUserBlock> =>
  parts.flatMap((p): ReadonlyArray<AnthropicUserBlock> =>
    match(p)
      .with({ _tag: 'Text' }, (t): ReadonlyArray<AnthropicUserBlock> => [{ type: 'text', text: t.text, ...cc(t) }])
      .with({ _tag: 'Image' }, image)
      .with({ _tag: 'ToolResult' }, (r): ReadonlyArray<AnthropicUserBlock> => {
        const content = r.content.flatMap((c): ReadonlyArray<AnthropicTextBlock | AnthropicImageBlock> =>
          c._tag === 'Text' ? [{ type: 'text', text: c.text, ...cc(c) }] : image(c),
        )
        return [{ type: 'tool_result', tool_use_id: r.callId, ...(content.length > 0 ? { content } : {}), ...(r.isError ? { is_error: true } : {}), ...cc(r) }]
      })
      .with({ _tag: 'Thinking' }, { _tag: 'ToolCall' }, { _tag: 'Document' }, () => [])
      .exhaustive(),
  )

const assistantBlocks = (parts: ReadonlyArray<Part>): ReadonlyArray<AnthropicAssistantBlock> =>
  parts.flatMap((p): ReadonlyArray<AnthropicAssistantBlock> =>
    match(p)
      .with({ _tag: 'Text' }, (t): ReadonlyArray<AnthropicAssistantBlock> => [{ type: 'text', text: t.text, ...cc(t) }])
      .with({ _tag: 'Thinking' }, (t): ReadonlyArray<AnthropicAssistantBlock> => [
        t.redacted === true ? { type: 'redacted_thinking', data: redactedData(t) } : { type: 'thinking', thinking: t.text, signature: t.signature ?? '' },
      ])
      .with({ _tag: 'ToolCall' }, (c): ReadonlyArray<AnthropicAssistantBlock> => [{ type: 'tool_use', id: c.id, name: c.name, input: c.args, ...cc(c) }])
      .with({ _tag: 'Image' }, { _tag: 'ToolResult' }, { _tag: 'Document' }, () => [])
      .exhaustive(),
  )

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

/** The breakpoints the options ask for, in order of preference, on the repaired messages. */
const wantedBreakpoints = (messages: ReadonlyArray<ChatMessage>, sources: ReadonlyArray<number>, options: AnthropicOptions): ReadonlyArray<PartRef> => {
  const cache = options.cache
  if (cache === undefined || cache === false) return []
  const last = messages.length - 1
  const k = cache.prefixEnd
  // the longest prefix of the turns made only of input messages 0..k (system messages are hoisted)
  const end = k === undefined ? -1 : messages.findIndex((m, i) => m.role !== 'system' && sources[i]! > k)
  const wanted = [
    k === undefined ? undefined : lastCacheable(messages, end === -1 ? last : end - 1),
    cache.system === true ? lastCacheable(messages, last, 'system') : undefined,
    cache.last === true ? lastCacheable(messages, last) : undefined,
  ]
  return wanted.filter((w): w is PartRef => w !== undefined)
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
  const fixed = repair(messages, { ...options, format: 'anthropic' })
  const control: CacheControl = { type: 'ephemeral', ...(options.cache === false || options.cache?.ttl === undefined ? {} : { ttl: options.cache.ttl }) }
  const placed = placeBreakpoints(fixed.messages, wantedBreakpoints(fixed.messages, fixed.sources, options), control)
  const repaired = { ...fixed, messages: placed.messages }
  const dropped = placed.dropped.map((d): Finding => ({ _tag: 'DroppedCacheBreakpoint', index: fixed.sources[d.message]! }))
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
    for (const p of m.parts) if (p._tag === 'Text') system.push({ type: 'text', text: p.text, ...cc(p) })
  })

  const out: Array<AnthropicMessage> = turns.map((t): AnthropicMessage =>
    t.role === 'user' ? { role: 'user', content: t.items.map((it) => it.block) } : { role: 'assistant', content: t.items.map((it) => it.block) },
  )
  const turnSources = turns.map((t) => [...new Set(t.items.map((it) => it.source))])
  return {
    request: { ...(system.length > 0 ? { system } : {}), messages: out },
    findings: [...repaired.findings, ...moved, ...dropped].sort((a, b) => a.index - b.index),
    sources: system.length > 0 ? [systemSources, ...turnSources] : turnSources,
  }
}
