import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { parseMemoryState } from '../../src/chunks/parse.js'
import { exampleJson, exampleState } from './helpers.js'

const minimal = (chunk: Record<string, unknown>) => ({ chunkIds: ['c1'], chunks: { c1: { id: 'c1', type: 'AGENT', content: { type: 'TEXT', text: 'hi' }, ...chunk } } })
const errorOf = (json: unknown): string => {
  const r = parseMemoryState(json, 'state.json')
  if (E.isRight(r)) throw new Error('expected an error')
  return r.left.message
}

describe('parseMemoryState', () => {
  it('reads the shipped example state: 19 chunks in chunkIds order, with their content split into body and fields', () => {
    const state = exampleState()
    expect(state.chunkIds).toHaveLength(19)
    expect(state.chunkIds[0]).toBe('chunk_sys_01')
    const call = state.chunks.get('chunk_call_01')!
    expect(call.type).toBe('WORKFLOW')
    expect(call.content).toEqual({
      type: 'TEXT',
      body: { _tag: 'Structured' },
      fields: { action: 'tool_call', toolName: 'run_tests', callId: 'call_01', status: 'completed', arguments: { path: 'test/checkout' } },
    })
    const summary = state.chunks.get('chunk_summary_01')!
    expect(summary.subType).toBe('COMPACTED')
    expect(summary.metadata).toEqual({ createdAt: 1767261660000, parentIds: ['chunk_old_01', 'chunk_old_02'], custom: { compactedAt: 1767261660000, originalChunkCount: 15 } })
    expect(state.chunks.get('chunk_user_01')!.content).toEqual({
      type: 'TEXT',
      body: { _tag: 'Text', text: "The checkout tests started failing after yesterday's merge. Find out why and fix it." },
      fields: { role: 'user' },
    })
  })

  it('takes chunks as an array or a Map, and uses their order when chunkIds is absent', () => {
    const json = exampleJson() as { chunks: Record<string, unknown> }
    const list = Object.values(json.chunks).reverse()
    const fromArray = parseMemoryState({ chunks: list })
    expect(E.isRight(fromArray) && fromArray.right.chunkIds[0]).toBe('chunk_done_01')
    const fromMap = parseMemoryState({ chunkIds: ['chunk_sys_01'], chunks: new Map(Object.entries(json.chunks)) })
    expect(E.isRight(fromMap) && fromMap.right.chunkIds).toEqual(['chunk_sys_01'])
  })

  it('fills team9 defaults for optional fields', () => {
    const r = parseMemoryState(minimal({}))
    expect(E.isRight(r) && r.right.chunks.get('c1')).toEqual({
      id: 'c1',
      type: 'AGENT',
      content: { type: 'TEXT', body: { _tag: 'Text', text: 'hi' }, fields: {} },
      retentionStrategy: 'COMPRESSIBLE',
      mutable: false,
      priority: 0,
      metadata: { createdAt: 0 },
    })
  })

  it('parses image, mixed, chunk-reference and structured content, and container children', () => {
    const r = parseMemoryState({
      chunks: [
        { id: 'i', type: 'AGENT', content: { type: 'IMAGE', data: 'iVBOR', mimeType: 'image/png', altText: 'chart', role: 'user' } },
        { id: 'm', type: 'AGENT', content: { type: 'MIXED', parts: [{ type: 'TEXT', text: 'see' }, { type: 'IMAGE', data: 'https://x.test/a.png', mimeType: 'image/png' }] } },
        { id: 'r', type: 'WORKING_FLOW', content: { type: 'CHUNK_REF', chunkId: 'i' } },
        { id: 's', type: 'OUTPUT', content: { type: 'JSON', action: 'task_completed', result: 42 } },
        { id: 'w', type: 'WORKING_FLOW', content: { type: 'TEXT', text: '' }, children: [{ id: 'w1', subType: 'THINKING', content: { type: 'TEXT', text: 'hm' }, createdAt: 5 }] },
      ],
    })
    if (E.isLeft(r)) throw new Error(r.left.message)
    const get = (id: string) => r.right.chunks.get(id)!
    expect(get('i').content.body).toEqual({ _tag: 'Image', data: 'iVBOR', mimeType: 'image/png', altText: 'chart' })
    expect(get('i').content.fields).toEqual({ role: 'user' })
    expect(get('m').content.body._tag).toBe('Mixed')
    expect(get('r').content.body).toEqual({ _tag: 'ChunkRef', chunkId: 'i' })
    expect(get('s').content).toEqual({ type: 'JSON', body: { _tag: 'Structured' }, fields: { action: 'task_completed', result: 42 } })
    expect(get('w').children).toEqual([{ id: 'w1', subType: 'THINKING', content: { type: 'TEXT', body: { _tag: 'Text', text: 'hm' }, fields: {} }, createdAt: 5 }])
  })

  it.each<[string, unknown, string]>([
    ['not an object', 'x', 'state.json: must be an object (got "x")'],
    ['chunks of a wrong kind', { chunks: 3 }, 'state.json.chunks: must be an object keyed by chunk id, an array or a Map (got 3)'],
    ['an unknown chunk type', minimal({ type: 'AGNET' }), 'state.json.chunks["c1"].type: must be one of SYSTEM, AGENT, WORKFLOW, DELEGATION, ENVIRONMENT, WORKING_FLOW, OUTPUT (got "AGNET")'],
    ['a missing id', { chunks: [{ type: 'AGENT', content: { type: 'TEXT', text: 'x' } }] }, 'state.json.chunks["#0"].id: must be a non-empty string (got undefined)'],
    ['an id that is not its key', { chunks: { a: { id: 'b', type: 'AGENT', content: { type: 'TEXT', text: 'x' } } } }, 'state.json.chunks["a"].id: must equal its key "a" (got "b")'],
    ['a repeated id', { chunks: [{ id: 'a', type: 'AGENT', content: { type: 'TEXT', text: 'x' } }, { id: 'a', type: 'AGENT', content: { type: 'TEXT', text: 'y' } }] }, 'state.json.chunks["a"].id: is used by another chunk (got "a")'],
    ['content without a type', minimal({ content: { text: 'x' } }), 'state.json.chunks["c1"].content.type: must be a string (got undefined)'],
    ['text that is not a string', minimal({ content: { type: 'TEXT', text: 7 } }), 'state.json.chunks["c1"].content.text: must be a string (got 7)'],
    ['an image without data', minimal({ content: { type: 'IMAGE', mimeType: 'image/png' } }), 'state.json.chunks["c1"].content.data: must be a non-empty string (got undefined)'],
    ['a bad mixed part', minimal({ content: { type: 'MIXED', parts: [{ type: 'AUDIO' }] } }), 'state.json.chunks["c1"].content.parts[0].type: must be TEXT or IMAGE (got "AUDIO")'],
    ['mixed without parts', minimal({ content: { type: 'MIXED' } }), 'state.json.chunks["c1"].content.parts: must be an array (got undefined)'],
    ['a reference without a chunk id', minimal({ content: { type: 'CHUNK_REF' } }), 'state.json.chunks["c1"].content.chunkId: must be a non-empty string (got undefined)'],
    ['an unknown subtype', minimal({ subType: 'DREAM' }), 'state.json.chunks["c1"].subType: must be one of COMPACTED, USER, THINKING, RESPONSE, AGENT_ACTION, ACTION_RESPONSE (got "DREAM")'],
    ['a child with a bad subtype', minimal({ children: [{ id: 'k', subType: 'X', content: { type: 'TEXT', text: '' } }] }), 'state.json.chunks["c1"].children[0].subType: must be one of COMPACTED, USER, THINKING, RESPONSE, AGENT_ACTION, ACTION_RESPONSE (got "X")'],
    ['children that are not an array', minimal({ children: {} }), 'state.json.chunks["c1"].children: must be an array (got {})'],
    ['an unknown retention strategy', minimal({ retentionStrategy: 'FOREVER' }), 'state.json.chunks["c1"].retentionStrategy: must be one of CRITICAL, COMPRESSIBLE, BATCH_COMPRESSIBLE, DISPOSABLE, EPHEMERAL (got "FOREVER")'],
    ['mutable as a string', minimal({ mutable: 'yes' }), 'state.json.chunks["c1"].mutable: must be true or false (got "yes")'],
    ['a priority that is not a number', minimal({ priority: 'high' }), 'state.json.chunks["c1"].priority: must be a finite number (got "high")'],
    ['a createdAt that is not a number', minimal({ metadata: { createdAt: '2026-01-01' } }), 'state.json.chunks["c1"].metadata.createdAt: must be a finite number (got "2026-01-01")'],
    ['parentIds that are not an array', minimal({ metadata: { parentIds: 'p' } }), 'state.json.chunks["c1"].metadata.parentIds: must be an array (got "p")'],
    ['custom that is not an object', minimal({ metadata: { custom: [1] } }), 'state.json.chunks["c1"].metadata.custom: must be an object (got [1])'],
    ['chunkIds that are not an array', { chunkIds: 'c1', chunks: {} }, 'state.json.chunkIds: must be an array of chunk ids (got "c1")'],
    ['a chunk id with no chunk', { chunkIds: ['c1', 'c2'], chunks: minimal({}).chunks }, 'state.json.chunkIds[1]: names no chunk in state.json.chunks (got "c2")'],
    ['a repeated chunk id', { chunkIds: ['c1', 'c1'], chunks: minimal({}).chunks }, 'state.json.chunkIds[1]: repeats an earlier id (got "c1")'],
  ])('names the field and the value for %s', (_, json, message) => {
    expect(errorOf(json)).toBe(message)
  })
})
