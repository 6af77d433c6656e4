/**
 * Fitting one prompt item into a token limit: whole when it fits, else its head plus as much
 * of its body as fits, cut at a line or sentence end, followed by a visible marker:
 *
 *     … [truncated: memory/MEMORY.md, kept 1,987 of ~524,000 tokens]
 *
 * Only what can be kept is tokenized. A text up to eight characters per token of the limit is
 * counted whole; a longer one is tokenized through a window a few times the limit, never
 * whole, so a 2 MB file costs about as much as the part of it that is kept. The total is
 * then an estimate (`~`) from the kept share of the bytes.
 *
 * The kept text always ends with a line break, so the marker starts a new pre-token and the
 * item's count is the sum of the two counts for the tiktoken encodings.
 *
 * @module
 */
import type { Tokenizer } from '../tokenize/tokenizer.js'
import type { Item } from './sections.js'
import { prefixEndWindowed, windowFor } from '../tokenize/prefix.js'

/** An item as it goes into the prompt. */
export interface Fitted {
  readonly text: string
  /** Tokens of `text`, counted on its own. */
  readonly tokens: number
  readonly truncated: boolean
  /** The whole item's tokens, when they were counted. */
  readonly wholeTokens?: number
}

/**
 * `item` within `limit` tokens, or `undefined` when not even its head and `minCut` body
 * tokens fit (or it is all-or-nothing and does not fit). Pass `wholeTokens` when the
 * item's count is already known, so it is not counted again.
 *
 * @example
 * fitItem(memoryItem, 2000, tokenizer, 32)
 * // { text: '## Long-term Memory\n…\n… [truncated: memory/MEMORY.md, kept 1,991 of ~524,000 tokens]', tokens: 2000, truncated: true }
 * @category utils
 */
export const fitItem = (item: Item, limit: number, tokenizer: Tokenizer, minCut: number, wholeTokens?: number): Fitted | undefined => {
  const full = item.head + item.body
  // a text this short is cheap to count whole; a longer one is only counted as far as it is kept
  const whole = wholeTokens ?? (full.length <= windowFor(limit) ? tokenizer.count(full) : undefined)
  if (whole !== undefined && whole <= limit) return { text: full, tokens: whole, truncated: false, wholeTokens: whole }
  if (!item.cuttable) return undefined
  const headTokens = tokenizer.count(item.head)
  const label = item.file ?? item.name
  // room for the marker at its longest, and for the line break a mid-line cut adds
  let keep = limit - tokenizer.count(marker(label, limit, whole ?? limit * 1000, whole === undefined)) - 1
  for (let attempt = 0; attempt < 3 && keep - headTokens >= minCut; attempt++) {
    const end = prefixEndWindowed(full, keep, tokenizer)
    if (end >= full.length) {
      // a long text of few tokens (long runs of one character): it fits after all
      const tokens = tokenizer.count(full)
      if (tokens <= limit) return { text: full, tokens, truncated: false, wholeTokens: tokens }
    }
    const cut = snapBack(full, Math.min(end, full.length - 1), item.head.length)
    if (cut <= item.head.length) return undefined
    const kept = lineEnded(full.slice(0, cut))
    const keptTokens = tokenizer.count(kept)
    const total = whole ?? estimateTotal(keptTokens, kept, item.bytes || Buffer.byteLength(full, 'utf8'))
    const note = marker(label, keptTokens, total, whole === undefined)
    const tokens = keptTokens + tokenizer.count(note)
    if (tokens <= limit) return { text: kept + note, tokens, truncated: true, ...(whole === undefined ? {} : { wholeTokens: whole }) }
    keep -= tokens - limit
  }
  return undefined
}

/**
 * The truncation marker.
 *
 * @example
 * marker('memory/MEMORY.md', 1987, 524_288, true) // '… [truncated: memory/MEMORY.md, kept 1,987 of ~524,000 tokens]'
 * @category utils
 */
export const marker = (label: string, kept: number, total: number, estimated: boolean): string =>
  `… [truncated: ${label}, kept ${fmt(kept)} of ${estimated ? `~${fmt(Number(total.toPrecision(3)))}` : fmt(total)} tokens]`

const fmt = (n: number): string => n.toLocaleString('en-US')

const estimateTotal = (keptTokens: number, kept: string, totalBytes: number): number =>
  Math.max(keptTokens + 1, Math.round((keptTokens * totalBytes) / Math.max(1, Buffer.byteLength(kept, 'utf8'))))

const SENTENCE_END = /[.!?]/
const CJK_SENTENCE_END = /[。！？]/
/** How far back (share of the body kept) a cut may move to land on a boundary. */
const SNAP_SHARE = 0.3

/**
 * Moves a cut back to just after a line break, else a sentence end, else a space, if one
 * lies in the last 30% of the kept body; never before `floor` (the item's head).
 */
const snapBack = (text: string, end: number, floor: number): number => {
  if (end >= text.length) return end
  const min = Math.max(floor, Math.floor(end - (end - floor) * SNAP_SHARE))
  const line = text.lastIndexOf('\n', end - 1)
  if (line >= min) return line + 1
  for (let i = end - 1; i >= min; i--) {
    const c = text[i]!
    if (CJK_SENTENCE_END.test(c) || (SENTENCE_END.test(c) && /\s/.test(text[i + 1] ?? ' '))) return i + 1
  }
  for (let i = end - 1; i >= min; i--) if (/\s/.test(text[i]!)) return i + 1
  return end
}

/** Ends `text` with a line break (dropping trailing spaces), so the marker gets its own line. */
const lineEnded = (text: string): string => (text.endsWith('\n') ? text : `${text.replace(/[ \t]+$/, '')}\n`)
