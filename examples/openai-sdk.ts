/**
 * The OpenAI SDK with gssc: a tool loop whose every request is fitted by `fitMessages` (the
 * system prompt first, the newest turns, each tool call with its results, the tools counted)
 * and sent as it is: the fitted messages keep the SDK's own param type, no cast. The history
 * keeps everything. Its test sends it to a local stand-in of the API on 127.0.0.1.
 * Run: OPENAI_API_KEY=… npx tsx examples/openai-sdk.ts
 */
import OpenAI from 'openai'
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import { fitMessages } from 'gssc'
import { isMain } from './load.js'
import { places, readExampleFile, SYSTEM, TASK } from './tool-loop.js'

const tools: ChatCompletionTool[] = [{
  type: 'function',
  function: { name: 'read_file', description: 'Read a file of the example data.', parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
}]

export const main = async (client = new OpenAI()): Promise<string> => {
  const history: ChatCompletionMessageParam[] = [{ role: 'system', content: SYSTEM }, { role: 'user', content: TASK }]
  const log: string[] = []
  for (let step = 0; step < 10; step++) {
    const fitted = await fitMessages(history, { model: 'gpt-4o', maxTokens: 1200, reserve: 300, tools })
    log.push(`step ${step}: sent ${fitted.messages.length} of ${history.length} messages, ${fitted.tokenCount} tokens; dropped ${places(fitted.dropped)}, cut ${places(fitted.cut)}`)
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: fitted.messages, tools, max_completion_tokens: 300 })
    const message = completion.choices[0]!.message
    history.push(message)
    if (message.tool_calls === undefined || message.tool_calls.length === 0) return [...log, `answer: ${message.content}`].join('\n')
    for (const call of message.tool_calls)
      history.push({ role: 'tool', tool_call_id: call.id, content: call.type === 'function' ? readExampleFile(JSON.parse(call.function.arguments).name) : '' })
  }
  return log.join('\n')
}

if (isMain(import.meta.url)) console.log(await main())
