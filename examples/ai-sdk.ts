/**
 * The Vercel AI SDK with gssc: `fitStep` as the tool loop's `prepareStep`, so every step
 * sends what fits (the system prompt, the newest steps, each tool call with its result, the
 * tools counted) while the SDK's own history keeps everything. The model here is the AI
 * SDK's mock replaying a tool loop; in an app, `openai('gpt-4o')` or any provider's model.
 * Run: npx tsx examples/ai-sdk.ts
 */
import { generateText, jsonSchema, stepCountIs, tool, type LanguageModel } from 'ai'
import { fitStep } from 'gssc/integrations'
import { isMain } from './load.js'
import { places, readExampleFile, scriptedAISDKModel, SYSTEM, TASK } from './tool-loop.js'

export const main = async (model: LanguageModel = scriptedAISDKModel()): Promise<string> => {
  const tools = {
    read_file: tool({
      description: 'Read a file of the example data.',
      inputSchema: jsonSchema<{ name: string }>({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }),
      execute: async ({ name }) => readExampleFile(name),
    }),
  }
  const log: string[] = []
  const result = await generateText({
    model, system: SYSTEM, tools, messages: [{ role: 'user', content: TASK }], stopWhen: stepCountIs(10),
    prepareStep: fitStep({
      model: 'gpt-4o', maxTokens: 1200, reserve: 300, system: SYSTEM, tools,
      onFit: (fit, step) => log.push(`step ${step}: sent ${fit.messages.length} messages, ${fit.tokenCount} tokens; dropped ${places(fit.dropped)}, cut ${places(fit.cut)}`),
    }),
  })
  return [...log, `answer: ${result.text}`].join('\n')
}

if (isMain(import.meta.url)) console.log(await main())
