/**
 * Renderers: the last step, from the structured document to what the user sends. Each
 * renderer also counts its own output, so the reported token count is the count of exactly
 * what is returned.
 *
 * @module
 */
import { renderText, type Document } from './structure/document.js'
import type { Tokenizer } from './tokenize/tokenizer.js'

/** Turns a document into output of type `O` and counts that output's tokens. */
export interface Renderer<O> {
  readonly format: string
  readonly render: (doc: Document) => O
  readonly count: (output: O, tokenizer: Tokenizer) => number
}

/**
 * One prompt string; its count is the tokenizer's count of that string.
 *
 * @category constructors
 * @since 0.1.0
 */
export const textRenderer: Renderer<string> = {
  format: 'text',
  render: renderText,
  count: (output, tokenizer) => tokenizer.count(output),
}
