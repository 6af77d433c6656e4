import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { describe, expect, it } from 'vitest'
import { fitMessages } from '../../src/fit/fitMessages.js'
import { checkOpenAI } from '../../src/render/checkOpenAI.js'
import { countOpenAI } from '../../src/render/count.js'
import { toolsCost } from '../../src/render/toolCost.js'
import * as E from 'fp-ts/lib/Either.js'
import { sniff } from '../../src/compress/content/index.js'
import { cutMiddle } from '../../src/compress/cutText.js'
import { survivorsOf } from '../../scripts/survival.js'
import { toolOutputs } from '../../scripts/toolOutputs.js'
import { gpt4o } from '../helpers.js'

const SYSTEM = 'You are a deploy assistant. Answer briefly.'
/** An OpenAI conversation: system, then rounds of user → assistant tool call → tool result → assistant. */
const conversation = (rounds: number): ChatCompletionMessageParam[] => [
  { role: 'system', content: SYSTEM },
  ...Array.from({ length: rounds }, (_, i): ChatCompletionMessageParam[] => [
    { role: 'user', content: `Round ${i}: is the deploy of service ${i} healthy?` },
    { role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'status', arguments: `{"service":${i}}` } }] },
    { role: 'tool', tool_call_id: `call_${i}`, content: `service ${i}: healthy, 3 replicas, p99 ${40 + i} ms` },
    { role: 'assistant', content: `Service ${i} is healthy.` },
  ]).flat(),
]

const tools: ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'status', description: 'Health of a service.', parameters: { type: 'object', properties: { service: { type: 'number', description: 'The service number.' }, region: { type: 'string', description: 'Region', enum: ['eu', 'us'] } } } },
  },
]

describe('fitMessages', () => {
  it('returns the same shape, keeps the system prompt and the newest turns, never orphans a tool pair, and counts exactly within budget', async () => {
    const input = conversation(40)
    const r = await fitMessages(input, { model: 'gpt-4o', maxTokens: 700, reserve: 100, tools })
    const out: ChatCompletionMessageParam[] = r.messages
    expect(r.shape).toBe('openai-chat')
    expect(out[0]).toEqual(input[0]) // unchanged
    expect(out.at(-1)).toEqual(input.at(-1))
    // every kept message is one of the input's, unchanged, in order, and no pair is split
    const kept = out.slice(1).map((m) => input.findIndex((x) => JSON.stringify(x) === JSON.stringify(m)))
    expect(kept.every((i) => i > 0)).toBe(true)
    expect(kept).toEqual([...kept].sort((a, b) => a - b))
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, k) => input.length - kept.length + k))
    expect(checkOpenAI(out as never)).toEqual([])
    // budget truth: the count of what is returned, tools included
    const toolTokens = E.getOrElse(() => ({ tokens: -1 }))(toolsCost(tools, gpt4o)).tokens
    expect(r.budget.tools.tokens).toBe(toolTokens)
    expect(r.tokenCount).toBe(countOpenAI(out as never, gpt4o) + toolTokens)
    expect(r.tokenCount).toBeLessThanOrEqual(600)
    // what was left out, by index and reason
    // the older turns the gatherer never counted, then the ones the fit left out: one range each
    expect(r.dropped.map((d) => [d.index, d.through])).toEqual([
      [1, r.dropped[0]!.through],
      [r.dropped[0]!.through! + 1, input.length - kept.length - 1],
    ])
    expect(r.dropped[0]?.reason).toBe('over_budget')
    expect(r.sources).toEqual([0, ...kept])
  })

  it('reads and writes Anthropic, system and all, and counts its tools as an estimate', async () => {
    const input: { system: string; messages: MessageParam[] } = {
      system: SYSTEM,
      messages: Array.from({ length: 30 }, (_, i): MessageParam[] => [
        { role: 'user', content: `Question ${i} about the rollout of service ${i}.` },
        { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'status', input: { service: i } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `service ${i} ok` }] },
        { role: 'assistant', content: `Service ${i} is fine.` },
      ]).flat(),
    }
    const r = await fitMessages(input, { model: 'claude-sonnet-4-5', maxTokens: 1200, tools: [{ name: 'status', description: 'Health.', input_schema: { type: 'object', properties: {} } }] })
    expect(r.shape).toBe('anthropic')
    expect(r.messages.system).toBe(SYSTEM)
    expect(r.messages.messages.at(-1)).toEqual(input.messages.at(-1))
    expect(r.messages.messages[0]?.role).toBe('user')
    expect(r.budget.tools.exact).toBe(false)
    expect(r.tokenCountExact).toBe(false)
    expect(r.tokenCount).toBeLessThanOrEqual(1200)
  })

  it('Anthropic tool loop: every later user turn is a tool_result, so the task opens the window and the newest pairs follow', async () => {
    // before: the task went first, no turn after it could open, and no message was left
    const messages: MessageParam[] = [
      { role: 'user', content: 'Check every service.' },
      ...Array.from({ length: 20 }, (_, i): MessageParam[] => [
        { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'status', input: { service: i } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `service ${i}: healthy, 3 replicas, p99 ${40 + i} ms` }] },
      ]).flat(),
    ]
    const r = await fitMessages({ system: SYSTEM, messages }, { model: 'claude-sonnet-4-5', maxTokens: 600 })
    const kept = r.sources.filter((s): s is number => typeof s === 'number')
    expect(kept[0]).toBe(0)
    expect(kept.length).toBeGreaterThan(2)
    expect(kept.slice(1)).toEqual(Array.from({ length: kept.length - 1 }, (_, k) => messages.length - kept.length + 1 + k))
    expect(r.messages.messages[1]?.role).toBe('assistant')
    expect(r.dropped).toEqual([expect.objectContaining({ index: 1, through: messages.length - kept.length })])
    expect(r.tokenCount).toBeLessThanOrEqual(600)
    // so short a budget that the task is out of reach: an error, never a request of no messages
    await expect(fitMessages({ system: SYSTEM, messages }, { model: 'claude-sonnet-4-5', maxTokens: 300 })).rejects.toThrow(/maxTokens: 300 leaves no room for a user turn/)
  })

  it('rejects what it cannot read with an error naming the index, never a silent drop', async () => {
    await expect(fitMessages([{ role: 'user', content: 'hi' }, { role: 'wizard', content: 'x' }], { maxTokens: 100, shape: 'openai-chat' })).rejects.toThrow(/messages\[1\]/)
    await expect(fitMessages([], { maxTokens: 0 })).rejects.toThrow(/maxTokens/)
  })
})

describe('fitMessages, more shapes and strategies', () => {
  it('compress: older turns become one summary turn (written by gssc, no input index), reported as summarized', async () => {
    const input = conversation(30)
    const r = await fitMessages(input, { maxTokens: 900, strategy: 'compress' })
    const out = r.messages
    expect(out[0]).toEqual(input[0])
    const summaryAt = r.sources.indexOf(undefined)
    expect(summaryAt).toBe(1)
    expect(out[summaryAt]?.role).toBe('user')
    expect(r.dropped.some((d) => d.reason === 'summarized')).toBe(true)
    expect(r.tokenCount).toBeLessThanOrEqual(900)
    expect(checkOpenAI(out as never)).toEqual([])
  })

  it('AI SDK ModelMessage[] in, the same shape out', async () => {
    const input = [
      { role: 'system' as const, content: SYSTEM },
      ...Array.from({ length: 20 }, (_, i) => [
        { role: 'user' as const, content: `Round ${i}: status of service ${i}?` },
        { role: 'assistant' as const, content: [{ type: 'tool-call' as const, toolCallId: `c${i}`, toolName: 'status', input: { service: i } }] },
        { role: 'tool' as const, content: [{ type: 'tool-result' as const, toolCallId: `c${i}`, toolName: 'status', output: { type: 'text' as const, value: `service ${i} ok` } }] },
      ]).flat(),
    ]
    const r = await fitMessages(input, { maxTokens: 400, shape: 'ai-sdk' })
    expect(r.shape).toBe('ai-sdk')
    expect(r.messages[0]).toEqual(input[0])
    expect(r.messages.at(-1)).toEqual(input.at(-1))
    // a tool message is never kept without the call before it
    const firstTurn = r.messages[1]!
    expect(firstTurn.role).not.toBe('tool')
    expect(r.tokenCount).toBeLessThanOrEqual(400)
  })

  it('rejects as an Error carrying the GsscError fields', async () => {
    const e = await fitMessages('nope', { maxTokens: 10 }).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(Error)
    expect(e).toMatchObject({ _tag: 'InputError', message: expect.stringMatching(/messages/) })
  })
})

describe('toolsCost', () => {
  it('follows the cookbook rule for OpenAI function tools', () => {
    const c = E.getOrElseW(() => undefined)(toolsCost(tools, gpt4o))!
    const count = (s: string) => gpt4o.count(s)
    const expected = 7 + count('status:Health of a service') + 3 + (3 + count('service:number:The service number')) + (3 - 3 + 3 + count('eu') + 3 + count('us') + count('region:string:Region')) + 12
    expect(c).toEqual({ tokens: expected, exact: true, rule: 'openai-cookbook' })
    expect(E.getOrElseW(() => undefined)(toolsCost(tools, gpt4o, { family: 'cl100k' }))!.tokens).toBe(expected + 3)
    expect(toolsCost([{ nope: 1 }], gpt4o)).toEqual(E.left(expect.objectContaining({ input: 'tools[0]' })))
  })
})

describe('fitMessages with LangChain messages', () => {
  it('hands back the very instances it kept, and the tool pair whole', async () => {
    const { AIMessage, HumanMessage, SystemMessage, ToolMessage } = await import('@langchain/core/messages')
    const input = [
      new SystemMessage(SYSTEM),
      ...Array.from({ length: 20 }, (_, i) => [
        new HumanMessage(`Round ${i}: status of service ${i}?`),
        new AIMessage({ content: '', tool_calls: [{ id: `c${i}`, name: 'status', args: { service: i } }] }),
        new ToolMessage({ content: `service ${i} ok`, tool_call_id: `c${i}` }),
        new AIMessage(`Service ${i} is fine.`),
      ]).flat(),
    ]
    const r = await fitMessages(input, { maxTokens: 500 })
    expect(r.shape).toBe('langchain')
    expect(r.messages[0]).toBe(input[0])
    expect(r.messages.at(-1)).toBe(input.at(-1))
    for (const m of r.messages) expect(input).toContain(m)
    expect(r.messages[1]).not.toBeInstanceOf(ToolMessage) // a result never opens the window without its call
    expect(r.tokenCount).toBeLessThanOrEqual(500)
  })
})

describe('fitMessages and prompt caching', () => {
  /** An Anthropic agent loop of `rounds` rounds, as the SDK takes it. */
  const loop = (rounds: number): { system: string; messages: MessageParam[] } => ({
    system: SYSTEM,
    messages: Array.from({ length: rounds }, (_, i): MessageParam[] => [
      { role: 'user', content: `Question ${i} about the rollout of service ${i}.` },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: `check service ${i}`, signature: 'sig' },
          { type: 'tool_use', id: `toolu_${i}`, name: 'status', input: { service: i } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `service ${i} ok` }] },
      { role: 'assistant', content: [{ type: 'text', text: `Service ${i} is fine.` }, { type: 'thinking', thinking: 'done', signature: 'sig' }] },
    ]).flat(),
  })
  const anthropicTools = [{ name: 'status', description: 'Health.', input_schema: { type: 'object' as const, properties: {} }, cache_control: { type: 'ephemeral' as const } }]

  it('breakpoints: a breakpoint on the last block that takes one (not thinking) and on the system prompt; the input untouched', async () => {
    const input = loop(3)
    const before = JSON.stringify(input)
    const r = await fitMessages(input, { model: 'claude-sonnet-4-5', maxTokens: 20_000, breakpoints: true })
    expect(JSON.stringify(input)).toBe(before)
    const last = r.messages.messages.at(-1)!.content as ReadonlyArray<{ type: string; cache_control?: unknown }>
    expect(last.map((b) => b.cache_control)).toEqual([{ type: 'ephemeral' }, undefined])
    expect(r.messages.system).toEqual([{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }])
    expect(r.breakpoints?.added).toHaveLength(2)
    // everything else comes back as it was
    expect(r.messages.messages.slice(0, -1)).toEqual(input.messages.slice(0, -1))
  })

  it('breakpoints: the caller’s own breakpoints and the tools’ count toward the 4; the earliest of too many are left out and reported', async () => {
    const input = loop(3)
    const marked = input.messages.map((m, i) =>
      i % 4 === 0 ? { ...m, content: [{ type: 'text' as const, text: m.content as string, cache_control: { type: 'ephemeral' as const } }] } : m,
    )
    const r = await fitMessages({ system: SYSTEM, messages: marked }, { model: 'claude-sonnet-4-5', maxTokens: 20_000, breakpoints: true, tools: anthropicTools })
    const count = (JSON.stringify(r.messages).match(/cache_control/g) ?? []).length
    // three of the caller's, one in the tools: nothing is added
    expect(count).toBe(3)
    expect(r.breakpoints).toEqual({ added: [], dropped: [] })
    const more = input.messages.map((m, i) => (i % 2 === 0 ? { ...m, content: [{ type: 'text' as const, text: typeof m.content === 'string' ? m.content : 'x', cache_control: { type: 'ephemeral' as const } }] } : m))
    const s = await fitMessages({ system: SYSTEM, messages: more }, { model: 'claude-sonnet-4-5', maxTokens: 20_000, breakpoints: true, tools: anthropicTools })
    expect((JSON.stringify(s.messages).match(/cache_control/g) ?? []).length).toBe(3)
    expect(s.breakpoints?.dropped.length).toBe(3)
  })

  it('prefix: the tool definitions, then every message; the previous call’s messages are what the next one starts with', async () => {
    const first = await fitMessages(loop(3), { model: 'claude-sonnet-4-5', maxTokens: 20_000, tools: anthropicTools })
    const second = await fitMessages(loop(4), { model: 'claude-sonnet-4-5', maxTokens: 20_000, tools: anthropicTools, previous: first })
    expect(first.prefix.units).toHaveLength(1 + 1 + 12) // tools, system, messages
    expect(second.prefix.identical).toEqual({ units: 14, tokens: first.prefix.tokens })
    expect(second.prefix.tokens).toBe(second.tokenCount - 3)
    // other tools: nothing is shared, since they are sent first
    const third = await fitMessages(loop(4), { model: 'claude-sonnet-4-5', maxTokens: 20_000, previous: first })
    expect(third.prefix.identical).toEqual({ units: 0, tokens: 0 })
  })

  it('breakpoints on messages that are not Anthropic’s is an error saying why; so is a malformed previous call', async () => {
    await expect(fitMessages(conversation(2), { maxTokens: 10_000, breakpoints: true })).rejects.toThrow(/breakpoints: .*Anthropic/)
    await expect(fitMessages(conversation(2), { maxTokens: 10_000, breakpoints: { ttl: '2h' as never } })).rejects.toThrow(/breakpoints: ttl/)
    await expect(fitMessages(conversation(2), { maxTokens: 10_000, previous: { format: 'openai-chat', units: [1] } as never })).rejects.toThrow(/previous\.units\[0\]/)
  })
})

describe('fitMessages cuts an oversized item knowing what it is', () => {
  it('real tool outputs (code, log, Markdown) are cut by their compressor, within budget, keeping more of what matters than head and tail', async () => {
    const outputs = await toolOutputs()
    const big = outputs.filter((o) => o.text.length > 6000 && gpt4o.count(o.text) > 1500)
    for (const kind of ['code', 'log', 'markdown'] as const) {
      const cases = big.filter((o) => sniff(o.text).kind === kind).slice(0, 3)
      expect(cases.length, kind).toBeGreaterThan(0)
      let content = 0
      let middle = 0
      for (const o of cases) {
        const messages: ChatCompletionMessageParam[] = [
          { role: 'user', content: 'What does it say?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: o.tool, arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: o.text },
        ]
        const r = await fitMessages(messages, { tokenizer: gpt4o, maxTokens: 4000 })
        expect(r.tokenCount, o.id).toBeLessThanOrEqual(4000)
        expect(r.tokenCount, o.id).toBe(countOpenAI(r.messages as never, gpt4o))
        const cut = r.cut.find((c) => c.index === 2)!
        expect(cut.keptTokens, o.id).toBeLessThanOrEqual(1000) // the cap: a quarter of the budget
        expect(cut.content?.map((c) => c.kind), o.id).toEqual([kind])
        expect(cut.content![0]!.removed.every((x) => x._tag !== 'Cut'), o.id).toBe(true)
        const survivors = survivorsOf(o.text, sniff(o.text))!
        content += survivors.keptIn(String(r.messages[2]!.content))
        middle += survivors.keptIn(cutMiddle(o.text, cut.keptTokens, gpt4o)!.text)
      }
      expect(content, kind).toBeGreaterThan(middle)
    }
  })
})

describe('fitMessages, summarizing strategies on long histories', () => {
  it.each(['compress', 'smart'] as const)('%s: every message left out is in the summary, however far back it lies', async (strategy) => {
    const input = conversation(60) // 241 messages, far more than 900 tokens hold
    const given: string[] = []
    const r = await fitMessages(input, {
      maxTokens: 900,
      strategy,
      summarizer: async (messages) => {
        given.push(...messages.map((m) => m.parts.map((p) => (p._tag === 'Text' ? p.text : '')).join('')))
        return 'The services were checked one by one; all healthy.'
      },
    })
    expect(r.tokenCount).toBeLessThanOrEqual(900)
    expect(r.dropped.filter((d) => d.reason !== 'summarized')).toEqual([])
    const summarized = r.dropped.flatMap(({ index, through }) => (typeof index === 'number' ? Array.from({ length: (through ?? index) - index + 1 }, (_, k) => index + k) : []))
    const returned = r.sources.filter((s): s is number => typeof s === 'number')
    expect([...summarized, ...returned].sort((a, b) => a - b)).toEqual(input.map((_, i) => i))
    // the summarizer was given the oldest round too
    expect(given.some((t) => t.includes('Round 0:'))).toBe(true)
  })
})
