/**
 * Vercel AI SDK prompt messages as the adapters write them: the `ModelMessage` family of the
 * `ai` package (v5 and later), mirrored without importing it, with plain mutable arrays.
 *
 * @module
 */

/** A JSON value (the SDK's `JSONValue`). */
export type AIJSONValue = null | string | number | boolean | { [key: string]: AIJSONValue | undefined } | Array<AIJSONValue>

/** Bytes or text as the SDK takes them: base64, bytes, or a URL. */
export type AIData = string | Uint8Array | ArrayBuffer | URL

/** `{ type: 'text', text }` */
export interface AITextPart {
  type: 'text'
  text: string
}

/** An image. */
export interface AIImagePart {
  type: 'image'
  image: AIData
  mediaType?: string
}

/** A file (a PDF, a text file, an image given as a file). */
export interface AIFilePart {
  type: 'file'
  data: AIData
  mediaType: string
  filename?: string
}

/** Model reasoning. */
export interface AIReasoningPart {
  type: 'reasoning'
  text: string
}

/** A tool call; `input` is the arguments object. */
export interface AIToolCallPart {
  type: 'tool-call'
  toolCallId: string
  toolName: string
  input: unknown
}

/** What a tool returned. */
export type AIToolResultOutput =
  | { type: 'text' | 'error-text'; value: string }
  | { type: 'json' | 'error-json'; value: AIJSONValue }
  | { type: 'execution-denied'; reason?: string }
  | {
      type: 'content'
      value: Array<{ type: 'text'; text: string } | { type: 'image-data' | 'media'; data: string; mediaType: string } | { type: 'image-url'; url: string }>
    }

/** A tool's result. */
export interface AIToolResultPart {
  type: 'tool-result'
  toolCallId: string
  toolName: string
  output: AIToolResultOutput
}

/** `role: 'system'` */
export interface AISystemMessage {
  role: 'system'
  content: string
}

/** `role: 'user'` */
export interface AIUserMessage {
  role: 'user'
  content: string | Array<AITextPart | AIImagePart | AIFilePart>
}

/** `role: 'assistant'` */
export interface AIAssistantMessage {
  role: 'assistant'
  content: string | Array<AITextPart | AIFilePart | AIReasoningPart | AIToolCallPart | AIToolResultPart>
}

/** `role: 'tool'` */
export interface AIToolMessage {
  role: 'tool'
  content: Array<AIToolResultPart>
}

/** One prompt message, assignable to the SDK's `ModelMessage`. */
export type AIModelMessage = AISystemMessage | AIUserMessage | AIAssistantMessage | AIToolMessage
