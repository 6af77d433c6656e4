/**
 * The SDK message shapes the adapters read and write, and what reading one gives.
 *
 * Reading is one to one: each message (or Responses item) of the input becomes exactly one
 * gssc {@link ChatMessage}, in order, so a later step that drops or cuts messages can name
 * each by its index in the caller's input (`sources`). Anthropic's top-level `system` is the
 * one exception: it becomes a system message whose source is `'system'`.
 *
 * @module
 */
import type { ChatMessage } from '../message.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A message shape of an SDK:
 * - `openai-chat`: OpenAI Chat Completions `ChatCompletionMessageParam[]`;
 * - `openai-responses`: OpenAI Responses input items `ResponseInputItem[]`;
 * - `anthropic`: an Anthropic Messages `{ system, messages }` (or its `MessageParam[]`);
 * - `ai-sdk`: the Vercel AI SDK's `ModelMessage[]` (package `ai`, v5 and later);
 * - `langchain`: LangChain.js `BaseMessage[]` (instances, or their serialized forms).
 */
export type Shape = 'openai-chat' | 'openai-responses' | 'anthropic' | 'ai-sdk' | 'langchain'

/** Every shape, in the order {@link detect} prefers them when an input fits several alike. */
export const SHAPES: ReadonlyArray<Shape> = ['openai-chat', 'ai-sdk', 'anthropic', 'openai-responses', 'langchain']

/** Where a message came from: its index in the input's message list, or Anthropic's top-level `system`. */
export type Source = number | 'system'

/** Messages read from an SDK shape. */
export interface Decoded {
  readonly shape: Shape
  readonly messages: ReadonlyArray<ChatMessage>
  /** `sources[i]`: where `messages[i]` came from in the input. */
  readonly sources: ReadonlyArray<Source>
}

/** Options of every reader. */
export interface DecodeOptions {
  /** The input's name in error paths: `messages` (default), or `history` for a build request. */
  readonly path?: string
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Messages read one to one: `sources` is `0..n-1`.
 *
 * @category constructors
 * @since 0.2.0
 */
export const oneToOne = (shape: Shape, messages: ReadonlyArray<ChatMessage>): Decoded => ({
  shape,
  messages,
  sources: messages.map((_, i) => i),
})
