/**
 * OpenAI Responses input items as the adapters write them: the SDK's `ResponseInputItem`
 * members gssc carries, mirrored without importing the SDK, with plain mutable arrays.
 *
 * @module
 */

/** `{ type: 'input_text', text }` */
export interface ResponsesInputText {
  type: 'input_text'
  text: string
}

/** An image by URL or `data:` URL. */
export interface ResponsesInputImage {
  type: 'input_image'
  detail: 'low' | 'high' | 'auto' | 'original'
  image_url?: string | null
}

/** A file: inline as a `data:` URL, by URL, or an uploaded file's id. */
export interface ResponsesInputFile {
  type: 'input_file'
  file_data?: string
  file_id?: string | null
  file_url?: string
  filename?: string
}

/**
 * Text the model wrote. Its annotations (citations) go back as they were read, kept in
 * `native`; gssc itself only ever writes an empty list, which is all the type admits.
 */
export interface ResponsesOutputText {
  type: 'output_text'
  text: string
  annotations: Array<never>
}

/** A refusal the model wrote. */
export interface ResponsesRefusal {
  type: 'refusal'
  refusal: string
}

/** A message item as given in a request (EasyInputMessage). */
export interface ResponsesInputMessage {
  role: 'user' | 'assistant' | 'system' | 'developer'
  content: string | Array<ResponsesInputText | ResponsesInputImage | ResponsesInputFile>
  type?: 'message'
}

/** A message the model wrote, as the API returned it. */
export interface ResponsesOutputMessage {
  id: string
  role: 'assistant'
  content: Array<ResponsesOutputText | ResponsesRefusal>
  status: 'in_progress' | 'completed' | 'incomplete'
  type: 'message'
}

/** A function call. */
export interface ResponsesFunctionCall {
  type: 'function_call'
  call_id: string
  name: string
  arguments: string
}

/** A function call's output. */
export interface ResponsesFunctionCallOutput {
  type: 'function_call_output'
  call_id: string
  output: string | Array<ResponsesInputText | ResponsesInputImage>
}

/** A reasoning item (its `id` is the one OpenAI gave it). */
export interface ResponsesReasoning {
  type: 'reasoning'
  id: string
  summary: Array<{ type: 'summary_text'; text: string }>
  content?: Array<{ type: 'reasoning_text'; text: string }>
  encrypted_content?: string | null
}

/** One input item, assignable to the SDK's `ResponseInputItem`. */
export type ResponsesItem = ResponsesInputMessage | ResponsesOutputMessage | ResponsesFunctionCall | ResponsesFunctionCallOutput | ResponsesReasoning
