/**
 * OpenAI Chat Completions messages as the adapters write them: the SDK's
 * `ChatCompletionMessageParam` family, mirrored without importing the SDK. Arrays are plain
 * mutable `Array`s all the way down, because the SDK's parameter types are, and a readonly array
 * is not assignable to them (issue 11: TS2769 without a spread).
 *
 * @module
 */

/** `{ type: 'text', text }` */
export interface ChatTextPart {
  type: 'text'
  text: string
}

/** An assistant's refusal, as a content part. */
export interface ChatRefusalPart {
  type: 'refusal'
  refusal: string
}

/** An image by URL or base64 `data:` URL. */
export interface ChatImagePart {
  type: 'image_url'
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' }
}

/** A file (a PDF): inline as a `data:` URL, or an uploaded file's id. */
export interface ChatFilePart {
  type: 'file'
  file: { file_data?: string; file_id?: string; filename?: string }
}

/** A function call; `arguments` is JSON text. */
export interface ChatToolCall {
  id: string
  type: 'function'
  function: { name: string; arguments: string }
}

/** `role: 'system'` or `'developer'` */
export interface ChatSystemMessage {
  role: 'system' | 'developer'
  content: string | Array<ChatTextPart>
  name?: string
}

/** `role: 'user'` */
export interface ChatUserMessage {
  role: 'user'
  content: string | Array<ChatTextPart | ChatImagePart | ChatFilePart>
  name?: string
}

/** `role: 'assistant'` */
export interface ChatAssistantMessage {
  role: 'assistant'
  content?: string | Array<ChatTextPart | ChatRefusalPart> | null
  refusal?: string | null
  tool_calls?: Array<ChatToolCall>
  name?: string
}

/** `role: 'tool'`: one call's result. */
export interface ChatToolMessage {
  role: 'tool'
  tool_call_id: string
  content: string | Array<ChatTextPart>
}

/** One Chat Completions message, assignable to the SDK's `ChatCompletionMessageParam`. */
export type OpenAIChatMessage = ChatSystemMessage | ChatUserMessage | ChatAssistantMessage | ChatToolMessage
