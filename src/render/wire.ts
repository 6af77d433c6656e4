/**
 * The request shapes of OpenAI Chat Completions and Anthropic Messages, as plain data.
 *
 * They mirror the subsets of the official SDK types that gssc produces, so a value of these
 * types is assignable to `ChatCompletionMessageParam[]` (openai) and `MessageParam[]` /
 * `TextBlockParam[]` (@anthropic-ai/sdk) without importing either SDK. Arrays are typed
 * `Array<…>` rather than `ReadonlyArray<…>` only because the SDK types are mutable arrays and a
 * readonly array is not assignable to them; gssc never mutates them.
 *
 * @module
 */
import type { CacheControl } from '../message.js'

// -------------------------------------------------------------------------------------
// OpenAI Chat Completions
// -------------------------------------------------------------------------------------

/** `{ type: 'text', text }` */
export interface OpenAITextPart {
  readonly type: 'text'
  readonly text: string
}

/** An image by URL or `data:<mime>;base64,<…>` URL. */
export interface OpenAIImagePart {
  readonly type: 'image_url'
  readonly image_url: { readonly url: string; readonly detail?: 'auto' | 'low' | 'high' }
}

/** A function tool call; `arguments` is a JSON-encoded object. */
export interface OpenAIToolCall {
  readonly id: string
  readonly type: 'function'
  readonly function: { readonly name: string; readonly arguments: string }
}

/** `role: 'system'` */
export interface OpenAISystemMessage {
  readonly role: 'system'
  readonly content: string | Array<OpenAITextPart>
  readonly name?: string
}

/** `role: 'developer'` (replaces system for o1 and newer). */
export interface OpenAIDeveloperMessage {
  readonly role: 'developer'
  readonly content: string | Array<OpenAITextPart>
  readonly name?: string
}

/** `role: 'user'` */
export interface OpenAIUserMessage {
  readonly role: 'user'
  readonly content: string | Array<OpenAITextPart | OpenAIImagePart>
  readonly name?: string
}

/** `role: 'assistant'`; `content` is left out when the turn only calls tools. */
export interface OpenAIAssistantMessage {
  readonly role: 'assistant'
  readonly content?: string | Array<OpenAITextPart>
  /** The model's own reasoning, for OpenAI-compatible providers that take it back (option `reasoningContent`). */
  readonly reasoning_content?: string
  readonly tool_calls?: Array<OpenAIToolCall>
  readonly name?: string
}

/** `role: 'tool'`: one tool result, text only. */
export interface OpenAIToolMessage {
  readonly role: 'tool'
  readonly tool_call_id: string
  readonly content: string | Array<OpenAITextPart>
}

/** One Chat Completions message. */
export type OpenAIMessage =
  | OpenAISystemMessage
  | OpenAIDeveloperMessage
  | OpenAIUserMessage
  | OpenAIAssistantMessage
  | OpenAIToolMessage

// -------------------------------------------------------------------------------------
// Anthropic Messages
// -------------------------------------------------------------------------------------


/** The image media types the Messages API accepts. */
export type AnthropicMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'

/** `{ type: 'text', text }` */
export interface AnthropicTextBlock {
  readonly type: 'text'
  readonly text: string
  readonly cache_control?: CacheControl
}

/** An image, inline (base64) or by URL. */
export interface AnthropicImageBlock {
  readonly type: 'image'
  readonly source:
    | { readonly type: 'base64'; readonly media_type: AnthropicMediaType; readonly data: string }
    | { readonly type: 'url'; readonly url: string }
  readonly cache_control?: CacheControl
}

/** An assistant's tool call; `input` is the decoded arguments object. */
export interface AnthropicToolUseBlock {
  readonly type: 'tool_use'
  readonly id: string
  readonly name: string
  readonly input: Readonly<Record<string, unknown>>
  readonly cache_control?: CacheControl
}

/** A tool's answer, in the user turn right after the call. */
export interface AnthropicToolResultBlock {
  readonly type: 'tool_result'
  readonly tool_use_id: string
  readonly content?: Array<AnthropicTextBlock | AnthropicImageBlock>
  readonly is_error?: boolean
  readonly cache_control?: CacheControl
}

/** Signed reasoning, replayed unchanged to the model that wrote it. */
export interface AnthropicThinkingBlock {
  readonly type: 'thinking'
  readonly thinking: string
  readonly signature: string
}

/** Encrypted reasoning, replayed unchanged to the model that wrote it. */
export interface AnthropicRedactedThinkingBlock {
  readonly type: 'redacted_thinking'
  readonly data: string
}

/** Blocks of a user turn. */
export type AnthropicUserBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicToolResultBlock

/** Blocks of an assistant turn. */
export type AnthropicAssistantBlock =
  | AnthropicTextBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock

/** `role: 'user'` */
export interface AnthropicUserMessage {
  readonly role: 'user'
  readonly content: Array<AnthropicUserBlock>
}

/** `role: 'assistant'` */
export interface AnthropicAssistantMessage {
  readonly role: 'assistant'
  readonly content: Array<AnthropicAssistantBlock>
}

/** One Messages API turn. */
export type AnthropicMessage = AnthropicUserMessage | AnthropicAssistantMessage

/** Any content block. */
export type AnthropicBlock = AnthropicUserBlock | AnthropicAssistantBlock

/** What is sent: the system prompt split out, and the alternating turns. */
export interface AnthropicRequest {
  readonly system?: Array<AnthropicTextBlock>
  readonly messages: Array<AnthropicMessage>
}

/** The media types Anthropic accepts, as a predicate. */
export const isAnthropicMediaType = (mime: string): mime is AnthropicMediaType =>
  mime === 'image/jpeg' || mime === 'image/png' || mime === 'image/gif' || mime === 'image/webp'
