/**
 * SDK messages in and out: the messages an app already holds, read into gssc's messages and
 * written back in the same shape, nothing added and nothing lost. Run: npx tsx examples/adapters.ts
 */
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages'
import * as lc from '@langchain/core/messages'
import type { ModelMessage } from 'ai'
import * as E from 'fp-ts/lib/Either.js'
import { isDeepStrictEqual as same } from 'node:util'
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import type { ResponseInputItem } from 'openai/resources/responses/responses'
import {
  fromAISDK,
  fromAnthropicMessages,
  fromAny,
  fromLangChain,
  fromOpenAIChat,
  fromOpenAIResponses,
  toAISDK,
  toAnthropicMessages,
  toLangChain,
  toOpenAIChat,
  toOpenAIResponses,
  toolCallsOf,
  type ChatMessage,
  type GsscError,
} from 'gssc'
import { isMain } from './load.js'

/** The value of a Right; a Left is thrown (an example only: an app would handle it). */
const ok = <A>(e: E.Either<GsscError, A>): A =>
  E.getOrElse<GsscError, A>((error) => {
    throw new Error(error.message)
  })(e)

const summary = (shape: string, messages: ReadonlyArray<ChatMessage>, unchanged: boolean): string =>
  `${shape}: ${messages.length} messages, ${messages.flatMap(toolCallsOf).length} tool call(s), back unchanged: ${unchanged}`

export const main = (): string => {
  const lines: Array<string> = []

  // OpenAI Chat Completions
  const chat: ChatCompletionMessageParam[] = [
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
  ]
  const fromChat = ok(fromOpenAIChat(chat)).messages
  const chatBack: ChatCompletionMessageParam[] = ok(toOpenAIChat(fromChat)) // what chat.completions.create takes
  lines.push(summary('OpenAI Chat', fromChat, same(chatBack, chat)))

  // OpenAI Responses
  const input: ResponseInputItem[] = [
    { role: 'user', content: 'Weather in Paris?' },
    { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'function_call_output', call_id: 'call_1', output: '18°C' },
  ]
  const fromResponses = ok(fromOpenAIResponses(input)).messages
  const inputBack: ResponseInputItem[] = ok(toOpenAIResponses(fromResponses)) // what responses.create takes as input
  lines.push(summary('OpenAI Responses', fromResponses, same(inputBack, input)))

  // Anthropic Messages
  const request: MessageCreateParamsNonStreaming = {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
    messages: [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C' }] },
    ],
  }
  const fromAnthropic = ok(fromAnthropicMessages(request)).messages // system first, then one message per turn
  const anthropicBack = ok(toAnthropicMessages(fromAnthropic)) // { system, messages }
  const sent: MessageCreateParamsNonStreaming = { ...request, ...anthropicBack }
  lines.push(summary('Anthropic', fromAnthropic, same(sent, request)))

  // Vercel AI SDK
  const prompt: ModelMessage[] = [
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: { city: 'Paris' } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'get_weather', output: { type: 'text', value: '18°C' } }] },
  ]
  const fromAI = ok(fromAISDK(prompt)).messages
  const promptBack: ModelMessage[] = ok(toAISDK(fromAI)) // what generateText / streamText take as messages
  lines.push(summary('AI SDK', fromAI, same(promptBack, prompt)))

  // LangChain.js: instances are built with the classes you pass, from your own @langchain/core
  const history = [
    new lc.HumanMessage('Weather in Paris?'),
    new lc.AIMessage({ content: '', tool_calls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }] }),
    new lc.ToolMessage({ content: '18°C', tool_call_id: 'call_1' }),
  ]
  const fromLC = ok(fromLangChain(history)).messages
  const historyBack: lc.BaseMessage[] = ok(toLangChain(fromLC, lc))
  lines.push(summary('LangChain', fromLC, same(historyBack, history)))

  // Any of them: the shape is told from what the messages hold
  lines.push(`fromAny: ${[chat, input, request, prompt, history].map((x) => ok(fromAny(x)).shape).join(', ')}`)
  return lines.join('\n')
}

if (isMain(import.meta.url)) console.log(main())
