/**
 * Shared by the SDK examples (docs/integrations.md): the tool loop they run. The model reads
 * each file of examples/data with `read_file`, one per step, then answers; the conversation
 * outgrows a small budget on the way. Offline, the AI SDK's own mock model and LangChain's
 * own fake chat model replay that loop; the OpenAI and Anthropic SDK examples send theirs
 * to a server (the tests' local stand-in of the API on 127.0.0.1, or the real one).
 */
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { AIMessage } from '@langchain/core/messages'
import { fakeModel } from '@langchain/core/testing'
import { MockLanguageModelV3 } from 'ai/test'

/** The files the model asks for, in order. */
export const FILES = ['chunks.json', 'kb.json', 'history.jsonl', 'packets.jsonl', 'memory.json', 'system.md']

export const SYSTEM = 'You review the example data. Read each file with read_file, then say what it holds.'
export const TASK = `Read ${FILES.join(', ')}.`
export const ANSWER = 'Done: every file read.'

/** The `read_file` tool's work: a file of examples/data (by its base name only: the model chooses it). */
export const readExampleFile = (name: unknown): string => readFileSync(new URL(`./data/${basename(String(name))}`, import.meta.url), 'utf8')

/** Places in the history, for the log: `[1..3, 5]`. */
export const places = (ps: ReadonlyArray<{ readonly index: number | 'system'; readonly through?: number }>): string =>
  `[${ps.map((p) => (p.through === undefined ? p.index : `${p.index}..${p.through}`)).join(', ')}]`

const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } }

/** The AI SDK's mock model (`ai/test`) replaying the loop. */
export const scriptedAISDKModel = (): MockLanguageModelV3 =>
  new MockLanguageModelV3({
    doGenerate: [
      ...FILES.map((name, n) => ({
        content: [{ type: 'tool-call' as const, toolCallId: `call_${n}`, toolName: 'read_file', input: JSON.stringify({ name }) }],
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
        usage,
        warnings: [],
      })),
      { content: [{ type: 'text' as const, text: ANSWER }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] },
    ],
  })

/** LangChain's fake chat model (`@langchain/core/testing`) replaying the loop. */
export const scriptedLangChainModel = (): ReturnType<typeof fakeModel> => {
  const model = fakeModel()
  FILES.forEach((name, n) => model.respond(new AIMessage({ content: '', tool_calls: [{ name: 'read_file', args: { name }, id: `call_${n}`, type: 'tool_call' }] })))
  return model.respond(new AIMessage(ANSWER))
}
