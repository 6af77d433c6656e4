/**
 * Messages in and out, in the shapes of the SDKs apps already use: OpenAI Chat Completions,
 * OpenAI Responses, Anthropic Messages, the Vercel AI SDK (`ai`) and LangChain.js.
 *
 * Each `fromX` reads a conversation one to one into gssc's `ChatMessage`s — lossless:
 * what gssc does not model rides along in `native`, and anything it cannot carry is an error
 * naming its path, never a silent drop. Each `toX` is its exact inverse, writing plain mutable
 * arrays the SDK's parameter types take as they are. {@link detect} and {@link fromAny} read a
 * conversation in whatever shape it is; `Decoded.sources` maps each message back to its index
 * in the input, so a later step can report what it dropped or cut by index and give the
 * conversation back in the shape it came in.
 *
 * @example
 * const decoded = fromAny(openaiMessages)               // Right({ shape: 'openai-chat', messages, sources })
 * const back = toOpenAIChat(decoded.right.messages)      // Right(openaiMessages)
 * @module
 */
export { OPENAI_CHAT, fromOpenAIChat } from './openaiChatIn.js'
export { toOpenAIChat } from './openaiChatOut.js'
export type * from './openaiChatWire.js'
export { OPENAI_RESPONSES, fromOpenAIResponses } from './responsesIn.js'
export { toOpenAIResponses } from './responsesOut.js'
export type * from './responsesWire.js'
export { ANTHROPIC, fromAnthropicMessages } from './anthropicIn.js'
export { toAnthropicMessages } from './anthropicOut.js'
export type * from './anthropicWire.js'
export { AI_SDK, fromAISDK } from './aiSdkIn.js'
export { toAISDK } from './aiSdkOut.js'
export type * from './aiSdkWire.js'
export { LANGCHAIN, fromLangChain } from './langchainIn.js'
export { toLangChain, type LangChainClasses } from './langchainOut.js'
export { detect, fromAny, readHistory, type Detected } from './detect.js'
export { SHAPES, type Decoded, type DecodeOptions, type Shape, type Source } from './shape.js'
export type { Dec } from './decode.js'
