import { readFileSync } from 'node:fs'
import { generateText, jsonSchema, stepCountIs, streamText, tool, type ModelMessage, type PrepareStepFunction } from 'ai'
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { fitMessages } from '../../src/fit/fitMessages.js'
import { createTokenCache } from '../../src/tokenize/cache.js'
import { deepFreeze } from '../render/fixtures.js'
import { fitStep, type ModelCallFit } from '../../src/integrations/index.js'

// A real tool loop: the model (the AI SDK's own mock) asks for one file per step, the tool
// reads it from this repository, and the SDK sends the growing conversation on every step.
const FILES = ['src/fit/fitMessages.ts', 'src/toolUnits.ts', 'src/phase.ts', 'src/error.ts', 'src/pipeline.ts', 'src/message.ts', 'src/compress/engine.ts', 'src/report.ts']
const SYSTEM = 'You review TypeScript modules. Read each file with read_file, then summarize.'
const TASK: ModelMessage[] = [{ role: 'user', content: 'Review the fitting code, one file at a time.' }]
const MAX = 3000
const RESERVE = 500

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }
const call = (i: number) => ({ type: 'tool-call' as const, toolCallId: `call_${i}`, toolName: 'read_file', input: JSON.stringify({ path: FILES[i] }) })
const FINAL = 'All files read.'

const tools = {
  read_file: tool({
    description: 'Read a file of the repository.',
    inputSchema: z.object({ path: z.string().describe('Path from the repository root') }),
    execute: async ({ path }) => readFileSync(path, 'utf8'),
  }),
}

const generating = () =>
  new MockLanguageModelV3({
    doGenerate: [
      ...FILES.map((_, i) => ({ content: [call(i)], finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' }, usage, warnings: [] })),
      { content: [{ type: 'text' as const, text: FINAL }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] },
    ],
  })

const streaming = () =>
  new MockLanguageModelV3({
    doStream: [
      ...FILES.map((_, i) => ({
        stream: convertArrayToReadableStream([
          { type: 'stream-start' as const, warnings: [] },
          call(i),
          { type: 'finish' as const, finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' }, usage },
        ]),
      })),
      {
        stream: convertArrayToReadableStream([
          { type: 'stream-start' as const, warnings: [] },
          { type: 'text-start' as const, id: 't' },
          { type: 'text-delta' as const, id: 't', delta: FINAL },
          { type: 'text-end' as const, id: 't' },
          { type: 'finish' as const, finishReason: { unified: 'stop' as const, raw: 'stop' }, usage },
        ]),
      },
    ],
  })

interface Received {
  readonly prompt: ReadonlyArray<{ readonly role: string; readonly content: unknown }>
  readonly tools?: ReadonlyArray<{ readonly type: string; readonly name?: string; readonly description?: string; readonly inputSchema?: unknown }> | undefined
}

/** What the model was sent, counted: the prompt as the model received it, and the tools it received (OpenAI's rule). */
const countReceived = async (c: Received): Promise<number> => {
  const defs = (c.tools ?? []).map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } }))
  return (await fitMessages(c.prompt, { model: 'gpt-4o', maxTokens: 1_000_000, shape: 'ai-sdk', tools: defs, maxItemShare: 1 })).tokenCount
}

const partsOf = (m: { readonly content: unknown }): ReadonlyArray<{ readonly type: string; readonly toolCallId?: string }> => (Array.isArray(m.content) ? m.content : [])

/** Every tool call is answered by the message right after it, and every result answers a call just before. */
const pairsIntact = (prompt: Received['prompt']): void => {
  prompt.forEach((m, i) => {
    const calls = partsOf(m).filter((p) => p.type === 'tool-call').map((p) => p.toolCallId)
    const results = partsOf(m).filter((p) => p.type === 'tool-result').map((p) => p.toolCallId)
    if (calls.length > 0) expect(partsOf(prompt[i + 1] ?? { content: [] }).map((p) => p.toolCallId)).toEqual(calls)
    if (results.length > 0) expect(partsOf(prompt[i - 1] ?? { content: [] }).filter((p) => p.type === 'tool-call').map((p) => p.toolCallId)).toEqual(results)
  })
}

/** The checks on every call the model received. */
const checkCalls = async (calls: ReadonlyArray<Received>): Promise<ReadonlyArray<number>> => {
  expect(calls).toHaveLength(FILES.length + 1)
  const counts: number[] = []
  for (const [step, c] of calls.entries()) {
    counts.push(await countReceived(c))
    expect(c.prompt[0]).toEqual({ role: 'system', content: SYSTEM }) // first and unchanged
    pairsIntact(c.prompt)
    // the newest result is always there: step k answers call k-1
    if (step > 0) expect(partsOf(c.prompt[c.prompt.length - 1]!)[0]).toMatchObject({ type: 'tool-result', toolCallId: `call_${step - 1}` })
    expect(c.tools?.map((t) => t.name)).toEqual(['read_file'])
  }
  expect(Math.max(...counts)).toBeLessThanOrEqual(MAX - RESERVE)
  return counts
}

describe('fitStep: the AI SDK prepareStep', () => {
  it('generateText: every step the model receives fits the budget, tool pairs intact, newest turns kept', async () => {
    const model = generating()
    const fits: Array<ModelCallFit<unknown>> = []
    const result = await generateText({
      model,
      system: SYSTEM,
      messages: TASK,
      tools,
      stopWhen: stepCountIs(20),
      prepareStep: fitStep({ model: 'gpt-4o', maxTokens: MAX, reserve: RESERVE, system: SYSTEM, tools, onFit: (f) => fits.push(f) }),
    })
    expect(result.text).toBe(FINAL)
    const counts = await checkCalls(model.doGenerateCalls)
    // the fit's own count is what the model received, tools included (exact: OpenAI's rule)
    expect(fits.map((f) => f.tokenCount)).toEqual(counts)
    expect(fits.every((f) => f.tokenCountExact && f.budget.tools.rule === 'openai-cookbook' && f.budget.tools.tokens > 0)).toBe(true)
    // it had to give way: older steps dropped (by their step indexes), big files cut
    expect(fits[FILES.length]!.dropped.length).toBeGreaterThan(0)
    expect(fits.flatMap((f) => f.cut).length).toBeGreaterThan(0)
    expect(fits.flatMap((f) => f.dropped).every((d) => typeof d.index === 'number')).toBe(true)
    expect(fits.map((f) => f.system)).toEqual(fits.map(() => ({ role: 'system', content: SYSTEM })))
    // nothing of the conversation itself was changed: the SDK's history is whole
    expect(result.response.messages.filter((m) => m.role === 'tool')).toHaveLength(FILES.length)
  })

  it('one token cache for the whole loop: the same fits, each message tokenized once', async () => {
    const cache = createTokenCache()
    const counts: number[] = []
    const plain: number[] = []
    for (const [c, out] of [[cache, counts], [undefined, plain]] as const)
      await generateText({ model: generating(), system: SYSTEM, messages: TASK, tools, stopWhen: stepCountIs(20), prepareStep: fitStep({ maxTokens: MAX, reserve: RESERVE, system: SYSTEM, tools, ...(c === undefined ? {} : { cache: c }), onFit: (f) => out.push(f.tokenCount) }) })
    expect(counts).toEqual(plain)
    expect(cache.size()).toBeGreaterThan(FILES.length)
  })

  it('the same loop without it sends more than the budget (the test can fail)', async () => {
    const model = generating()
    await generateText({ model, system: SYSTEM, messages: TASK, tools, stopWhen: stepCountIs(20) })
    const last = model.doGenerateCalls[FILES.length]!
    expect(await countReceived(last)).toBeGreaterThan(MAX - RESERVE)
  })

  it('streamText: the same guarantees on every streamed step', async () => {
    const model = streaming()
    const result = streamText({
      model,
      system: SYSTEM,
      messages: TASK,
      tools,
      stopWhen: stepCountIs(20),
      prepareStep: fitStep({ model: 'gpt-4o', maxTokens: MAX, reserve: RESERVE, system: SYSTEM, tools }),
    })
    expect(await result.text).toBe(FINAL)
    await checkCalls(model.doStreamCalls)
  })

  it('writes to nothing it is given: the step, its messages, the system message', async () => {
    const big = readFileSync(FILES[0]!, 'utf8')
    const messages = deepFreeze<ModelMessage[]>([
      ...TASK,
      { role: 'assistant', content: [call(0)].map((c) => ({ type: 'tool-call' as const, toolCallId: c.toolCallId, toolName: c.toolName, input: { path: FILES[0] } })) },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_0', toolName: 'read_file', output: { type: 'text', value: big } }] },
    ])
    const system = deepFreeze({ role: 'system' as const, content: SYSTEM })
    const before = JSON.stringify([messages, system])
    const r = await fitStep({ model: 'gpt-4o', maxTokens: 1500, system })(deepFreeze({ messages, stepNumber: 1 }))
    expect(JSON.stringify([messages, system])).toBe(before)
    expect(r.messages).toHaveLength(3)
    expect(r.messages[2]).not.toEqual(messages[2]) // cut, as a new message
  })

  it('hands back the system prompt only when it had to be cut, and in the form it was given', async () => {
    const long = `Rules:\n${Array.from({ length: 400 }, (_, i) => `rule ${i}: be precise.`).join('\n')}`
    const prepare = fitStep({ model: 'gpt-4o', maxTokens: 2000, system: long })
    const r = await prepare({ messages: TASK })
    expect(typeof r.system).toBe('string')
    expect(long.startsWith(r.system as string)).toBe(false) // cut, with a marker
    expect((r.system as string).length).toBeLessThan(long.length)
    const message = { role: 'system' as const, content: 'Be terse.', providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } }
    expect(await fitStep({ model: 'gpt-4o', maxTokens: 2000, system: message })({ messages: TASK })).toEqual({ messages: TASK })
  })

  it('counts tools given with jsonSchema() as the model receives them, and names a tool it cannot read', async () => {
    const plain = { read_file: tool({ description: 'Read a file of the repository.', inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string', description: 'Path from the repository root' } }, required: ['path'] }) }) }
    const fits: Array<ModelCallFit<unknown>> = []
    await fitStep({ maxTokens: 2000, tools, onFit: (f) => fits.push(f) })({ messages: TASK })
    await fitStep({ maxTokens: 2000, tools: plain, onFit: (f) => fits.push(f) })({ messages: TASK })
    expect(fits[0]!.budget.tools).toEqual(fits[1]!.budget.tools)
    await expect(fitStep({ maxTokens: 2000, tools: { broken: { inputSchema: { '~standard': { vendor: 'zod', version: 1 } } } } })({ messages: TASK })).rejects.toThrow(
      'tools.broken.inputSchema: a zod schema that cannot give its JSON Schema',
    )
  })

  it('is the SDK\'s own PrepareStepFunction, for any tool set', () => {
    expectTypeOf(fitStep({ maxTokens: 1000, system: SYSTEM, tools })).toExtend<PrepareStepFunction<typeof tools>>()
    expectTypeOf(fitStep({ maxTokens: 1000 })).toExtend<PrepareStepFunction>()
    // @ts-expect-error a system prompt is a string or a system message
    fitStep({ maxTokens: 1000, system: { role: 'user', content: 'Be terse.' } })
  })

  it('counts tools by Anthropic\'s estimate for a Claude model', async () => {
    const fits: Array<ModelCallFit<unknown>> = []
    await fitStep({ model: 'claude-sonnet-4-5', maxTokens: 4000, tools, onFit: (f) => fits.push(f) })({ messages: TASK })
    expect(fits[0]!.budget.tools).toMatchObject({ exact: false, rule: 'estimate' })
    expect(fits[0]!.tokenCountExact).toBe(false)
  })
})
