/**
 * Anthropic prompt-cache breakpoints (`cache_control`) on neutral messages: where the
 * caller's are, where gssc may add its own, and the API's rules on both.
 *
 * The Messages API takes at most 4 breakpoints in a request, and one with a longer lifetime
 * (`ttl: '1h'`) may not come after one with a shorter (`5m`, the default). Only blocks that
 * can carry `cache_control` can be marked: text, images, documents, tool calls and tool
 * results, not reasoning. gssc adds a breakpoint only where the part has none, never moves or
 * changes one the caller set, and adds none that would break either rule; the caller's own
 * are dropped only when they alone are more than 4 (the earliest go, each reported), since
 * the API would refuse the request otherwise.
 *
 * Both the pipeline's Anthropic renderer (`toAnthropic`) and `fitMessages` place their
 * breakpoints here, on the messages just before they are written out.
 *
 * @module
 */
import type { CacheControl, ChatMessage, Part } from '../message.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The API's limit on breakpoints in one request. */
export const MAX_BREAKPOINTS = 4

/** A part of a message: `messages[message].parts[part]` (`inner`: a block inside that tool result's content). */
export interface PartRef {
  readonly message: number
  readonly part: number
  readonly inner?: number
}

/** Messages with breakpoints placed, and where gssc added or dropped one. */
export interface Placed {
  readonly messages: ReadonlyArray<ChatMessage>
  readonly added: ReadonlyArray<PartRef>
  /** The caller's breakpoints beyond the API's limit, left out (the earliest ones). */
  readonly dropped: ReadonlyArray<PartRef>
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * Whether a part becomes an Anthropic block that can carry `cache_control` in a turn of this
 * role: not reasoning, and not a blank text (the API refuses a breakpoint there).
 *
 * @category utils
 * @since 0.2.0
 */
export const cacheablePart = (role: ChatMessage['role'], p: Part): boolean =>
  p._tag === 'Text'
    ? p.text.trim() !== ''
    : role === 'assistant'
      ? p._tag === 'ToolCall'
      : role !== 'system' && (p._tag === 'Image' || p._tag === 'ToolResult' || p._tag === 'Document')

/**
 * The last part that can carry a breakpoint among messages `0..upTo` (inclusive) of the
 * conversation (`turns`) or of the system prompt (`system`), searching back from the end: a
 * reasoning or blank block gives way to the block before it.
 *
 * @example
 * lastCacheable(messages, messages.length - 1) // { message: 7, part: 1 }
 * @category utils
 * @since 0.2.0
 */
export const lastCacheable = (messages: ReadonlyArray<ChatMessage>, upTo: number, role: 'system' | 'turns' = 'turns'): PartRef | undefined => {
  for (let m = Math.min(upTo, messages.length - 1); m >= 0; m--) {
    const msg = messages[m]!
    if ((msg.role === 'system') !== (role === 'system')) continue
    for (let p = msg.parts.length - 1; p >= 0; p--) if (cacheablePart(msg.role, msg.parts[p]!)) return { message: m, part: p }
  }
  return undefined
}

/** Request order: the system prompt comes first in a request, wherever its messages are. */
const orderOf = (messages: ReadonlyArray<ChatMessage>, r: PartRef): number =>
  (messages[r.message]!.role === 'system' ? 0 : 1) * 1e12 + r.message * 1e6 + r.part * 1e3 + (r.inner ?? 999)

const same = (a: PartRef, b: PartRef): boolean => a.message === b.message && a.part === b.part && a.inner === b.inner

/** The lifetime a breakpoint asks for (the API's default is `5m`). */
const ttlOf = (c: CacheControl): string => c.ttl ?? '5m'

/**
 * Every breakpoint the messages carry (a tool result's inner blocks too; reasoning carries
 * none), in request order.
 *
 * @category utils
 * @since 0.2.0
 */
export const breakpointsOf = (messages: ReadonlyArray<ChatMessage>): ReadonlyArray<PartRef & { readonly ttl: string }> => {
  const own: Array<PartRef & { readonly ttl: string }> = []
  messages.forEach((m, i) =>
    m.parts.forEach((p, k) => {
      if (p._tag === 'Thinking') return
      if (p.cacheControl !== undefined) own.push({ message: i, part: k, ttl: ttlOf(p.cacheControl) })
      if (p._tag === 'ToolResult') p.content.forEach((c, n) => c.cacheControl !== undefined && own.push({ message: i, part: k, inner: n, ttl: ttlOf(c.cacheControl) }))
    }),
  )
  return own.sort((a, b) => orderOf(messages, a) - orderOf(messages, b))
}

/** A part without the breakpoints listed for it. */
const withoutBreakpoints = (p: Part, refs: ReadonlyArray<PartRef>): Part => {
  if (p._tag === 'Thinking' || refs.length === 0) return p
  const { cacheControl: _, ...rest } = p
  const self = refs.some((r) => r.inner === undefined) ? rest : p
  if (self._tag !== 'ToolResult') return self
  const inner = new Set(refs.flatMap((r) => (r.inner === undefined ? [] : [r.inner])))
  if (inner.size === 0) return self
  return {
    ...self,
    content: self.content.map((c, n) => {
      if (!inner.has(n)) return c
      const { cacheControl: __, ...plain } = c
      return plain
    }),
  }
}

/**
 * Places the wanted breakpoints (in order of preference) with lifetime `control`, where the
 * API allows, and keeps the caller's: at most 4 in all, counting `earlier` (the lifetimes of
 * breakpoints sent before the messages, in tool definitions), and none that would put a `1h`
 * entry after a `5m` one. The caller's are dropped only when they alone are more than 4 (the
 * earliest go). The input is not mutated.
 *
 * @example
 * placeBreakpoints(messages, [lastCacheable(messages, messages.length - 1)!], { type: 'ephemeral' })
 * @category utils
 * @since 0.2.0
 */
export const placeBreakpoints = (
  messages: ReadonlyArray<ChatMessage>,
  wanted: ReadonlyArray<PartRef>,
  control: CacheControl,
  earlier: ReadonlyArray<string> = [],
): Placed => {
  const own = breakpointsOf(messages)
  const room = Math.max(0, MAX_BREAKPOINTS - earlier.length)
  const dropped = own.slice(0, Math.max(0, own.length - room))
  const kept = own.slice(dropped.length)
  const ttl = ttlOf(control)
  const added: PartRef[] = []
  for (const w of wanted) {
    if (kept.length + added.length >= room) break
    if (!cacheablePart(messages[w.message]!.role, messages[w.message]!.parts[w.part]!)) continue
    if (kept.some((k) => same(k, w)) || added.some((a) => same(a, w))) continue
    const at = orderOf(messages, w)
    // a 1h entry may not follow a 5m one: a 5m mark before a 1h one, or a 1h mark after a 5m one, is not added
    const clash =
      (ttl === '1h' && earlier.includes('5m')) ||
      kept.some((k) => (ttl === '5m' && k.ttl === '1h' && orderOf(messages, k) > at) || (ttl === '1h' && k.ttl === '5m' && orderOf(messages, k) < at))
    if (!clash) added.push(w)
  }
  if (added.length === 0 && dropped.length === 0) return { messages, added, dropped }
  const out = messages.map((m, i) => {
    if (!added.some((a) => a.message === i) && !dropped.some((d) => d.message === i)) return m
    const parts = m.parts.map((p, k): Part => {
      const cleared = withoutBreakpoints(p, dropped.filter((d) => d.message === i && d.part === k))
      return added.some((a) => same(a, { message: i, part: k })) && cleared._tag !== 'Thinking' ? { ...cleared, cacheControl: control } : cleared
    })
    return { ...m, parts }
  })
  return { messages: out, added, dropped }
}
