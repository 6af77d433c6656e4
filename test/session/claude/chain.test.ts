import { describe, expect, it } from 'vitest'
import { listBranches } from '../../../src/session/branches.js'
import { contextOf, load, texts, writeSession } from '../helpers.js'
import { assistant, call, progress, result, text, user } from './lines.js'

// two parallel calls of one response: call b hangs off call a's line, result a is a side fork
const parallel = [
  user('u1', null, 0, 'list and read'),
  assistant('a1', 'u1', 1, 'msg_1', [text('Two calls.')]),
  assistant('a2', 'a1', 2, 'msg_1', [call('ta')]),
  progress('p1', 'a2', 3),
  assistant('a3', 'p1', 4, 'msg_1', [call('tb', 'Read', { file_path: 'x' })]),
  user('r1', 'a2', 5, [result('ta', 'A')], { sourceToolAssistantUUID: 'a2' }),
  user('r2', 'a3', 6, [result('tb', 'B')], { sourceToolAssistantUUID: 'a3' }),
  assistant('a4', 'r2', 7, 'msg_2', [text('Done.')]),
]

describe('recovering parallel calls', () => {
  it('sends one assistant turn with both calls and both real results, though the walk passes only one result', async () => {
    const c = await contextOf(writeSession('p.jsonl', parallel))
    expect(c.path).not.toContain('r1')
    expect(c.messages.map((m) => [m.entryId, m.message.role])).toEqual([
      ['u1', 'user'],
      ['a1', 'assistant'],
      ['r1', 'tool'],
      ['r2', 'tool'],
      ['a4', 'assistant'],
    ])
    expect(texts(c.messages[1]!.message.parts)).toEqual(['Two calls.', 'Bash({"command":"ls"})', 'Read({"file_path":"x"})'])
  })

  it('finds a side result by its call id even when it hangs off another line', async () => {
    const moved = parallel.map((l) => (l.includes('"uuid":"r1"') ? l.replace('"parentUuid":"a2"', '"parentUuid":"a1"') : l))
    const c = await contextOf(writeSession('q.jsonl', moved))
    expect(c.messages.filter((m) => m.message.role === 'tool').map((m) => m.entryId)).toEqual(['r1', 'r2'])
  })

  it('does not count the parallel fork as a branch; a rewound prompt is one', async () => {
    expect(listBranches()(await load(writeSession('p.jsonl', parallel))).map((b) => b.leafId)).toEqual(['a4'])
    const rewound = [...parallel, user('u2', 'a4', 8, 'first try'), user('u3', 'a4', 9, 'second try')]
    expect(listBranches()(await load(writeSession('r.jsonl', rewound))).map((b) => b.leafId)).toEqual(['u2', 'u3'])
  })

  it('rebuilds a subagent transcript from its own lines', async () => {
    const side = { isSidechain: true, agentId: 'a42' }
    const lines = [user('s1', null, 0, 'Explore src/', side), assistant('s2', 's1', 1, 'msg_s', [text('Found 3 files.')], side)]
    const s = await load(writeSession('agent-a42.jsonl', lines))
    expect(s.defaultLeaf).toBe('s2')
    expect(listBranches()(s).map((b) => [b.leafId, b.thread])).toEqual([['s2', 'sidechain:a42']])
    const c = await contextOf(writeSession('agent-a42.jsonl', lines))
    expect(c.messages.map((m) => texts(m.message.parts))).toEqual([['Explore src/'], ['Found 3 files.']])
  })
})

describe('an old inline subagent run', () => {
  const side = { isSidechain: true }
  const lines = [
    user('u1', null, 0, 'delegate'),
    assistant('a1', 'u1', 1, 'm1', [call('t1', 'Task', { prompt: 'look around' })]),
    user('s1', null, 2, 'look around', side),
    assistant('s2', 's1', 3, 'ms', [text('Looked.')], side),
    user('r1', 'a1', 4, [result('t1', 'Looked.')]),
    assistant('a2', 'r1', 5, 'm2', [text('Done.')]),
  ]

  it('is not a branch of the main conversation, but can be listed and rebuilt on its own', async () => {
    const file = writeSession('inline.jsonl', lines)
    const s = await load(file)
    expect(s.defaultLeaf).toBe('a2')
    expect(listBranches()(s).map((b) => b.leafId)).toEqual(['a2'])
    expect(listBranches({ subagents: true })(s).map((b) => [b.leafId, b.thread ?? 'main'])).toEqual([
      ['s2', 'sidechain'],
      ['a2', 'main'],
    ])
    const c = await contextOf(file, { leaf: 's2' })
    expect(c.messages.map((m) => texts(m.message.parts))).toEqual([['look around'], ['Looked.']])
    const main = await contextOf(file)
    expect(main.messages.map((m) => m.entryId)).toEqual(['u1', 'a1', 'r1', 'a2'])
  })
})
