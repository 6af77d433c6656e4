/**
 * The examples of docs/integrations.md, run as the page shows them: the AI SDK and LangChain
 * loops with each SDK's own mock model, the OpenAI and Anthropic loops sent by the real SDKs
 * over HTTP to a local stand-in of the API on 127.0.0.1 (test/integrations/endpoint.ts). What
 * each model or endpoint received is checked: within the budget, by the exact count the
 * example printed; the system prompt first; tool pairs intact; the newest result there.
 * The page shows each example verbatim and what it prints.
 */
import Anthropic from '@anthropic-ai/sdk'
import { readFileSync } from 'node:fs'
import OpenAI from 'openai'
import { afterEach, describe, expect, it } from 'vitest'
import { main as aiSdk } from '../../examples/ai-sdk.js'
import { main as anthropic } from '../../examples/anthropic-sdk.js'
import { main as langchain } from '../../examples/langchain.js'
import { main as openai } from '../../examples/openai-sdk.js'
import { ANSWER, FILES, scriptedAISDKModel, scriptedLangChainModel, SYSTEM } from '../../examples/tool-loop.js'
import { fitMessages } from '../../src/fit/fitMessages.js'
import { blockAfter } from '../docs/blocks.js'
import { startEndpoint, type LocalEndpoint } from '../integrations/endpoint.js'

const DOC = 'docs/integrations.md'

/** The page shows `examples/<name>.ts` verbatim, and what it printed. */
const shown = (name: string, printed: string): void => {
  expect(blockAfter(DOC, `\`examples/${name}.ts\`, run by`)).toBe(readFileSync(`examples/${name}.ts`, 'utf8').trimEnd())
  expect(blockAfter(DOC, `\`examples/${name}.ts\` prints`)).toBe(printed)
}

/** The count each log line printed (`…, 317 tokens; …`). */
const printedCounts = (printed: string): number[] => [...printed.matchAll(/ (\d+) tokens;/g)].map((m) => Number(m[1]))

/** What was sent counted in full (nothing dropped or cut at this budget), tools included. */
const recount = async (messages: unknown, model: string, tools: unknown): Promise<number> =>
  (await fitMessages(messages, { model, maxTokens: 1_000_000, tools, maxItemShare: 1 })).tokenCount

type Block = { readonly type: string; readonly id?: string; readonly tool_use_id?: string }
const blocks = (m: { readonly content: unknown }): ReadonlyArray<Block> => (Array.isArray(m.content) ? m.content : [])

let endpoint: LocalEndpoint | undefined
afterEach(async () => {
  await endpoint?.close()
  endpoint = undefined
})

describe('examples/openai-sdk.ts: the OpenAI SDK sends fitted requests', () => {
  it('every body the endpoint received fits 1200 − 300 by the exact count printed, system first, tool pairs intact', async () => {
    endpoint = await startEndpoint()
    const printed = await openai(new OpenAI({ baseURL: `${endpoint.url}/v1`, apiKey: 'test', maxRetries: 0 }))
    const { requests } = endpoint
    expect(requests.map((r) => r.path)).toEqual(Array.from({ length: FILES.length + 1 }, () => '/v1/chat/completions'))
    const counts = printedCounts(printed)
    for (const [k, { body }] of requests.entries()) {
      type M = { readonly role: string; readonly content?: unknown; readonly tool_calls?: ReadonlyArray<{ readonly id: string }>; readonly tool_call_id?: string }
      const messages = body['messages'] as ReadonlyArray<M>
      expect(body['model']).toBe('gpt-4o')
      const sent = await recount(messages, 'gpt-4o', body['tools'])
      expect(sent).toBe(counts[k])
      expect(sent).toBeLessThanOrEqual(900)
      expect(messages[0]).toEqual({ role: 'system', content: SYSTEM })
      messages.forEach((m, i) => {
        const ids = (m.tool_calls ?? []).map((c) => c.id)
        if (ids.length > 0) expect(messages.slice(i + 1, i + 1 + ids.length).map((t) => t.tool_call_id)).toEqual(ids)
        if (m.role === 'tool') expect(messages.slice(0, i).findLast((p) => p.role !== 'tool')?.tool_calls?.map((c) => c.id)).toContain(m.tool_call_id)
      })
      if (k > 0) expect(messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: `call_${k - 1}` })
    }
    // the history outgrew the budget: the oldest turns gave way
    expect((requests.at(-1)!.body['messages'] as unknown[]).length).toBeLessThan(2 + 2 * FILES.length)
    expect(printed.split('\n').at(-1)).toBe(`answer: ${ANSWER}`)
    shown('openai-sdk', printed)
  })
})

describe('examples/anthropic-sdk.ts: the Anthropic SDK sends fitted requests', () => {
  it('every body the endpoint received fits 1600 − 300 by the count printed, opens on a user turn, tool pairs intact', async () => {
    endpoint = await startEndpoint()
    const printed = await anthropic(new Anthropic({ baseURL: endpoint.url, apiKey: 'test', authToken: null, maxRetries: 0 }))
    const { requests } = endpoint
    expect(requests.map((r) => r.path)).toEqual(Array.from({ length: FILES.length + 1 }, () => '/v1/messages'))
    const counts = printedCounts(printed)
    for (const [k, { body }] of requests.entries()) {
      const { system, tools, max_tokens } = body
      const messages = body['messages'] as ReadonlyArray<{ readonly role: string; readonly content: unknown }>
      expect(system).toBe(SYSTEM)
      expect(max_tokens).toBe(300)
      const sent = await recount({ system, messages }, 'claude-sonnet-4-6', tools)
      expect(sent).toBe(counts[k])
      expect(sent).toBeLessThanOrEqual(1300)
      expect(messages[0]!.role).toBe('user')
      messages.forEach((m, i) => {
        const uses = blocks(m).filter((b) => b.type === 'tool_use').map((b) => b.id)
        if (uses.length > 0) expect(blocks(messages[i + 1]!).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id)).toEqual(uses)
        const results = blocks(m).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id)
        if (results.length > 0) expect(blocks(messages[i - 1]!).filter((b) => b.type === 'tool_use').map((b) => b.id)).toEqual(results)
      })
      if (k > 0) expect(blocks(messages.at(-1)!)[0]).toMatchObject({ type: 'tool_result', tool_use_id: `toolu_${k - 1}` })
    }
    expect(printed).toMatch(/cut \[\d/) // the budget was felt: a big file went cut to the per-item cap
    expect(printed.split('\n').at(-1)).toBe(`answer: ${ANSWER}`)
    shown('anthropic-sdk', printed)
  })
})

describe('examples/ai-sdk.ts and examples/langchain.ts: each SDK with its own mock model', () => {
  it('the AI SDK model received, on every step, what fits 1200 − 300 by the count printed, system first', async () => {
    const model = scriptedAISDKModel()
    const printed = await aiSdk(model)
    const counts = printedCounts(printed)
    expect(model.doGenerateCalls).toHaveLength(FILES.length + 1)
    for (const [k, call] of model.doGenerateCalls.entries()) {
      const tools = (call.tools ?? []).map((t) => (t.type === 'function' ? { type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } } : t))
      expect(await recount(call.prompt, 'gpt-4o', tools)).toBe(counts[k])
      expect(call.prompt[0]).toEqual({ role: 'system', content: SYSTEM })
    }
    expect(Math.max(...counts)).toBeLessThanOrEqual(900)
    expect(printed).toMatch(/dropped \[0/)
    shown('ai-sdk', printed)
  })

  it('the LangChain model received, on every call, what fits 1200 − 300 by the count printed, system first', async () => {
    const model = scriptedLangChainModel()
    const printed = await langchain(model)
    const counts = printedCounts(printed)
    expect(model.calls).toHaveLength(FILES.length + 1)
    // the counts against what the model received are checked in test/integrations/langchain.test.ts
    for (const { messages } of model.calls) expect(messages[0]!.text).toBe(SYSTEM)
    expect(Math.max(...counts)).toBeLessThanOrEqual(900)
    expect(printed).toMatch(/dropped \[0/)
    shown('langchain', printed)
  })
})
