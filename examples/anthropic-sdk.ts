/**
 * The Anthropic SDK with gssc: a tool loop whose every request is fitted by `fitMessages` and
 * sent as it is. A `{ system, messages }` body goes in and comes back in that shape, with the
 * SDK's own param types; each `tool_use` stays with its `tool_result`, the turns still open
 * on a user turn, and the tools are counted (an estimate for Claude: `tokenCountExact` is
 * false). Its test sends it to a local stand-in of the API on 127.0.0.1.
 * Run: ANTHROPIC_API_KEY=… npx tsx examples/anthropic-sdk.ts
 */
import Anthropic from '@anthropic-ai/sdk'
import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages'
import { fitMessages } from 'gssc'
import { isMain } from './load.js'
import { places, readExampleFile, SYSTEM, TASK } from './tool-loop.js'

const model = 'claude-sonnet-4-6'
const tools: Tool[] = [{
  name: 'read_file',
  description: 'Read a file of the example data.',
  input_schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
}]

export const main = async (client = new Anthropic()): Promise<string> => {
  const history: MessageParam[] = [{ role: 'user', content: TASK }]
  const log: string[] = []
  for (let step = 0; step < 10; step++) {
    const fitted = await fitMessages({ system: SYSTEM, messages: history }, { model, maxTokens: 1600, reserve: 300, tools })
    log.push(`step ${step}: sent ${fitted.messages.messages.length} of ${history.length} messages, about ${fitted.tokenCount} tokens; dropped ${places(fitted.dropped)}, cut ${places(fitted.cut)}`)
    const response = await client.messages.create({ model, max_tokens: 300, ...fitted.messages, tools })
    history.push({ role: 'assistant', content: response.content })
    const calls = response.content.filter((b) => b.type === 'tool_use')
    if (calls.length === 0) return [...log, `answer: ${response.content.map((b) => (b.type === 'text' ? b.text : '')).join('')}`].join('\n')
    history.push({ role: 'user', content: calls.map((c) => ({ type: 'tool_result' as const, tool_use_id: c.id, content: readExampleFile((c.input as { name?: unknown }).name) })) })
  }
  return log.join('\n')
}

if (isMain(import.meta.url)) console.log(await main())
