/**
 * Content-aware compression of one item: the function the fitting engine (or a user) calls
 * to make one text fit a token target. It sniffs what the text is, runs that kind's
 * compressor, and falls back to the one text cutter (`../cutText.ts`) when the compressor
 * declines or the text is of no kind it knows. The answer always fits: its `tokens` is the
 * exact count under the counter given, and never above the target.
 *
 * @module
 */
import type { Meter } from '../../tokenize/meter.js'
import type { Tokenizer } from '../../tokenize/tokenizer.js'
import { cutText } from '../cutText.js'
import { compressCode } from './code.js'
import { compressJson } from './json.js'
import { compressLog } from './log.js'
import { compressMarkdown } from './markdown.js'
import type { ContentCompressor, ContentHint, ContentKind, Removal } from './model.js'
import { sniff, type Sniffed } from './sniff.js'
import type { TypeScriptModule } from './typescript.js'

export * from './model.js'
export { sniff, hintOf, type Sniffed } from './sniff.js'
export { compressJson, moreItems, jsonTree } from './json.js'
export { compressLog, lineShape, ERROR_LINE, WARNING_LINE } from './log.js'
export { compressCode } from './code.js'
export { loadTypeScript, requireTypeScript, type TypeScriptModule } from './typescript.js'
export { compressMarkdown } from './markdown.js'
export { fitLadder, type Rendering } from './ladder.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What {@link compressContent} did to a text. */
export type ContentCompression =
  /** The text already fitted. */
  | { readonly _tag: 'Unchanged'; readonly text: string; readonly tokens: number }
  /** A content compressor made it fit. */
  | {
      readonly _tag: 'Compressed'
      readonly text: string
      readonly tokens: number
      readonly originalTokens: number
      readonly kind: ContentKind
      readonly removed: ReadonlyArray<Removal>
    }
  /** Cut by position with the text cutter; `reason` says why no content compressor was used. */
  | {
      readonly _tag: 'Cut'
      readonly text: string
      readonly tokens: number
      readonly originalTokens: number
      readonly kind: ContentKind
      readonly reason: string
      readonly removed: ReadonlyArray<Removal>
    }

/** Which compressor handles each kind, given what sniffing found and the options; replace any of them with your own. */
export type ContentCompressors = Readonly<Record<Exclude<ContentKind, 'text'>, (sniffed: Sniffed, options: CompressContentOptions) => ContentCompressor>>

/** Options of {@link compressContent}. */
export interface CompressContentOptions {
  /** The text's count, when the caller knows it, so it is not counted again. */
  readonly totalTokens?: number
  /** What {@link sniff} found, when the caller sniffed the text already (with the same hint), so it is not read again. */
  readonly sniffed?: Sniffed
  /** Override the compressor of any kind. */
  readonly compressors?: Partial<ContentCompressors>
  /**
   * The `typescript` module, for skeletons of TypeScript and JavaScript. Default: on Node, the
   * installed one, loaded the first time code is compressed; in a browser, pass
   * `await loadTypeScript()`. `false`: never load it (code is cut as text).
   */
  readonly typescript?: TypeScriptModule | false | undefined
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The built-in compressor of each kind.
 *
 * @category constructors
 * @since 0.1.0
 */
export const defaultCompressors: ContentCompressors = {
  json: () => compressJson,
  log: () => compressLog,
  markdown: () => compressMarkdown,
  code: (s, o) => compressCode(s.language ?? 'typescript', { jsx: s.jsx ?? false, typescript: o.typescript }),
}

/**
 * A build meter as a counter: its cached count, its tokenizer's lower bound and cuts.
 *
 * @category constructors
 * @since 0.1.0
 */
export const meterCounter = (m: Pick<Meter, 'text' | 'tokenizer'>): Tokenizer => ({ ...m.tokenizer, count: m.text })

/**
 * Makes `text` fit `targetTokens` tokens, knowing what it is (see the module comment).
 * `hint` is what the caller knows of the text (`hintOf(packet.metadata)` reads it from a
 * packet).
 *
 * @example
 * const r = compressContent(toolResult, 500, tokenizer, { contentType: 'application/json' })
 * r._tag // 'Compressed': valid JSON, with "... N more items" markers
 * @category compressors
 * @since 0.1.0
 */
export const compressContent = (
  text: string,
  targetTokens: number,
  counter: Tokenizer,
  hint: ContentHint = {},
  options: CompressContentOptions = {},
): ContentCompression => {
  const target = Math.max(0, Math.floor(targetTokens))
  const originalTokens = options.totalTokens ?? counter.count(text)
  if (originalTokens <= target) return { _tag: 'Unchanged', text, tokens: originalTokens }
  const sniffed = options.sniffed ?? sniff(text, hint)
  const cut = (reason: string): ContentCompression => ({ ...cutToFit(text, target, counter, originalTokens), kind: sniffed.kind, reason })
  if (sniffed.kind === 'text') return cut('no content kind recognised')
  const compressors = { ...defaultCompressors, ...options.compressors }
  const r = compressors[sniffed.kind](sniffed, options)(text, target, counter)
  if (r._tag === 'Declined') return cut(`${sniffed.kind} compressor declined: ${r.reason}`)
  // budget truth: a compressor's claim is checked, never taken on trust
  const tokens = counter.count(r.text)
  if (tokens > target) return cut(`${sniffed.kind} compressor overshot: ${tokens} > ${target} tokens`)
  return { _tag: 'Compressed', text: r.text, tokens, originalTokens, kind: sniffed.kind, removed: r.removed }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * The text cutter, made exact: BPE is not additive at a cut, so a head cut to `target` can
 * count a token or two more; cut again by the excess until it fits (a few rounds at most).
 */
const cutToFit = (
  text: string,
  target: number,
  counter: Tokenizer,
  originalTokens: number,
): { readonly _tag: 'Cut'; readonly text: string; readonly tokens: number; readonly originalTokens: number; readonly removed: ReadonlyArray<Removal> } => {
  let keep = target
  for (let round = 0; round < 8 && keep > 0; round++) {
    const kept = cutText(text, keep, 'head', counter, originalTokens)
    const tokens = counter.count(kept)
    if (tokens <= target)
      return { _tag: 'Cut', text: kept, tokens, originalTokens, removed: [{ _tag: 'Cut', keptTokens: tokens, originalTokens }] }
    keep -= Math.max(1, tokens - target)
  }
  return { _tag: 'Cut', text: '', tokens: 0, originalTokens, removed: [{ _tag: 'Cut', keptTokens: 0, originalTokens }] }
}
