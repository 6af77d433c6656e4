import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { CacheControl, ChatMessage, Part, Role } from '../../src/message.js'
import { toAnthropic } from '../../src/render/anthropic.js'
import { breakpointsOf, cacheablePart, lastCacheable, MAX_BREAKPOINTS, placeBreakpoints, type PartRef } from '../../src/render/breakpoints.js'
import { checkAnthropic } from '../../src/render/checkAnthropic.js'
import type { AnthropicOptions } from '../../src/render/options.js'
import type { AnthropicRequest } from '../../src/render/wire.js'
import { deepFreeze } from './fixtures.js'
import { seeded } from '../prop.js'

const claude = { provider: 'anthropic', model: 'claude-opus-4-5' } as const
const control = fc.option(fc.constantFrom<CacheControl>({ type: 'ephemeral' }, { type: 'ephemeral', ttl: '5m' }, { type: 'ephemeral', ttl: '1h' }), { nil: undefined, freq: 3 })
const withControl = <P extends object>(p: P, c: CacheControl | undefined): P => (c === undefined ? p : { ...p, cacheControl: c })
const text = fc.constantFrom('read it', '', '  ', 'done\n', '数据')
const callId = fc.constantFrom('c1', 'c2', 'c3')

const part: fc.Arbitrary<Part> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(text, control).map(([t, c]): Part => withControl({ _tag: 'Text', text: t }, c)) },
  { weight: 2, arbitrary: fc.constantFrom<Part>({ _tag: 'Thinking', text: 'plan', signature: 'sig' }, { _tag: 'Thinking', text: '', signature: 'x', redacted: true }) },
  { weight: 2, arbitrary: fc.tuple(callId, control).map(([id, c]): Part => withControl({ _tag: 'ToolCall', id, name: 'read', args: { path: id } }, c)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(callId, fc.array(fc.tuple(text, control), { maxLength: 2 }), control)
      .map(([callId, inner, c]): Part => withControl({ _tag: 'ToolResult', callId, name: 'read', isError: false, content: inner.map(([t, ic]) => withControl({ _tag: 'Text' as const, text: t }, ic)) }, c)),
  },
)
const chatMessage: fc.Arbitrary<ChatMessage> = fc.record({
  role: fc.constantFrom<Role>('system', 'user', 'assistant', 'tool'),
  parts: fc.array(part, { minLength: 1, maxLength: 3 }),
  origin: fc.constant(claude),
})
const conversation = fc.array(chatMessage, { maxLength: 10 }).map(deepFreeze)
const options: fc.Arbitrary<AnthropicOptions> = fc.record(
  { target: fc.constant(claude), cache: fc.oneof(fc.constant(false as const), fc.record({ system: fc.boolean(), prefixEnd: fc.nat(10), last: fc.boolean(), ttl: fc.constantFrom('5m', '1h') }, { requiredKeys: [] })) },
  { requiredKeys: [] },
)

/** Every `cache_control` of a request, in the order the API reads them. */
const marks = (r: AnthropicRequest): ReadonlyArray<{ readonly ttl: string; readonly type: string; readonly blank: boolean }> => {
  const out: Array<{ ttl: string; type: string; blank: boolean }> = []
  const note = (b: { readonly type: string; readonly cache_control?: CacheControl | null; readonly text?: string }): void => {
    if (b.cache_control != null) out.push({ ttl: b.cache_control.ttl ?? '5m', type: b.type, blank: b.type === 'text' && (b.text ?? '').trim() === '' })
  }
  for (const b of r.system ?? []) note(b)
  for (const m of r.messages)
    for (const b of m.content) {
      if (b.type === 'tool_result') for (const c of b.content ?? []) note(c)
      note(b)
    }
  return out
}

describe('cache breakpoints', () => {
  it('a request never carries more than 4, none on reasoning or a blank block; the caller’s are kept when they fit', () => {
    fc.assert(
      fc.property(conversation, options, (input, opts) => {
        const { request, findings } = toAnthropic(input, opts)
        const all = marks(request)
        expect(all.length).toBeLessThanOrEqual(MAX_BREAKPOINTS)
        expect(all.every((m) => m.type !== 'thinking' && m.type !== 'redacted_thinking' && !m.blank)).toBe(true)
        expect(checkAnthropic(request).filter((v) => v._tag === 'TooManyCacheBreakpoints')).toEqual([])
        // the caller's own, on what survives the repairs, are all sent when there are at most 4
        const dropped = findings.filter((f) => f._tag === 'DroppedCacheBreakpoint').length
        if (dropped > 0) expect(all.length).toBe(MAX_BREAKPOINTS)
      }),
      seeded(400),
    )
  })

  it('placed directly: at most 4 with the tools’ own, only on blocks that take one, no 1h after a 5m, the input untouched', () => {
    const earlier = fc.array(fc.constantFrom('5m', '1h'), { maxLength: 3 })
    fc.assert(
      fc.property(conversation, earlier, fc.constantFrom<CacheControl>({ type: 'ephemeral' }, { type: 'ephemeral', ttl: '1h' }), (input, before, c) => {
        const snapshot = JSON.stringify(input)
        const last = input.length - 1
        const wanted = [lastCacheable(input, last), lastCacheable(input, last, 'system'), lastCacheable(input, Math.floor(last / 2))].filter((w): w is PartRef => w !== undefined)
        const placed = placeBreakpoints(input, wanted, c, before)
        expect(JSON.stringify(input)).toBe(snapshot)
        const own = breakpointsOf(input)
        const after = breakpointsOf(placed.messages)
        expect(before.length + after.length).toBeLessThanOrEqual(MAX_BREAKPOINTS)
        for (const a of placed.added) {
          const p = input[a.message]!.parts[a.part]!
          // never reasoning, never a blank text (the API refuses both)
          expect(p._tag !== 'Thinking' && !(p._tag === 'Text' && p.text.trim() === '')).toBe(true)
          expect(cacheablePart(input[a.message]!.role, p)).toBe(true)
        }
        // the caller's own stay when they fit beside the tools'
        if (own.length + before.length <= MAX_BREAKPOINTS) {
          expect(placed.dropped).toEqual([])
          expect(after.filter((x) => own.some((o) => o.message === x.message && o.part === x.part && o.inner === x.inner))).toHaveLength(own.length)
        }
        // an added breakpoint never breaks the lifetime order (tools first, then in request order)
        const ttl = c.ttl ?? '5m'
        const sequence = [...before, ...after.map((x) => (placed.added.some((a) => a.message === x.message && a.part === x.part && x.inner === undefined) ? `+${ttl}` : x.ttl))]
        sequence.forEach((t, i) => {
          if (t === '+1h') expect(sequence.slice(0, i).some((u) => u.endsWith('5m'))).toBe(false)
          if (t === '+5m') expect(sequence.slice(i + 1).some((u) => u === '1h')).toBe(false)
        })
      }),
      seeded(400),
    )
  })
})
