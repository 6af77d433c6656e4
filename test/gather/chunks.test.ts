/**
 * `chunksGathering` (the chunk gatherer's packets) sends each chunk as `buildChunkContext`
 * does: the same pieces, rendered alike, with calls and their results tied together.
 */
import { describe, expect, it } from 'vitest'
import { buildChunkContext } from '../../src/chunks/build.js'
import type { MemoryState } from '../../src/chunks/model.js'
import type { ChunkRenderer } from '../../src/chunks/renderers.js'
import { chunksGathering } from '../../src/gather/chunks.js'
import type { Part } from '../../src/message.js'
import { gpt4o } from '../helpers.js'
import { chunk, exampleState, right, stateOf } from '../chunks/helpers.js'

const T = (text: string, fields: Record<string, unknown> = {}) => ({ type: 'TEXT', text, ...fields })
const toolCall = (id: string, callId: string) => ({ id, subType: 'AGENT_ACTION', content: { type: 'TEXT', action: 'tool_call', toolName: 'ls', callId, arguments: { dir: id } }, createdAt: 2 })
const result = (id: string, callId: string) => chunk(id, 'ENVIRONMENT', T(`listing ${id}`, { source: 'tool', toolName: 'ls', callId }))

/** A WORKFLOW chunk holding two tool calls as children, and each call's result as a chunk of its own. */
const twoCalls = (): MemoryState =>
  stateOf(chunk('u1', 'AGENT', T('list both', { role: 'user' })), chunk('w1', 'WORKFLOW', T(''), { children: [toolCall('w1a', 'c1'), toolCall('w1b', 'c2')] }), result('r1', 'c1'), result('r2', 'c2'))

const working = (): MemoryState =>
  stateOf(
    chunk('u1', 'AGENT', T('go', { role: 'user' })),
    chunk('w1', 'WORKING_FLOW', T(''), { children: [{ id: 'w1a', subType: 'THINKING', content: T('plan'), createdAt: 2 }, { id: 'w1b', subType: 'USER', content: T('wait'), createdAt: 3 }] }),
  )

const takesW1: ChunkRenderer = { canRender: (c) => c.id === 'w1', getRole: () => 'assistant', render: (c) => `all of ${c.id}` }
const takesAll: ChunkRenderer = { canRender: () => true, getRole: (c) => (c.id === 'u1' ? 'user' : 'assistant'), render: (c) => `[${c.id}]` }

/** Each chunk's parts as `buildChunkContext` places them, in order. */
const builtParts = (state: MemoryState, renderers: ReadonlyArray<ChunkRenderer>): ReadonlyMap<string, ReadonlyArray<Part>> => {
  const r = right(buildChunkContext(state, { tokenizer: gpt4o, renderers, maxTokens: 1_000_000 }))
  const out = new Map<string, Part[]>()
  for (const p of r.placements) out.set(p.chunkId, [...(out.get(p.chunkId) ?? []), ...p.partIndexes.map((i) => r.messages[p.messageIndex]!.parts[i]!)])
  return out
}

/** Each chunk's parts as the gatherer's packets carry them, in order (a system packet's text as one part). */
const gatheredParts = (state: MemoryState, renderers: ReadonlyArray<ChunkRenderer>): ReadonlyMap<string, ReadonlyArray<Part>> => {
  const out = new Map<string, Part[]>()
  for (const p of chunksGathering(state, { renderers }).packets) {
    const id = String(p.metadata?.chunkId)
    out.set(id, [...(out.get(id) ?? []), ...(p.message?.parts ?? [{ _tag: 'Text' as const, text: p.content }])])
  }
  return out
}

describe('chunksGathering', () => {
  it.each([
    ['the example agent loop, default renderers', exampleState(), []],
    ['the example agent loop, a renderer taking every chunk', exampleState(), [takesAll]],
    ['a container rendered child by child', working(), []],
    ['a container a renderer takes whole', working(), [takesW1]],
    ['a container of calls a renderer takes whole', twoCalls(), [takesW1]],
    ['a renderer taking containers and children alike', working(), [takesAll]],
  ] as const)('sends each chunk as buildChunkContext does: %s', (_, state, renderers) => {
    expect(gatheredParts(state, renderers)).toEqual(builtParts(state, renderers))
  })

  it('makes a container a renderer takes whole one packet, as that renderer renders it', () => {
    const packets = chunksGathering(working(), { renderers: [takesW1] }).packets
    expect(packets.map((p) => [p.id, p.content, p.message?.role])).toEqual([
      ['u1', expect.stringContaining('go'), 'user'],
      ['w1', 'all of w1', 'assistant'],
    ])
  })

  it('ties the results of every call a whole container makes to its group, and keeps calls apart otherwise', () => {
    const whole = chunksGathering(twoCalls(), { renderers: [takesW1] }).packets
    expect(whole.map((p) => [p.id, p.group])).toEqual([
      ['u1', undefined],
      ['w1', 'c1'],
      ['r1', 'c1'],
      ['r2', 'c1'],
    ])
    const split = chunksGathering(twoCalls()).packets
    expect(split.map((p) => [p.id, p.group])).toEqual([
      ['u1', undefined],
      ['w1a', 'c1'],
      ['w1b', 'c2'],
      ['r1', 'c1'],
      ['r2', 'c2'],
    ])
  })
})
