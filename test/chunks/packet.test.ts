import { describe, expect, it } from 'vitest'
import { chunkToPackets } from '../../src/chunks/packet.js'
import { packet } from '../../src/packet.js'
import { chunk, exampleState } from './helpers.js'

describe('chunkToPackets', () => {
  it('maps SYSTEM chunks to instructions and the rest to history packets with their chat message', () => {
    const state = exampleState()
    const packets = state.chunkIds.flatMap((id) => chunkToPackets(state.chunks.get(id)!))
    expect(packets).toHaveLength(19)
    expect(packets.map((p) => p.type)).toEqual(['instructions', ...Array(18).fill('history')])
    const sys = packets[0]!
    expect(sys).toMatchObject({ id: 'chunk_sys_01', priority: 0, source: 'chunks', timestamp: 1767261600000 })
    expect(sys.content.startsWith('<system_context id="chunk_sys_01" priority="1000">\n')).toBe(true)
    expect(sys.message).toBeUndefined()
    const result = packets.find((p) => p.id === 'chunk_result_02')!
    expect(result).toMatchObject({
      type: 'history',
      group: 'call_02',
      metadata: { chunkId: 'chunk_result_02', tag: 'tool_result', chunkType: 'ENVIRONMENT', retentionStrategy: 'DISPOSABLE', priority: 200 },
      message: { role: 'user' },
    })
    expect(result.priority).toBeUndefined()
    expect(packets.find((p) => p.id === 'chunk_call_02')!.group).toBe('call_02')
    // what the model reads is what the selector scores and counts
    expect(result.content).toBe(result.message!.parts.map((p) => (p._tag === 'Text' ? p.text : '')).join(''))
    const done = packets.find((p) => p.id === 'chunk_done_01')!
    expect(done).toMatchObject({ type: 'history', priority: 0, metadata: { tag: 'task_completed' }, message: { role: 'assistant' } })
  })

  it('gives a container one packet per child, grouped by the container', () => {
    const c = chunk('w1', 'WORKING_FLOW', { type: 'TEXT', text: '' }, {
      children: [
        { id: 'w1a', subType: 'THINKING', content: { type: 'TEXT', text: 'plan' }, createdAt: 7 },
        { id: 'w1b', subType: 'USER', content: { type: 'TEXT', text: 'wait' }, createdAt: 8 },
      ],
    })
    const packets = chunkToPackets(c)
    expect(packets.map((p) => [p.id, p.group, p.message?.role, p.timestamp, p.metadata?.subType])).toEqual([
      ['w1a', 'w1', 'assistant', 7, 'THINKING'],
      ['w1b', 'w1', 'user', 8, 'USER'],
    ])
  })

  it('produces inputs the core packet constructor completes', () => {
    const [input] = chunkToPackets(chunk('u1', 'AGENT', { type: 'TEXT', text: 'hi', role: 'user' }))
    const p = packet(input!, 0)
    expect(p).toMatchObject({ id: 'u1', type: 'history', priority: 3, source: 'chunks', timestamp: 1 })
  })
})
