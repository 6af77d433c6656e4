import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildChunkContext } from '../../src/chunks/build.js'
import { classifyChunk } from '../../src/chunks/classify.js'
import { CHUNK_TYPES, leavesOf, WORKING_FLOW_SUBTYPES, type MemoryChunk } from '../../src/chunks/model.js'
import { toAnthropic } from '../../src/render/anthropic.js'
import { checkAnthropic } from '../../src/render/checkAnthropic.js'
import { checkOpenAI } from '../../src/render/checkOpenAI.js'
import { countAnthropic, countOpenAI } from '../../src/render/count.js'
import { toOpenAI } from '../../src/render/openai.js'
import { gpt4o, pngBase64 } from '../render/fixtures.js'
import { chunk, right, stateOf } from './helpers.js'
import { seeded } from '../prop.js'

const PNG = pngBase64(64, 64)
const words = fc.array(fc.constantFrom('read', 'the', 'file', '</tool_result>', '"q"', '数据', '\n', 'a & b', 'x < y'), { maxLength: 30 }).map((w) => w.join(' '))
const fields = fc.record(
  {
    role: fc.constantFrom('user', 'assistant', 'parent'),
    action: fc.constantFrom('tool_call', 'skill_call', 'spawn_subagent', 'subagent_result', 'message_subagent', 'task_completed', 'task_abandoned', 'todo_set', 'clarification'),
    callId: fc.constantFrom('call_1', 'call_2', 'call_3', 'call_4'),
    toolName: fc.constantFrom('ls', 'read'),
    source: fc.constantFrom('tool', 'tool_error', 'skill', 'other'),
    parentAgentId: fc.constant('agent_0'),
  },
  { requiredKeys: [] },
)
const content = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(words, fields).map(([text, f]) => ({ type: 'TEXT', text, ...f })) },
  { weight: 2, arbitrary: fields.map((f) => ({ type: 'TEXT', ...f, arguments: { path: 'a.ts' } })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('image/png', 'image/svg+xml'), fields).map(([mimeType, f]) => ({ type: 'IMAGE', data: PNG, mimeType, ...f, role: 'user' })) },
)
const chunkArb = (id: string): fc.Arbitrary<MemoryChunk> =>
  fc
    .record({
      type: fc.constantFrom(...CHUNK_TYPES),
      content,
      subType: fc.option(fc.constantFrom(...WORKING_FLOW_SUBTYPES), { nil: undefined }),
      children: fc.option(fc.array(fc.tuple(fc.constantFrom(...WORKING_FLOW_SUBTYPES), words), { minLength: 1, maxLength: 3 }), { nil: undefined, freq: 6 }),
      critical: fc.boolean(),
    })
    .map((c) =>
      chunk(id, c.type, c.content, {
        ...(c.type === 'WORKING_FLOW' && c.subType !== undefined ? { subType: c.subType } : {}),
        ...(c.type === 'WORKING_FLOW' && c.children !== undefined
          ? { children: c.children.map(([subType, text], i) => ({ id: `${id}_${i}`, subType, content: { type: 'TEXT', text }, createdAt: i })) }
          : {}),
        ...(c.critical ? { retentionStrategy: 'CRITICAL' } : {}),
      }),
    )
const stateArb = fc.integer({ min: 0, max: 14 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => chunkArb(`chunk_${i}`)))).map((cs) => stateOf(...cs))
const optionsArb = fc.record(
  {
    maxTokens: fc.integer({ min: 1, max: 700 }),
    systemPrompt: fc.constantFrom('You are an agent.', '  ', 'Follow the rules. '.repeat(20)),
    format: fc.constantFrom('openai' as const, 'anthropic' as const),
    includeSystem: fc.boolean(),
    includeEnvironment: fc.boolean(),
    keepCritical: fc.boolean(),
    excludeTypes: fc.subarray([...CHUNK_TYPES], { maxLength: 2 }),
  },
  { requiredKeys: ['maxTokens', 'format'] },
)

const callIdsOf = (c: MemoryChunk): ReadonlyArray<string> => leavesOf(c).flatMap((l) => classifyChunk(l).callId ?? [])

describe('buildChunkContext under any state and budget', () => {
  it('stays within maxTokens, counts exactly what the provider renderer sends, and accounts for every chunk', () => {
    fc.assert(
      fc.property(stateArb, optionsArb, (state, options) => {
        const r = right(buildChunkContext(state, { ...options, tokenizer: gpt4o }))
        expect(r.tokenCount).toBeLessThanOrEqual(options.maxTokens)
        if (r.messages.length > 0) {
          if (options.format === 'openai') {
            const out = toOpenAI(r.messages)
            expect(out.findings).toEqual([])
            expect(checkOpenAI(out.messages)).toEqual([])
            expect(r.tokenCount).toBe(countOpenAI(out.messages, gpt4o))
          } else {
            const out = toAnthropic(r.messages)
            expect(out.findings.every((f) => f._tag === 'SyntheticUserTurn' || f._tag === 'MovedSystem')).toBe(true)
            expect(checkAnthropic(out.request).filter((v) => v._tag !== 'NoMessages')).toEqual([])
            expect(r.tokenCount).toBe(countAnthropic(out.request, gpt4o))
          }
        } else expect(r.tokenCount).toBe(0)
        const seen = [...r.includedChunkIds, ...r.excludedChunkIds]
        expect(new Set(seen).size).toBe(seen.length)
        expect(new Set(seen)).toEqual(new Set(state.chunkIds))
      }),
      seeded(250),
    )
  })

  it('keeps calls with their results, and keeps the newest history: nothing dropped for budget is newer than a kept chunk', () => {
    fc.assert(
      fc.property(stateArb, optionsArb, (state, options) => {
        const r = right(buildChunkContext(state, { ...options, tokenizer: gpt4o }))
        const included = new Set(r.includedChunkIds)
        const overBudget = new Set(r.exclusions.filter((x) => x.reason === 'over_budget').map((x) => x.id))
        const admitted = state.chunkIds.filter((id) => included.has(id) || overBudget.has(id))
        const byCall = new Map<string, Array<string>>()
        for (const id of admitted) for (const c of callIdsOf(state.chunks.get(id)!)) byCall.set(c, [...(byCall.get(c) ?? []), id])
        for (const ids of byCall.values()) expect(new Set(ids.map((id) => included.has(id))).size).toBe(1)
        // the pinned (SYSTEM, and CRITICAL unless keepCritical is false) are budgeted first; the rest is a newest run
        const pinned = (id: string) => state.chunks.get(id)!.type === 'SYSTEM' || (state.chunks.get(id)!.retentionStrategy === 'CRITICAL' && options.keepCritical !== false)
        const pinnedCalls = new Set(admitted.filter(pinned).flatMap((id) => callIdsOf(state.chunks.get(id)!)))
        const history = admitted.filter((id) => !pinned(id) && !callIdsOf(state.chunks.get(id)!).some((c) => pinnedCalls.has(c)))
        const firstKept = history.findIndex((id) => included.has(id))
        if (firstKept >= 0) history.slice(firstKept).forEach((id) => expect(included.has(id)).toBe(true))
      }),
      seeded(250),
    )
  })
})
