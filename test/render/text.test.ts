import { describe, expect, it } from 'vitest'
import { image, message, text, toolCall, toolResult } from '../../src/message.js'
import { isValidCallId, rewriteCallId, sanitizeName } from '../../src/render/callId.js'
import { describeFinding, type Finding } from '../../src/render/finding.js'
import { toText } from '../../src/render/text.js'

describe('toText', () => {
  it('writes a labelled transcript, without reasoning, failed turns or empty messages', () => {
    const transcript = toText([
      message('system', 'Be brief.'),
      message('user', [text('Why?'), image('image/png', 'AAAA')], { name: 'ada' }),
      message('assistant', [{ _tag: 'Thinking', text: 'secret plan' }, text('Reading.'), toolCall('c1', 'read', { path: 'a' })]),
      message('tool', [toolResult('c1', 'read', 'contents')]),
      message('assistant', 'half', { stopReason: 'aborted' }),
      message('assistant', '  '),
      message('assistant', 'Done.'),
    ])
    expect(transcript).toBe(
      [
        'System:\nBe brief.',
        'User (ada):\nWhy?\n[image]',
        'Assistant:\nReading.\nread({"path":"a"})',
        'Tool result (read):\ncontents',
        'Assistant:\nDone.',
      ].join('\n\n'),
    )
  })

  it('takes other labels', () => {
    expect(toText([message('user', 'hi')], { system: 'S', user: '用户', assistant: '助手', tool: '工具' })).toBe('用户:\nhi')
  })
})

describe('tool-call ids and names', () => {
  it('accepts ids of [a-zA-Z0-9_-], up to 40 characters for OpenAI and 64 for Anthropic', () => {
    expect(isValidCallId('toolu_01ABC-x', 'openai')).toBe(true)
    expect(isValidCallId('a'.repeat(41), 'openai')).toBe(false)
    expect(isValidCallId('a'.repeat(41), 'anthropic')).toBe(true)
    expect(isValidCallId('a|b', 'anthropic')).toBe(false)
    expect(isValidCallId('', 'anthropic')).toBe(false)
  })

  it('rewrites an id deterministically into a valid one that is not taken', () => {
    const id = 'call_abc|fc_' + 'f'.repeat(60)
    const once = rewriteCallId(id, 'openai', () => false)
    expect(isValidCallId(once, 'openai')).toBe(true)
    expect(rewriteCallId(id, 'openai', () => false)).toBe(once)
    const other = rewriteCallId(id, 'openai', (c) => c === once)
    expect(other).not.toBe(once)
    expect(isValidCallId(other, 'openai')).toBe(true)
    expect(rewriteCallId('', 'anthropic', () => false)).toMatch(/^call_[a-z0-9]+$/)
  })

  it('sanitises names', () => {
    expect(sanitizeName('ada')).toBe('ada')
    expect(sanitizeName('Ada Lovelace!')).toBe('Ada_Lovelace_')
    expect(sanitizeName('x'.repeat(70))).toHaveLength(64)
  })
})

describe('describeFinding', () => {
  it('describes every finding with its message index', () => {
    const all: ReadonlyArray<Finding> = [
      { _tag: 'DroppedFailedTurn', index: 1, stopReason: 'aborted' },
      { _tag: 'DroppedEmptyText', index: 1, count: 2 },
      { _tag: 'DroppedEmpty', index: 1 },
      { _tag: 'DroppedReasoningOnly', index: 1 },
      { _tag: 'DroppedStrayPart', index: 1, part: 'ToolCall' },
      { _tag: 'DroppedImage', index: 1, reason: 'media_type' },
      { _tag: 'DroppedImage', index: 1, reason: 'assistant' },
      { _tag: 'ThinkingAsText', index: 1 },
      { _tag: 'DroppedThinking', index: 1, reason: 'not_replayable' },
      { _tag: 'SyntheticResult', index: 1, callId: 'c1' },
      { _tag: 'DroppedOrphanResult', index: 1, callId: 'c1' },
      { _tag: 'MovedResult', index: 3, callId: 'c1', to: 1 },
      { _tag: 'RewroteCallId', index: 1, from: 'a|b', to: 'a_b_x' },
      { _tag: 'RewroteName', index: 1, from: 'A B', to: 'A_B' },
      { _tag: 'MovedSystem', index: 1 },
      { _tag: 'SyntheticUserTurn', index: 1, text: '(earlier conversation omitted)' },
      { _tag: 'TrimmedTrailingWhitespace', index: 1 },
    ]
    const lines = all.map(describeFinding)
    expect(new Set(lines).size).toBe(all.length)
    for (const l of lines) expect(l).toMatch(/^messages\[\d\]: \S/)
    expect(describeFinding({ _tag: 'SyntheticResult', index: 4, callId: 'call_1' })).toBe(
      'messages[4]: tool call "call_1" had no result; inserted an error result "No result provided"',
    )
    expect(describeFinding({ _tag: 'DroppedThinking', index: 0, reason: 'not_replayable' })).toBe('messages[0]: reasoning dropped (not replayable)')
  })
})
