/**
 * The OpenAI Chat Completions messages of an agent turn, as nanobot builds them. The parts
 * and tool calls are the shared wire shapes of `render/wire.ts`; the messages add nanobot's
 * fields: `name` on tool results and `reasoning_content` on assistant turns. They are
 * assignable to the SDK's `ChatCompletionMessageParam` (arrays are typed mutable for that
 * reason; gssc never mutates them).
 *
 * @module
 */
import type { OpenAIImagePart, OpenAITextPart, OpenAIToolCall } from '../render/wire.js'

/** A call of a custom (free-text input) tool, as the OpenAI SDK returns it; passed through as is. */
export interface TurnCustomToolCall {
  readonly id: string
  readonly type: 'custom'
  readonly custom: { readonly name: string; readonly input: string }
}

/** `{ role: 'system' }`. */
export interface TurnSystemMessage {
  readonly role: 'system'
  readonly content: string
}

/** `{ role: 'user' }`: text, or images then text. */
export interface TurnUserMessage {
  readonly role: 'user'
  readonly content: string | Array<OpenAITextPart | OpenAIImagePart>
}

/**
 * `{ role: 'assistant' }`. `reasoning_content` is the field DeepSeek-style reasoning models
 * return and expect back; other endpoints ignore it.
 */
export interface TurnAssistantMessage {
  readonly role: 'assistant'
  readonly content?: string | null
  readonly tool_calls?: Array<OpenAIToolCall | TurnCustomToolCall>
  readonly reasoning_content?: string
}

/** `{ role: 'tool' }`: one tool's result. `name` is nanobot's addition; OpenAI ignores it. */
export interface TurnToolMessage {
  readonly role: 'tool'
  readonly tool_call_id: string
  readonly name?: string
  readonly content: string
}

/** Any message the workspace helpers produce. */
export type TurnMessage = TurnSystemMessage | TurnUserMessage | TurnAssistantMessage | TurnToolMessage
