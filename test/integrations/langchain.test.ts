import { readFileSync } from 'node:fs'
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages'
import { fakeModel } from '@langchain/core/testing'
import { createAgent, createMiddleware, tool, type AgentMiddleware } from 'langchain'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { fitMessages } from '../../src/fit/fitMessages.js'
import { fitMiddleware, langChainToolDefinitions, type ModelCallFit } from '../../src/integrations/index.js'

// A real agent loop: LangChain's own fake chat model asks for one file per call, the tool
// reads it from this repository, and the agent sends its growing state on every call.
const FILES = ['src/fit/fitMessages.ts', 'src/toolUnits.ts', 'src/phase.ts', 'src/error.ts', 'src/pipeline.ts', 'src/message.ts', 'src/compress/engine.ts', 'src/report.ts']
const SYSTEM = 'You review TypeScript modules. Read each file with read_file, then summarize.'
const TASK = 'Review the fitting code, one file at a time.'
const FINAL = 'All files read.'
const MAX = 3000
const RESERVE = 500

const readFile = tool(async ({ path }) => readFileSync(path, 'utf8'), {
  name: 'read_file',
  description: 'Read a file of the repository.',
  schema: z.object({ path: z.string().describe('Path from the repository root') }),
})

const scripted = () => {
  const model = fakeModel()
  FILES.forEach((path, i) => model.respond(new AIMessage({ content: '', tool_calls: [{ name: 'read_file', args: { path }, id: `call_${i}`, type: 'tool_call' }] })))
  return model.respond(new AIMessage(FINAL))
}

/** What one call sent, counted the way the model pays for it: messages and tools (OpenAI's rule). */
const countSent = async (messages: ReadonlyArray<BaseMessage>): Promise<number> => {
  const defs = await langChainToolDefinitions([readFile], 'openai')()
  if (defs._tag === 'Left') throw new Error(defs.left.message)
  return (await fitMessages(messages, { model: 'gpt-4o', maxTokens: 1_000_000, shape: 'langchain', tools: defs.right, maxItemShare: 1 })).tokenCount
}

/** Every AIMessage's tool calls are answered by the ToolMessages right after it, and every ToolMessage answers one. */
const pairsIntact = (messages: ReadonlyArray<BaseMessage>): void => {
  messages.forEach((m, i) => {
    if (AIMessage.isInstance(m) && (m.tool_calls ?? []).length > 0) {
      const ids = m.tool_calls!.map((c) => c.id)
      expect(messages.slice(i + 1, i + 1 + ids.length).map((t) => (ToolMessage.isInstance(t) ? t.tool_call_id : undefined))).toEqual(ids)
    }
    if (ToolMessage.isInstance(m)) {
      const before = messages.slice(0, i).reverse().find((p) => !ToolMessage.isInstance(p))
      expect(AIMessage.isInstance(before) && before.tool_calls!.some((c) => c.id === m.tool_call_id)).toBe(true)
    }
  })
}

describe('fitMiddleware: a LangChain createAgent middleware', () => {
  it('every model call of the agent loop fits the budget, tool pairs intact, newest turns kept; the state keeps everything', async () => {
    const model = scripted()
    const fits: Array<ModelCallFit<unknown>> = []
    const fit = createMiddleware(fitMiddleware({ model: 'gpt-4o', maxTokens: MAX, reserve: RESERVE, onFit: (f) => fits.push(f) }))
    const agent = createAgent({ model, tools: [readFile], systemPrompt: SYSTEM, middleware: [fit] })
    const state = await agent.invoke({ messages: [new HumanMessage(TASK)] })

    expect(state.messages.at(-1)?.text).toBe(FINAL)
    expect(state.messages.filter((m) => ToolMessage.isInstance(m))).toHaveLength(FILES.length) // the state is whole
    expect(model.calls).toHaveLength(FILES.length + 1)
    const counts: number[] = []
    for (const [k, { messages }] of model.calls.entries()) {
      counts.push(await countSent(messages))
      expect(messages[0]!.getType()).toBe('system')
      expect(messages[0]!.text).toBe(SYSTEM)
      pairsIntact(messages)
      const last = messages.at(-1)!
      if (k > 0) expect(ToolMessage.isInstance(last) && last.tool_call_id).toBe(`call_${k - 1}`)
      // a message kept whole is the agent's own instance, not a copy; a cut one is a new instance
      if (k > 0) expect(state.messages).toContain(messages.at(-2))
      if (k > 0) expect(state.messages.includes(last)).toBe(!fits[k]!.cut.some((c) => c.index === fits[k]!.sources.at(-1)))
    }
    expect(Math.max(...counts)).toBeLessThanOrEqual(MAX - RESERVE)
    expect(fits.map((f) => f.tokenCount)).toEqual(counts)
    expect(fits.every((f) => f.budget.tools.tokens > 0 && f.budget.tools.rule === 'openai-cookbook')).toBe(true)
    // it had to give way, and says where by the state's indexes
    expect(fits.at(-1)!.dropped.length).toBeGreaterThan(0)
    expect(fits.at(-1)!.dropped[0]).toMatchObject({ index: 0, reason: 'over_budget' })
    expect(fits.flatMap((f) => f.cut).length).toBeGreaterThan(0)
  })

  it('the same agent without it sends more than the budget (the test can fail)', async () => {
    const model = scripted()
    await createAgent({ model, tools: [readFile], systemPrompt: SYSTEM }).invoke({ messages: [new HumanMessage(TASK)] })
    expect(await countSent(model.calls.at(-1)!.messages)).toBeGreaterThan(MAX - RESERVE)
  })

  it('is a middleware as LangChain types it, with or without createMiddleware', () => {
    expectTypeOf(fitMiddleware({ maxTokens: 1000 })).toExtend<AgentMiddleware>()
    expectTypeOf(createMiddleware(fitMiddleware({ maxTokens: 1000 }))).toExtend<AgentMiddleware>()
    // @ts-expect-error maxTokens is required
    fitMiddleware({ model: 'gpt-4o' })
  })

  it('an agent without a system prompt: nothing is added', async () => {
    const model = fakeModel().respond(new AIMessage(FINAL))
    const agent = createAgent({ model, tools: [], middleware: [fitMiddleware({ maxTokens: 1000 })] })
    await agent.invoke({ messages: [new HumanMessage(TASK)] })
    expect(model.calls[0]!.messages.map((m) => m.getType())).toEqual(['human'])
  })

  it('hands the model a cut system message only when the system prompt alone is over the budget', async () => {
    const long = `Rules:\n${Array.from({ length: 400 }, (_, i) => `rule ${i}: be precise.`).join('\n')}`
    const model = fakeModel().respond(new AIMessage(FINAL))
    await createAgent({ model, tools: [], systemPrompt: long, middleware: [fitMiddleware({ maxTokens: 2000 })] }).invoke({ messages: [new HumanMessage(TASK)] })
    const sent = model.calls[0]!.messages[0]!
    expect(sent.getType()).toBe('system')
    expect(sent.text.length).toBeLessThan(long.length)
    expect(sent.text.startsWith('Rules:\nrule 0: be precise.')).toBe(true)
  })
})
