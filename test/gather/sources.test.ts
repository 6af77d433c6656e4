/**
 * Every source is a gatherer: a session file, a workspace folder, a team9 memory state and a
 * stored conversation become packets of the one pipeline, with what they left out and what
 * their sources said in the build's report.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { buildChunkContext } from '../../src/chunks/build.js'
import { parseMemoryState } from '../../src/chunks/parse.js'
import { buildLlmMessagesFromConversation } from '../../src/conversation/build.js'
import { openaiRenderer } from '../../src/formats.js'
import { chunks } from '../../src/gather/chunks.js'
import { conversation } from '../../src/gather/conversation.js'
import { session } from '../../src/gather/session.js'
import { workspace } from '../../src/gather/workspace.js'
import { build } from '../../src/pipeline.js'
import { chat } from '../../src/structure/chat.js'
import { xml } from '../../src/structure/xml.js'
import { nanobot } from '../../src/workspace/layout.js'
import { gpt4o, NOW, run } from '../helpers.js'
import { stored } from '../conversation/stored.js'
import { fixture } from '../shared.js'

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url))

describe('session()', () => {
  it('rebuilds a real pi session as the agent would, as history packets of the pipeline', async () => {
    const file = fixture('pi', 'before-compaction.jsonl')
    const r = await run(build({ query: 'What did we change last?' }, { tokenizer: gpt4o, now: NOW, gatherers: [session(file)], structurer: chat(), renderer: openaiRenderer(), config: { maxTokens: 6000 } }))
    expect(r.included.some((id) => id.startsWith(`pi:${file}#`))).toBe(true)
    expect(r.tokenCount).toBeLessThanOrEqual(r.budget.available)
    expect(r.output.at(-1)).toEqual({ role: 'user', content: 'What did we change last?' })
  })

  it('reports a messy file\'s skipped lines as warnings with their line numbers, and a missing file as a gatherer failure', async () => {
    const r = await run(build({ query: 'q' }, { tokenizer: gpt4o, now: NOW, gatherers: [session(here('../fixtures/session/broken.jsonl'), { name: 'broken.jsonl' })] }))
    expect(r.warnings.filter((w) => w._tag === 'SourceProblem' && w.source === 'broken.jsonl' && w.line !== undefined).length).toBeGreaterThan(0)
    const missing = await run(build({ query: 'q' }, { tokenizer: gpt4o, now: NOW, gatherers: [session('/nope/none.jsonl')] }))
    expect(missing.failures).toEqual([expect.objectContaining({ gatherer: 'session', message: expect.stringMatching(/none\.jsonl/) })])
  })
})

describe('workspace()', () => {
  it('gives the parts of a nanobot workspace, laid out by nanobot()', async () => {
    const r = await run(build({ query: 'What is the weather?' }, { tokenizer: gpt4o, now: NOW, gatherers: [workspace(here('../../examples/workspace'), { prompt: { channel: 'cli', chatId: 'direct' } })], structurer: nanobot() }))
    expect(r.output).toContain('AGENTS.md')
    expect(r.included.length).toBeGreaterThan(3)
  })
})

describe('chunks()', () => {
  it('gives a memory state\'s chunks in chunkIds order, laid out as XML, and reports unlisted chunks as left out', async () => {
    const json = JSON.parse(readFileSync(here('../../examples/data/chunks.json'), 'utf8')) as { chunkIds: string[] }
    const state = E.getOrElseW((e: { message: string }) => { throw new Error(e.message) })(parseMemoryState({ ...json, chunkIds: json.chunkIds.slice(1) }, 'chunks.json'))
    const r = await run(build({ query: '' }, { tokenizer: gpt4o, now: NOW, gatherers: [chunks(state)], structurer: xml(), renderer: openaiRenderer(), config: { maxTokens: 100_000 } }))
    expect(r.excluded).toContainEqual(expect.objectContaining({ id: json.chunkIds[0], reason: 'unlisted' }))
    expect(JSON.stringify(r.output)).toContain('<')
  })

  it('takes the seed\'s filters as options and leaves out what buildChunkContext leaves out, with the same reasons', async () => {
    const json = JSON.parse(readFileSync(here('../../examples/data/chunks.json'), 'utf8')) as unknown
    const state = E.getOrElseW((e: { message: string }) => { throw new Error(e.message) })(parseMemoryState(json, 'chunks.json'))
    const types = [...new Set([...state.chunks.values()].map((c) => c.type))]
    const filter = { includeSystem: false, excludeTypes: types.filter((t) => t !== 'SYSTEM').slice(0, 1) }
    const seed = E.getOrElseW(() => undefined)(buildChunkContext(state, filter))!
    const filtered = seed.exclusions.filter((x) => x.reason !== 'over_budget' && x.reason !== 'empty')
    expect(filtered.map((x) => x.reason)).toEqual(expect.arrayContaining(['system_excluded', 'excluded_type']))
    const r = await run(build({ query: '' }, { tokenizer: gpt4o, now: NOW, gatherers: [chunks(state, filter)], structurer: xml(), renderer: openaiRenderer(), config: { maxTokens: 100_000 } }))
    expect(r.excluded.filter((x) => x.reason !== 'over_budget')).toEqual(expect.arrayContaining(filtered.map((x) => expect.objectContaining({ id: x.id, reason: x.reason }))))
    for (const x of filtered) expect(r.included).not.toContain(x.id)
  })
})

describe('conversation()', () => {
  it('gives the same messages as the seed builder through the pipeline, and says what it left out', async () => {
    const options = { messages: stored, mode: 'chat' as const }
    const seed = E.getOrElseW(() => undefined)(buildLlmMessagesFromConversation(options))!
    const r = await run(build({ query: '' }, { tokenizer: gpt4o, now: NOW, gatherers: [conversation(options)], structurer: chat(), renderer: openaiRenderer(), config: { maxTokens: 100_000, maxHistoryMessages: Infinity } }))
    expect(r.output).toEqual(seed.messages)
    expect(r.excluded).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'conversation:0', reason: 'filtered' }),
        expect.objectContaining({ id: 'conversation:5', reason: 'filtered' }),
      ]),
    )
  })

  it('keeps the newest maxMessages without opening on a tool result, reporting the rest as history_limit', async () => {
    const r = await run(build({ query: '' }, { tokenizer: gpt4o, now: NOW, gatherers: [conversation({ messages: stored, mode: 'chat', settings: { maxMessages: 3 } })], structurer: chat(), renderer: openaiRenderer(), config: { maxTokens: 100_000 } }))
    const roles = r.output.map((m) => m.role)
    expect(roles[0]).toBe('system')
    expect(roles[1]).not.toBe('tool')
    expect(r.excluded.filter((x) => x.reason === 'history_limit').map((x) => x.id)).toEqual(['conversation:1', 'conversation:2', 'conversation:3'])
  })
})
