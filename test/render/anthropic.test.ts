import type { MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { describe, expect, it } from 'vitest'
import { image, message, text, toolCall, toolResult, type ThinkingPart } from '../../src/message.js'
import { toAnthropic } from '../../src/render/anthropic.js'
import { checkAnthropic } from '../../src/render/checkAnthropic.js'
import { modelFamily } from '../../src/render/clean.js'
import { EXCHANGE, piMessages } from './fixtures.js'

const exchange = EXCHANGE

const claude = { provider: 'anthropic', model: 'claude-opus-4-5' } as const
const signed: ThinkingPart = { _tag: 'Thinking', text: 'I should read it.', signature: 'EpEQ' }

describe('toAnthropic', () => {
  it('renders the exchange of formats.md §5.4 exactly, with a cache breakpoint on the system prompt', () => {
    const { request, findings } = toAnthropic(exchange, { cache: { system: true } })
    expect(findings).toEqual([])
    expect(request).toEqual({
      system: [{ type: 'text', text: 'You are a build assistant.', cache_control: { type: 'ephemeral' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Why does the build fail?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Reading the build script.' },
            { type: 'tool_use', id: 'toolu_01', name: 'read', input: { path: 'build.sh' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: [{ type: 'text', text: '#!/bin/sh\nnpm run compile\n' }] }] },
        { role: 'assistant', content: [{ type: 'text', text: 'build.sh calls a missing npm script `compile`.' }] },
      ],
    })
  })

  it('is assignable to the SDK types MessageParam[] and TextBlockParam[]', () => {
    const { request } = toAnthropic(exchange)
    const messages: MessageParam[] = request.messages
    const system: TextBlockParam[] | undefined = request.system
    expect(messages).toHaveLength(4)
    expect(system).toHaveLength(1)
  })

  it('merges consecutive turns of one role, results first (in the order written, as pi and Claude Code send them) and user text after them', () => {
    const { request, findings } = toAnthropic([
      message('user', 'first'),
      message('user', 'second'),
      message('assistant', [toolCall('a', 'ls', {}), toolCall('b', 'cat', { f: 'x' })]),
      message('tool', [toolResult('b', 'cat', 'B', true)]),
      message('tool', [toolResult('a', 'ls', 'A')]),
      message('user', 'and?'),
    ])
    expect(findings).toEqual([])
    expect(request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(request.messages[0]!.content).toEqual([
      { type: 'text', text: 'first' },
      { type: 'text', text: 'second' },
    ])
    expect(request.messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'B' }], is_error: true },
      { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'A' }] },
      { type: 'text', text: 'and?' },
    ])
  })

  it('moves every system message into the top-level system, reporting late ones', () => {
    const { request, findings } = toAnthropic([message('system', 'one'), message('user', 'hi'), message('system', 'two'), message('assistant', 'ok')])
    expect(request.system).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
    ])
    expect(request.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(findings).toEqual([{ _tag: 'MovedSystem', index: 2 }])
  })

  it('inserts a user turn before a leading assistant turn instead of dropping it', () => {
    const { request, findings } = toAnthropic([message('assistant', [toolCall('c', 'ls', {})]), message('tool', [toolResult('c', 'ls', 'x')])], {
      leadingUserText: '(continued)',
    })
    expect(request.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: '(continued)' }] })
    expect(findings).toEqual([{ _tag: 'SyntheticUserTurn', index: 0, text: '(continued)' }])
    expect(checkAnthropic(request)).toEqual([])
  })

  it('on request, leaves out the turns before the first user turn instead of inserting one (unless there is no user turn)', () => {
    const cut = [message('assistant', [toolCall('c1', 'ls', {})]), message('tool', [toolResult('c1', 'ls', 'a.txt')]), message('assistant', 'Done.'), message('user', 'next'), message('assistant', 'ok')]
    const { request, findings } = toAnthropic(cut, { leadingAssistant: 'drop' })
    expect(request.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(findings).toEqual([
      { _tag: 'DroppedLeadingTurn', index: 0 },
      { _tag: 'DroppedLeadingTurn', index: 2 },
    ])
    expect(toAnthropic(cut.slice(0, 3), { leadingAssistant: 'drop' }).request.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: '(earlier conversation omitted)' }] })
  })

  it('trims trailing whitespace from a final assistant turn', () => {
    const { request, findings } = toAnthropic([message('user', 'q'), message('assistant', 'The answer is ')])
    expect(request.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'The answer is' }] })
    expect(findings).toEqual([{ _tag: 'TrimmedTrailingWhitespace', index: 1 }])
  })

  it('keeps signed thinking for the model that wrote it, and sends it as text to any other', () => {
    const turn = message('assistant', [signed, text('Reading.')], { origin: claude })
    const same = toAnthropic([message('user', 'q'), turn], { target: claude })
    expect(same.request.messages[1]!.content[0]).toEqual({ type: 'thinking', thinking: 'I should read it.', signature: 'EpEQ' })
    expect(same.findings).toEqual([])
    const other = toAnthropic([message('user', 'q'), turn], { target: { provider: 'anthropic', model: 'claude-sonnet-4-5' } })
    expect(other.request.messages[1]!.content[0]).toEqual({ type: 'text', text: 'I should read it.' })
    expect(other.findings).toEqual([{ _tag: 'ThinkingAsText', index: 1 }])
  })

  it('replays signed thinking to the same model under any of its names (alias, dated snapshot, Bedrock id), not to another model', () => {
    const dated = message('assistant', [signed, text('Reading.')], { origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-opus-4-5-20251101' } })
    for (const model of ['claude-opus-4-5', 'claude-opus-4-5-20251101', 'us.anthropic.claude-opus-4-5-20251101-v1:0', 'claude-opus-4-5@20251101'])
      expect(toAnthropic([message('user', 'q'), dated], { target: { model } }).request.messages[1]!.content[0], model).toEqual({ type: 'thinking', thinking: 'I should read it.', signature: 'EpEQ' })
    for (const model of ['claude-opus-4-1', 'claude-opus-4-5-mini', 'claude-sonnet-4-5-20250929'])
      expect(toAnthropic([message('user', 'q'), dated], { target: { model } }).request.messages[1]!.content[0], model).toEqual({ type: 'text', text: 'I should read it.' })
    expect(modelFamily('us.anthropic.claude-opus-4-5-20251101-v1:0')).toBe('claude-opus-4-5')
    expect(modelFamily('claude-sonnet-4-5[1m]')).toBe('claude-sonnet-4-5')
  })

  it('sends unsigned thinking as text even to the same model, and drops redacted thinking for other models', () => {
    const unsigned = message('assistant', [{ _tag: 'Thinking', text: 'partial' }, text('ok')], { origin: claude })
    expect(toAnthropic([message('user', 'q'), unsigned], { target: claude }).request.messages[1]!.content[0]).toEqual({ type: 'text', text: 'partial' })
    const redacted = message('assistant', [{ _tag: 'Thinking', text: '', redacted: true, signature: 'opaque' }, text('ok')], { origin: claude })
    expect(toAnthropic([message('user', 'q'), redacted], { target: claude }).request.messages[1]!.content[0]).toEqual({ type: 'redacted_thinking', data: 'opaque' })
    const gone = toAnthropic([message('user', 'q'), redacted])
    expect(gone.request.messages[1]!.content).toEqual([{ type: 'text', text: 'ok' }])
    expect(gone.findings).toEqual([{ _tag: 'DroppedThinking', index: 1, reason: 'redacted' }])
  })

  it('drops images of unsupported media types and images in assistant turns', () => {
    const { request, findings } = toAnthropic([
      message('user', [text('see'), image('image/svg+xml', 'PHN2Zz4='), { _tag: 'Image', source: { _tag: 'Url', url: 'https://x.test/a.png' } }]),
      message('assistant', [text('nice'), image('image/png', 'AAAA')]),
    ])
    expect(request.messages[0]!.content).toEqual([
      { type: 'text', text: 'see' },
      { type: 'image', source: { type: 'url', url: 'https://x.test/a.png' } },
    ])
    expect(findings).toEqual([
      { _tag: 'DroppedImage', index: 0, reason: 'media_type' },
      { _tag: 'DroppedImage', index: 1, reason: 'assistant' },
    ])
  })

  it('places cache breakpoints at the end of a stable prefix and at the end of the request, skipping thinking', () => {
    const input = [
      message('user', 'q1'),
      message('assistant', 'a1'),
      message('user', 'q2'),
      message('assistant', [text('a2'), signed], { origin: claude }),
      message('user', 'q3'),
    ]
    const { request } = toAnthropic(input, { target: claude, cache: { prefixEnd: 3, last: true, ttl: '1h' } })
    const marked = request.messages.flatMap((m, i) => m.content.flatMap((b, k) => ('cache_control' in b && b.cache_control ? [[i, k, b.cache_control]] : [])))
    // prefix 0..3 ends on the thinking block, which cannot be marked: its text block is
    expect(marked).toEqual([
      [3, 0, { type: 'ephemeral', ttl: '1h' }],
      [4, 0, { type: 'ephemeral', ttl: '1h' }],
    ])
    expect(checkAnthropic(request)).toEqual([])
  })

  it('keeps the caller\'s own breakpoints, adds only where there is room, and drops the earliest of more than 4 with a finding', () => {
    const own = { type: 'ephemeral' as const }
    const marked = (t: string) => message('user', [{ _tag: 'Text', text: t, cacheControl: own }])
    const three = [marked('q1'), message('assistant', 'a1'), marked('q2'), message('assistant', 'a2'), marked('q3')]
    const r = toAnthropic(three, { cache: { prefixEnd: 3, last: true } })
    const where = (req: typeof r.request) => req.messages.flatMap((m, i) => m.content.flatMap((b, k) => ('cache_control' in b && b.cache_control ? [[i, k]] : [])))
    // three of the caller's, then one added at the end of the prefix; no room for a fifth
    expect(where(r.request)).toEqual([[0, 0], [2, 0], [3, 0], [4, 0]])
    const six = [marked('q1'), message('assistant', 'a1'), marked('q2'), message('assistant', 'a2'), marked('q3'), message('assistant', 'a3'), marked('q4'), message('assistant', 'a4'), marked('q5')]
    const s = toAnthropic([...six.slice(0, 8), marked('q5'), message('assistant', 'a5'), marked('q6')], { cache: { last: true } })
    expect(where(s.request)).toEqual([[4, 0], [6, 0], [8, 0], [10, 0]])
    expect(s.findings.filter((f) => f._tag === 'DroppedCacheBreakpoint').map((f) => f.index)).toEqual([0, 2])
    expect(checkAnthropic(s.request)).toEqual([])
  })

  it('renders real pi sessions into requests the validator accepts, replaying Claude\'s own signed thinking', () => {
    const input = piMessages('before-compaction.jsonl')
    const { request, findings } = toAnthropic(input, { target: claude })
    expect(checkAnthropic(request)).toEqual([])
    expect(findings.filter((f) => f._tag === 'DroppedFailedTurn')).toHaveLength(19)
    expect(findings.filter((f) => f._tag === 'ThinkingAsText')).toHaveLength(0)
    const thinking = request.messages.flatMap((m) => m.content.filter((b) => b.type === 'thinking'))
    expect(thinking.length).toBe(input.flatMap((m) => m.stopReason === 'aborted' || m.stopReason === 'error' ? [] : m.parts.filter((p) => p._tag === 'Thinking' && p.text.trim() !== '')).length)
  })
})
