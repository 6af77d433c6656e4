import { describe, expect, it } from 'vitest'
import { BRANCH_SUMMARY_PREFIX, COMPACTION_SUMMARY_PREFIX } from '../../../src/session/formats/piMessage.js'
import { contextOf, load, texts, writeSession } from '../helpers.js'

const V3 = 'pi-v3-branches.jsonl'

describe('pi v3', () => {
  it('rebuilds the last branch from its compaction, as pi would', async () => {
    const c = await contextOf(V3)
    expect(c.leafId).toBe('a000000f')
    expect(c.path).toEqual(['01', '02', '07', '08', '09', '11', '12', '13', '14', '15', '16', '0a', '0b', '0c', '0d', '0e', '0f'].map((n) => `a00000${n}`))
    expect(c.messages.map((m) => [m.entryId, m.kind, m.message.role])).toEqual([
      ['a000000a', 'compactionSummary', 'user'],
      ['a0000008', 'message', 'user'],
      ['a0000009', 'message', 'assistant'],
      ['a0000013', 'message', 'user'],
      ['a0000014', 'message', 'assistant'],
      ['a0000015', 'bashExecution', 'user'],
      ['a000000c', 'custom', 'user'],
      ['a000000f', 'message', 'user'],
    ])
    expect(texts(c.messages[0]!.message.parts)).toEqual([
      `${COMPACTION_SUMMARY_PREFIX}## Goal\nMake the build pass.\n\n## Progress\n### Done\n- [x] Added compile script\n</summary>`,
    ])
    expect(texts(c.messages[5]!.message.parts)).toEqual([
      "Ran `npx tsc -p .`\n```\nsrc/index.ts(3,1): error TS2304: Cannot find name 'foo'.\n```\n\nCommand exited with code 2",
    ])
    // entry timestamps become message timestamps for the turns pi synthesizes
    expect(c.messages[0]!.message.timestamp).toBe(Date.parse('2026-01-10T09:30:00.000Z'))
    expect(c.messages[6]!.message.timestamp).toBe(Date.parse('2026-01-10T09:30:02.000Z'))
    expect(c.compaction).toEqual({ entryId: 'a000000a', firstKeptEntryId: 'a0000008', tokensBefore: 48211, firstKeptFound: true })
  })

  it('reports the settings at the leaf and every change on the way', async () => {
    const c = await contextOf(V3)
    expect(c.thinkingLevel).toBe('high')
    // the aborted assistant turn still sets the model, as in pi
    expect(c.model).toEqual({ provider: 'openai', modelId: 'gpt-5.1-codex' })
    expect(c.changes).toEqual([
      { _tag: 'ModelChange', entryId: 'a0000001', timestamp: Date.parse('2026-01-10T09:00:00.100Z'), model: { provider: 'anthropic', modelId: 'claude-sonnet-4-5' } },
      { _tag: 'ThinkingLevelChange', entryId: 'a0000002', timestamp: Date.parse('2026-01-10T09:00:00.200Z'), thinkingLevel: 'low' },
      { _tag: 'ModelChange', entryId: 'a0000011', timestamp: Date.parse('2026-01-10T09:06:00.000Z'), model: { provider: 'openai', modelId: 'gpt-5.1-codex' } },
      { _tag: 'ThinkingLevelChange', entryId: 'a0000012', timestamp: Date.parse('2026-01-10T09:06:01.000Z'), thinkingLevel: 'high' },
    ])
  })

  it('rebuilds an abandoned branch with its image, thinking and tool call', async () => {
    const c = await contextOf(V3, { leaf: 'a0000010' })
    expect(c.messages.map((m) => m.message.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect(c.messages[0]!.message.parts[1]).toEqual({ _tag: 'Image', source: { _tag: 'Base64', mimeType: 'image/png', data: 'iVBORw0KGgo=' } })
    expect(c.messages[1]!.message.parts).toEqual([
      { _tag: 'Thinking', text: 'Check the build script first.', signature: 'sig-1' },
      { _tag: 'Text', text: 'Reading the build script.' },
      { _tag: 'ToolCall', id: 'toolu_01', name: 'read', args: { path: 'build.sh' } },
    ])
    expect(c.messages[1]!.message.origin).toEqual({ provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' })
    expect(c.messages[2]!.message.parts).toEqual([
      { _tag: 'ToolResult', callId: 'toolu_01', name: 'read', content: [{ _tag: 'Text', text: '#!/bin/sh\nnpm run compile\n' }], isError: false },
    ])
    expect(c.thinkingLevel).toBe('low')
  })

  it('turns a branch summary into pi’s user text when no compaction hides it', async () => {
    const c = await contextOf(V3, { leaf: 'a0000009' })
    expect(c.messages.map((m) => m.kind)).toEqual(['branchSummary', 'message', 'message'])
    expect(texts(c.messages[0]!.message.parts)).toEqual([`${BRANCH_SUMMARY_PREFIX}Read build.sh; it runs \`npm run compile\`, which is missing.</summary>`])
  })

  it('resolves labels (latest wins) and the session name (trimmed)', async () => {
    const s = await load(V3)
    expect([...s.labels]).toEqual([
      ['a0000006', 'diagnosis'],
      ['a0000008', 'fix-start'],
    ])
    expect(s.name).toBe('Fix build')
    expect(s.header).toMatchObject({ type: 'session', id: '5f0c2a9e-3b1d-4c7e-9a40-1d2e3f4a5b6c', cwd: '/home/alice/widget' })
  })

  it('clears a label with an entry that has none, and drops an empty branch summary', async () => {
    const at = (s: number): string => `2026-01-01T00:00:0${s}.000Z`
    const file = writeSession('labels.jsonl', [
        `{"type":"session","version":3,"id":"s","timestamp":"${at(0)}","cwd":"/"}`,
        `{"type":"message","id":"m1","parentId":null,"timestamp":"${at(1)}","message":{"role":"user","content":"hi","timestamp":1}}`,
        `{"type":"label","id":"l1","parentId":"m1","timestamp":"${at(2)}","targetId":"m1","label":"start"}`,
        `{"type":"label","id":"l2","parentId":"l1","timestamp":"${at(3)}","targetId":"m1"}`,
        `{"type":"branch_summary","id":"b1","parentId":"l2","timestamp":"${at(4)}","fromId":"root","summary":""}`,
    ])
    const s = await load(file)
    expect(s.labels.size).toBe(0)
    const c = await contextOf(file)
    expect(c.messages.map((m) => m.entryId)).toEqual(['m1'])
  })
})

describe('pi v1 migration', () => {
  it('chains entries in file order with ids v1-<index>, bad lines taking no index', async () => {
    const s = await load('pi-v1.jsonl')
    expect(s.version).toBe(1)
    expect(s.entries.map((e) => [e.id, e.parentId, e.line])).toEqual([
      ['v1-1', null, 2],
      ['v1-2', 'v1-1', 3],
      ['v1-3', 'v1-2', 5],
      ['v1-4', 'v1-3', 6],
      ['v1-5', 'v1-4', 7],
      ['v1-6', 'v1-5', 8],
      ['v1-7', 'v1-6', 9],
      ['v1-8', 'v1-7', 10],
      ['v1-9', 'v1-8', 11],
      ['v1-10', 'v1-9', 12],
    ])
  })

  it('maps firstKeptEntryIndex (header included) to the entry at that index', async () => {
    const c = await contextOf('pi-v1.jsonl')
    expect(c.compaction).toEqual({ entryId: 'v1-7', firstKeptEntryId: 'v1-5', tokensBefore: 9000, firstKeptFound: true })
    expect(c.messages.map((m) => [m.entryId, m.kind])).toEqual([
      ['v1-7', 'compactionSummary'],
      ['v1-5', 'bashExecution'],
      ['v1-6', 'message'],
      ['v1-9', 'bashExecution'],
      ['v1-10', 'message'],
    ])
    expect(texts(c.messages[1]!.message.parts)).toEqual(['Ran `cat missing.txt`\n```\ncat: missing.txt: No such file or directory\n```\n\nCommand exited with code 1'])
    // cancelled wins over the exit code; truncation names the full output
    expect(texts(c.messages[3]!.message.parts)).toEqual(['Ran `yes`\n```\ny\ny\n```\n\n(command cancelled)\n\n[Output truncated. Full output: /tmp/pi-bash-1.log]'])
    expect(c.thinkingLevel).toBe('medium')
    expect(c.model).toEqual({ provider: 'anthropic', modelId: 'claude-opus-4-5' })
  })
})

describe('pi v2 migration', () => {
  it('reads the hookMessage role as custom', async () => {
    const c = await contextOf('pi-v2.jsonl')
    expect(c.messages.map((m) => [m.kind, m.message.role, texts(m.message.parts)[0]])).toEqual([
      ['message', 'user', 'Deploy the site.'],
      ['custom', 'user', 'Deploys are frozen until Monday.'],
      ['message', 'assistant', 'Deploys are frozen until Monday, so I will wait.'],
    ])
  })

  it('reports a hookMessage in a v3 file instead of guessing', async () => {
    const file = writeSession('v3-hook.jsonl', [
        '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}',
        '{"type":"message","id":"h","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"hookMessage","content":"x","timestamp":1}}',
      ])
    const s = await load(file)
    expect(s.diagnostics.map((d) => [d.line, d.reason])).toEqual([
      [2, 'message role "hookMessage" is not valid in a version 3 session (pi renames it to "custom" when migrating v2); kept in the tree, contributes nothing'],
    ])
  })
})
