import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { packet } from '../../src/packet.js'
import { loadWorkspace } from '../../src/workspace/load.js'
import { workspacePackets } from '../../src/workspace/packets.js'
import { buildSystemPrompt } from '../../src/workspace/prompt.js'
import { BASIC, FIXTURES, LOAD, left, right, RUNTIME, tokenizer } from './helpers.js'

const OPTIONS = { tokenizer, runtime: RUNTIME }

describe('workspacePackets', () => {
  it('makes one packet per part, in prompt order, with the part’s type, priority and exact tokens', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    const packets = right(workspacePackets(ws, { ...OPTIONS, channel: 'cli', chatId: 'direct' }))
    expect(packets.map((p) => [p.id, p.type, p.priority])).toEqual([
      ['workspace:identity', 'instructions', 0],
      ['workspace:bootstrap:AGENTS.md', 'instructions', 0],
      ['workspace:bootstrap:SOUL.md', 'instructions', 0],
      ['workspace:bootstrap:USER.md', 'instructions', 0],
      ['workspace:bootstrap:TOOLS.md', 'instructions', 0],
      ['workspace:memory', 'task_state', 1],
      ['workspace:notes', 'task_state', 1],
      ['workspace:skill:memory', 'evidence', 2],
      ['workspace:skills', 'evidence', 2],
      ['workspace:session', 'instructions', 0],
    ])
    for (const p of packets) expect(p.tokens).toBe(tokenizer.count(p.content))
    expect(packets.map((p) => (p.metadata?.workspace as { order: number }).order)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    const agents = packets[1]!
    expect(agents).toMatchObject({ content: `## AGENTS.md\n\n${ws.bootstrap[0]!.text}`, source: 'workspace:AGENTS.md' })
    expect(agents.metadata).toEqual({ workspace: { section: 'bootstrap', sectionHead: '', file: 'AGENTS.md', order: 1, truncated: false } })
    expect(packets[5]!.metadata).toEqual({ workspace: { section: 'memory', sectionHead: '# Memory', file: 'memory/MEMORY.md', order: 5, truncated: false } })
    // the summary is the whole skills section of the prompt
    const prompt = right(buildSystemPrompt(ws, OPTIONS)).prompt
    expect(prompt.endsWith(packets[8]!.content)).toBe(true)
    // they are valid packet inputs for the core
    expect(packet(agents, 0)).toMatchObject({ id: 'workspace:bootstrap:AGENTS.md', priority: 0, tokens: agents.tokens })
  })

  it('gives history entries their time, and follows priority overrides', async () => {
    const ws = right(await loadWorkspace(join(FIXTURES, 'history-md'), LOAD)())
    const packets = right(workspacePackets(ws, { ...OPTIONS, priorities: { history: 4, 'AGENTS.md': 1 } }))
    const history = packets.filter((p) => p.type === 'history')
    expect(history.map((p) => [p.content, p.priority, p.timestamp])).toEqual([
      ['- [2026-06-30 21:10] User asked for a packing list for the Hangzhou trip; saved it to trip.md.', 4, Date.parse('2026-06-30T13:10:00Z')],
      ['- [2026-07-01 08:45] Reminded the user about the 09:30 train.\nSecond line of the same entry.', 4, Date.parse('2026-07-01T00:45:00Z')],
      ['- [2026-07-02 09:05] User switched the weekly report to Mondays.', 4, Date.parse('2026-07-02T01:05:00Z')],
    ])
    expect(packets.find((p) => p.id === 'workspace:bootstrap:AGENTS.md')!.priority).toBe(1)
  })

  it('cuts each file to its cap but leaves the total to the pipeline', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    const packets = right(workspacePackets(ws, { ...OPTIONS, maxTokens: 50, fileTokens: { 'AGENTS.md': 34 }, minCutTokens: 8 }))
    const agents = packets.find((p) => p.id === 'workspace:bootstrap:AGENTS.md')!
    expect(agents.content).toBe('## AGENTS.md\n\n# Agent Instructions\n\nYou are a careful assistant for\n… [truncated: AGENTS.md, kept 16 of 38 tokens]')
    expect(agents.tokens).toBe(tokenizer.count(agents.content))
    expect((agents.metadata?.workspace as { truncated: boolean }).truncated).toBe(true)
    // maxTokens 50 is less than the identity alone, and nothing was dropped for it
    expect(packets).toHaveLength(9)
    expect(left(workspacePackets(ws, { ...OPTIONS, maxFileTokens: -1 })).message).toMatch(/^config\.maxFileTokens/)
  })
})
