/**
 * Anthropic Messages request content as the adapters write it: the SDK's `MessageParam` and
 * block param types, mirrored without importing the SDK, with plain mutable arrays (the SDK's
 * parameter types are mutable, and a readonly array is not assignable to them).
 *
 * @module
 */
import type { CacheControl } from '../message.js'

/** The image media types the Messages API takes inline. */
export type AnthropicImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'

/** `{ type: 'text', text }` */
export interface AnthropicTextParam {
  type: 'text'
  text: string
  cache_control?: CacheControl | null
}

/** An image, inline or by URL. */
export interface AnthropicImageParam {
  type: 'image'
  source: { type: 'base64'; media_type: AnthropicImageMediaType; data: string } | { type: 'url'; url: string }
  cache_control?: CacheControl | null
}

/** A document: a PDF inline or by URL, plain text, or an uploaded file. */
export interface AnthropicDocumentParam {
  type: 'document'
  source:
    | { type: 'base64'; media_type: 'application/pdf'; data: string }
    | { type: 'text'; media_type: 'text/plain'; data: string }
    | { type: 'url'; url: string }
    | { type: 'file'; file_id: string }
  title?: string | null
  cache_control?: CacheControl | null
}

/** A tool call; `input` is the arguments object. */
export interface AnthropicToolUseParam {
  type: 'tool_use'
  id: string
  name: string
  input: unknown
  cache_control?: CacheControl | null
}

/** A tool's answer. */
export interface AnthropicToolResultParam {
  type: 'tool_result'
  tool_use_id: string
  content?: string | Array<AnthropicTextParam | AnthropicImageParam>
  is_error?: boolean
  cache_control?: CacheControl | null
}

/** Signed reasoning. */
export interface AnthropicThinkingParam {
  type: 'thinking'
  thinking: string
  signature: string
}

/** Encrypted reasoning. */
export interface AnthropicRedactedThinkingParam {
  type: 'redacted_thinking'
  data: string
}

/** Any block the adapters write. */
export type AnthropicBlockParam =
  | AnthropicTextParam
  | AnthropicImageParam
  | AnthropicDocumentParam
  | AnthropicToolUseParam
  | AnthropicToolResultParam
  | AnthropicThinkingParam
  | AnthropicRedactedThinkingParam

/** One turn, assignable to the SDK's `MessageParam`. */
export interface AnthropicMessageParam {
  role: 'user' | 'assistant'
  content: string | Array<AnthropicBlockParam>
}

/** The conversation part of a Messages request: spread it into `messages.create`. */
export interface AnthropicMessages {
  system?: string | Array<AnthropicTextParam>
  messages: Array<AnthropicMessageParam>
}
