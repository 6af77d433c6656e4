/**
 * `explain`, the terminal table (`--explain`) and the HTML report read every builder's
 * result, in the one report vocabulary: the core build's, and each result that carries a
 * `report` (the chunk, conversation, session and workspace builders, `fitMessages`).
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { buildChunkContext } from '../../src/chunks/build.js'
import type { ChunkRenderer } from '../../src/chunks/renderers.js'
import { buildLlmMessagesFromConversation } from '../../src/conversation/build.js'
import type { ConversationMessage } from '../../src/conversation/types.js'
import { fitMessages } from '../../src/fit/fitMessages.js'
import { explain } from '../../src/inspect/explain.js'
import { renderReport } from '../../src/inspect/html/report.js'
import { renderExplain } from '../../src/inspect/terminal.js'
import { describeWarning, toJson, type Report, type Reported } from '../../src/report.js'
import { buildSession } from '../../src/session/build.js'
import { rebuildSession } from '../../src/session/incremental.js'
import { loadWorkspace } from '../../src/workspace/load.js'
import { buildTurn } from '../../src/workspace/messages.js'
import { chatTurns } from '../../src/inspect/chat.js'
import * as O from 'fp-ts/lib/Option.js'
import { fixture } from '../shared.js'
import { BASIC, LOAD, RUNTIME, tokenizer as wsTokenizer } from '../workspace/helpers.js'
import { chunk, right, stateOf } from '../chunks/helpers.js'
import { gpt4o } from '../helpers.js'

/** The report's own JSON, as the HTML page embeds it. */
const embedded = (html: string): ReturnType<typeof toJson> =>
  JSON.parse(/<script type="application\/json" id="gssc-report">([^]*?)<\/script>/.exec(html)![1]!.replace(/\\u003c/g, '<'))

/** What every reader must agree on for any result. */
const consistent = <O>(result: Report<O> | Reported<O>, report: Report<O>): void => {
  const t = explain(result)
  expect(t.totals.used).toBe(report.tokenCount)
  expect(t.totals.kept + t.totals.truncated).toBe(report.packets.filter((p) => p.status !== 'dropped').length)
  expect(t.dropped.map((r) => [r.id, r.reason])).toEqual(expect.arrayContaining(report.excluded.map((e) => [e.id, e.reason])))
  const text = renderExplain(t, { width: 200, limit: 1000 })
  for (const e of report.excluded) expect(text).toContain(e.id)
  for (const w of report.warnings) expect(text).toContain(describeWarning(w))
  expect(embedded(renderReport(result))).toEqual(JSON.parse(JSON.stringify(toJson(report))))
}

describe('explain on every builder', () => {
  it('buildChunkContext: each chunk is a row (kept, over budget, filtered, unlisted), with the findings as warnings', () => {
    const user = (id: string, text = `ask ${id} ${'and more '.repeat(20)}`) => chunk(id, 'AGENT', { type: 'TEXT', text, role: 'user' })
    const env = chunk('e1', 'ENVIRONMENT', { type: 'TEXT', text: 'cwd /tmp' })
    const quiet = chunk('q1', 'AGENT', { type: 'TEXT', text: 'q1', role: 'user' })
    const renderers: ReadonlyArray<ChunkRenderer> = [{ canRender: (c) => c.id === 'q1', getRole: () => 'user', render: () => '   ' }]
    const all = stateOf(user('u1'), env, quiet, user('u2'), user('u3'), user('u4'))
    const state = { ...all, chunkIds: ['u1', 'e1', 'q1', 'u2', 'u3'] }
    const roomy = right(buildChunkContext(state, { tokenizer: gpt4o, systemPrompt: 'Be brief.', renderers }))
    const r = right(buildChunkContext(state, { tokenizer: gpt4o, systemPrompt: 'Be brief.', renderers, includeEnvironment: false, maxTokens: roomy.tokenCount - 20 }))
    const t = explain(r)
    expect(t.format).toBe('openai')
    expect(t.totals).toMatchObject({ used: r.tokenCount, maxTokens: roomy.tokenCount - 20, exact: true, kept: r.includedChunkIds.length + 1 })
    expect(t.dropped.map((x) => [x.id, x.reason, x.type])).toEqual([
      ['u1', 'over_budget', 'history'],
      ['e1', 'environment_excluded', 'history'],
      ['q1', 'empty', 'history'],
      ['u4', 'unlisted', undefined],
    ])
    expect(r.report.packets.find((p) => p.id === 'system-prompt')).toMatchObject({ status: 'kept', priority: 0, type: 'instructions' })
    expect(r.report.warnings).toEqual([{ _tag: 'DroppedEmptyText', index: 2, id: 'q1', count: 1 }])
    expect(describeWarning(r.report.warnings[0]!)).toBe('q1: 1 empty text part(s) dropped')
    // provenance names chunks, not the builder's segments
    expect(r.report.sources).toEqual([['system-prompt'], ['u2', 'u3']])
    consistent(r, r.report)
  })

  it('buildLlmMessagesFromConversation: filtered and trimmed turns are rows, repairs are warnings naming the turn', () => {
    const stored: ReadonlyArray<ConversationMessage> = [
      { role: 'system', content: 'an old stored prompt' },
      { role: 'user', content: 'List the files.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'ls', arguments: '{"dir":"."}' }] },
      { role: 'tool', content: 'a.ts b.ts', toolCallId: 'call_1', toolName: 'ls' },
      { role: 'user', content: '(note to self)', includeInContext: false },
      { role: 'assistant', content: 'There are two files.', toolCalls: [{ id: 'call_2', name: 'cat', arguments: '{}' }] },
      { role: 'user', content: 'Open a.ts' },
    ]
    const r = right(buildLlmMessagesFromConversation({ messages: stored, mode: 'chat', settings: { maxMessages: 3 } }))
    const t = explain(r)
    expect(t.dropped.map((x) => [x.id, x.reason])).toEqual([
      ['conversation:0', 'filtered'],
      ['conversation:4', 'filtered'],
      ['conversation:1', 'history_limit'],
      ['conversation:2', 'history_limit'],
      ['conversation:3', 'history_limit'],
    ])
    expect(r.metadata).toMatchObject({ filteredCount: 1, trimmedCount: 3 })
    expect(t.totals).toMatchObject({ kept: 3, exact: false })
    expect(r.report.warnings).toEqual([{ _tag: 'SyntheticResult', index: 1, id: 'conversation:5', callId: 'call_2' }])
    expect(r.report.sources[0]).toEqual(['conversation:system'])
    consistent(r, r.report)
  })

  it('fitMessages: the dropped messages are rows with their reasons', async () => {
    const input: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'Be brief.' },
      ...Array.from({ length: 30 }, (_, i): ChatCompletionMessageParam => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `turn ${i} ${'words '.repeat(10)}` })),
    ]
    const r = await fitMessages(input, { model: 'gpt-4o', maxTokens: 300 })
    const t = explain(r)
    expect(r.dropped.length).toBeGreaterThan(0)
    expect(t.dropped.length).toBeGreaterThan(0)
    // the same messages, by packet id instead of place: `history:<index>`, or a range of uncounted turns
    expect(new Set(t.dropped.map((x) => x.reason))).toEqual(new Set(r.dropped.map((d) => d.reason)))
    const covered = (id: string): number => {
      const [from, to] = id.replace('history:', '').split('..').map(Number)
      return to === undefined ? 1 : to - from! + 1
    }
    expect(t.dropped.reduce((n, x) => n + covered(x.id), 0)).toBe(r.dropped.reduce((n, d) => n + ((d.through ?? (d.index as number)) - (d.index as number) + 1), 0))
    expect(t.totals.used).toBe(r.report.tokenCount)
    consistent(r, r.report)
  })

  it('buildSession / rebuildSession: every history item a kept row, the conversion\'s repairs as warnings, the chat shown', async () => {
    const file = fixture('pi', 'large-session.jsonl')
    const b = right(await buildSession(file, { tokenizer: gpt4o })())
    const t = explain(b)
    expect(t.totals).toMatchObject({ kept: b.history.items.length, used: b.history.items.reduce((n, i) => n + i.tokens, 0), exact: true })
    expect(b.report.warnings.length).toBeGreaterThan(0)
    expect(b.report.warnings.every((w) => w._tag === 'SourceProblem')).toBe(true)
    const turns = chatTurns(b.report.format, b.report.output)
    expect(O.isSome(turns) && turns.value.length).toBe(b.history.items.length)
    expect(O.isSome(turns) && turns.value.every((turn) => turn.blocks.every((x) => x._tag !== 'Unknown'))).toBe(true)
    // a rebuild's report is its own history's
    const again = right(await rebuildSession(file, { tokenizer: gpt4o }, b)())
    expect(explain(again).totals).toEqual(t.totals)
    consistent(b, b.report)
  })

  it('buildTurn: each part of the workspace prompt a row, kept, cut or left out in the shared words', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    const roomy = right(await buildTurn(ws, { history: [], currentMessage: 'Hi' }, { tokenizer: wsTokenizer, runtime: RUNTIME })())
    const turn = right(await buildTurn(ws, { history: [], currentMessage: 'Hi' }, { tokenizer: wsTokenizer, runtime: RUNTIME, maxTokens: Math.floor(roomy.system.tokens / 2) })())
    const t = explain(turn)
    expect(t.totals).toMatchObject({ used: turn.system.tokens, maxTokens: Math.floor(roomy.system.tokens / 2), available: Math.floor(roomy.system.tokens / 2) })
    const dropped = turn.system.parts.filter((p) => p.dropped)
    expect(dropped.length).toBeGreaterThan(0)
    expect(t.dropped.map((r) => r.id)).toEqual(dropped.map((p) => p.id))
    // one vocabulary: the report's reasons are the part report's own words
    expect(t.dropped.map((r) => r.reason)).toEqual(dropped.map((p) => p.reason))
    expect(t.truncated.map((r) => r.id)).toEqual(turn.system.parts.filter((p) => p.truncated && !p.dropped).map((p) => p.id))
    consistent(turn, turn.report)
  })
})
