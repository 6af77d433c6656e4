import { describe, expect, it } from 'vitest'
import { listBranches } from '../../../src/session/branches.js'
import { contextOf, load, texts } from '../helpers.js'

const FILE = 'claude-code.jsonl'
const u = (n: string): string => `6f1b2c3d-0000-4000-8000-0000000000${n}`

describe('Claude Code transcripts', () => {
  it('picks the newest main-thread line as Claude Code does, and stops at the compaction boundary', async () => {
    const s = await load(FILE)
    // the sidechain line is newer, but a subagent's line is never the main leaf; the newest is a system line
    expect(s.defaultLeaf).toBe(u('16'))
    const c = await contextOf(FILE)
    expect(c.path).toEqual([u('13'), u('14'), u('15'), u('16')])
    expect(c.messages.map((m) => [m.entryId, m.kind, m.message.role])).toEqual([
      [u('14'), 'compactionSummary', 'user'],
      [u('15'), 'message', 'assistant'],
    ])
    expect(c.model).toEqual({ provider: 'anthropic', modelId: 'claude-opus-4-5-20251101' })
  })

  it('merges the lines of one response, keeps tool results as tool turns, and skips progress lines', async () => {
    const c = await contextOf(FILE, { leaf: u('11') })
    // consecutive user lines (the prompt, then the injected caveat) are one turn, as Claude Code sends them
    expect(c.messages.map((m) => [m.entryId, m.kind, m.message.role])).toEqual([
      [u('01'), 'message', 'user'],
      [u('03'), 'message', 'assistant'],
      [u('07'), 'message', 'tool'],
      [u('08'), 'message', 'tool'],
      [u('09'), 'message', 'assistant'],
      [u('11'), 'message', 'user'],
    ])
    const merged = c.messages[1]!
    expect(merged.mergeKey).toBe('msg_01XYZ')
    expect(merged.message.parts).toEqual([
      { _tag: 'Thinking', text: 'Probably a week-boundary bug.', signature: 'EqQBCk' },
      { _tag: 'Text', text: 'Let me look at the test and the helper.' },
      { _tag: 'ToolCall', id: 'toolu_01ABC', name: 'Read', args: { file_path: '/home/alice/widget/test/date.test.ts' } },
      { _tag: 'ToolCall', id: 'toolu_02DEF', name: 'Grep', args: { pattern: 'weekStart' } },
    ])
    // the last line's stop reason is the response's
    expect(merged.message.stopReason).toBe('toolUse')
    expect(c.messages[3]!.message.parts).toEqual([
      { _tag: 'ToolResult', callId: 'toolu_02DEF', name: '', content: [{ _tag: 'Text', text: 'rg: src/: permission denied' }], isError: true },
    ])
    expect(texts(c.messages[0]!.message.parts)[0]).toBe('The date test fails on Mondays. Fix it.\n')
    expect(texts(c.messages[5]!.message.parts)).toEqual(['Use UTC and add no new dependency.', 'Image'])
    // the sidechain line hangs off u-08 but never reaches the main thread
    expect(c.messages.some((m) => texts(m.message.parts).some((t) => t.includes('Subagent')))).toBe(false)
  })

  it('leaves isMeta lines out when asked', async () => {
    const c = await contextOf(FILE, { leaf: u('11'), includeMeta: false })
    expect(c.messages.map((m) => m.entryId)).not.toContain(u('02'))
    expect(c.messages.length).toBe(6)
  })

  it('trusts a summary title only when its leaf is in the file, and lists the rewound branch', async () => {
    const s = await load(FILE)
    expect([...s.titles]).toEqual([[u('15'), 'Fix flaky date test']])
    const branches = listBranches()(s)
    // u10 was sent, then rewound: u11 replaced it and the conversation went on through the compaction
    expect(branches.map((b) => [b.leafId, b.length, b.isDefault])).toEqual([
      [u('10'), 11, false],
      [u('16'), 4, true],
    ])
  })
})
