/**
 * Content-aware compression, the model: a content compressor is a pure function value that
 * reduces one text toward a token target *knowing what the text is* (JSON, a log, source
 * code, Markdown), and says what it removed as data. It either fits (its result counts at
 * most the target under the counter it was given) or declines, and the caller falls back
 * to the one text cutter (`../cutText.ts`).
 *
 * @module
 */
import type { Tokenizer } from '../../tokenize/tokenizer.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What a text holds, as far as compression is concerned. `text` means nothing known. */
export type ContentKind = 'json' | 'log' | 'code' | 'markdown' | 'text'

/** Languages the code compressor understands. */
export type CodeLanguage = 'typescript' | 'javascript' | 'python'

/**
 * One thing a compressor took out, with how much of it. Paths are JSONPath-like
 * (`$.results[0].content`); line numbers are 1-based lines of the input.
 */
export type Removal =
  /** Array elements between the kept head and tail, replaced by `"... N more items"`. */
  | { readonly _tag: 'ArrayItems'; readonly path: string; readonly items: number }
  /** Object members after the first ones kept, replaced by a `"...": "N more keys"` member. */
  | { readonly _tag: 'ObjectKeys'; readonly path: string; readonly keys: number }
  /** The end of a long string value, replaced by `... [N more chars]`. */
  | { readonly _tag: 'StringChars'; readonly path: string; readonly chars: number }
  /** A whole nested value below the kept depth, replaced by a one-string summary. */
  | { readonly _tag: 'Subtree'; readonly path: string; readonly values: number }
  /** Consecutive lines of the same shape (numbers, ids, times aside) folded into the first. */
  | { readonly _tag: 'RepeatedLines'; readonly line: number; readonly lines: number }
  /** A run of lines left out (a log's middle, a Markdown section's rest). */
  | { readonly _tag: 'Lines'; readonly line: number; readonly lines: number }
  /** A function or method body elided in a code skeleton. */
  | { readonly _tag: 'Body'; readonly name: string; readonly line: number; readonly lines: number }
  /** The fallback: the text cut by position, keeping `keptTokens` of it (its head; the per-item cap keeps head and tail). */
  | { readonly _tag: 'Cut'; readonly keptTokens: number; readonly originalTokens: number }

/** A compressor's answer: the text fits the target, or the compressor gives up and says why. */
export type ContentResult =
  | {
      readonly _tag: 'Fitted'
      readonly text: string
      /** The exact count of `text` under the counter given. */
      readonly tokens: number
      readonly removed: ReadonlyArray<Removal>
    }
  | { readonly _tag: 'Declined'; readonly reason: string }

/**
 * Reduces `text` toward `targetTokens` tokens, counted with `counter`. A `Fitted` result
 * must count at most `targetTokens`; anything else is `Declined`. Pure: same input, same
 * output.
 */
export type ContentCompressor = (text: string, targetTokens: number, counter: Tokenizer) => ContentResult

/**
 * What a caller knows about a text, usually from packet metadata: a MIME-like
 * `contentType` (`application/json`, `text/markdown`, `text/x-log`, `text/x-python`…), a
 * file `path` whose extension tells the language, or the `language` itself.
 */
export interface ContentHint {
  readonly contentType?: string
  readonly path?: string
  readonly language?: string
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * @category constructors
 * @since 0.2.0
 */
export const declined = (reason: string): ContentResult => ({ _tag: 'Declined', reason })

/**
 * @category constructors
 * @since 0.2.0
 */
export const fitted = (text: string, tokens: number, removed: ReadonlyArray<Removal>): ContentResult => ({
  _tag: 'Fitted',
  text,
  tokens,
  removed,
})
