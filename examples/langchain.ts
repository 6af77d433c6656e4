/**
 * LangChain.js with gssc: `fitMiddleware` in a `createAgent` agent, so every model call sends
 * what fits (the system prompt, the newest turns, each AIMessage's tool calls with their
 * ToolMessages, the tools counted) while the agent's state keeps everything. The model here
 * is LangChain's fake chat model replaying a tool loop; in an app, `new ChatOpenAI(…)` or any.
 * Run: npx tsx examples/langchain.ts
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models'
import { HumanMessage } from '@langchain/core/messages'
import { createAgent, createMiddleware, tool } from 'langchain'
import { z } from 'zod'
import { fitMiddleware } from 'gssc/integrations'
import { isMain } from './load.js'
import { places, readExampleFile, scriptedLangChainModel, SYSTEM, TASK } from './tool-loop.js'

export const main = async (model: BaseChatModel = scriptedLangChainModel()): Promise<string> => {
  const readFile = tool(({ name }) => readExampleFile(name), {
    name: 'read_file',
    description: 'Read a file of the example data.',
    schema: z.object({ name: z.string() }),
  })
  const log: string[] = []
  const fit = fitMiddleware({
    model: 'gpt-4o', maxTokens: 1200, reserve: 300,
    onFit: (f) => log.push(`call ${log.length}: sent ${f.messages.length} messages, ${f.tokenCount} tokens; dropped ${places(f.dropped)}, cut ${places(f.cut)}`),
  })
  const agent = createAgent({ model, tools: [readFile], systemPrompt: SYSTEM, middleware: [createMiddleware(fit)] })
  const state = await agent.invoke({ messages: [new HumanMessage(TASK)] })
  return [...log, `answer: ${state.messages.at(-1)?.text}`].join('\n')
}

if (isMain(import.meta.url)) console.log(await main())
