/**
 * The per-item cap: one oversized history item (a 120k-token tool result) is cut before
 * anything is allocated or counted in full, so it can never wipe out the rest of the
 * history. A text is looked at only when its UTF-8 size could exceed the cap (a token is at
 * least one byte); then only a window at its start is tokenized to prove it is over.
 *
 * What is cut is cut knowing what it is: the text is sniffed (with the packet's metadata as a
 * hint: `contentType`, `language`, `path`) and every kind the content compressors know goes
 * through its compressor (`../compress/content`): JSON stays valid (`"... 19 more items"`),
 * a log keeps its error, warning and last lines and folds repeats with counts, code keeps its
 * skeleton, Markdown its headings. A text of no known kind, or one its compressor declines,
 * keeps its head and tail around a visible marker saying what was kept of how much (only
 * windows at its ends are tokenized). Either way the cut says what it removed, as data
 * ({@link ContentCut}), which the report carries with the truncation.
 *
 * @module
 */
import { match, P } from 'ts-pattern'
import { compressContent, type ContentHint } from '../compress/content/index.js'
import { hintOf, sniff } from '../compress/content/sniff.js'
import { cutMiddle } from '../compress/cutText.js'
import { availableTokens, type Config } from '../config.js'
import { messageText, type ChatMessage, type Part, type TextPart } from '../message.js'
import type { PacketInput } from '../packet.js'
import type { ContentCut } from '../phase.js'
import { prefixEndWindowed } from '../tokenize/prefix.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { mayExceedBytes, utf8Length } from '../tokenize/utf8.js'

/** What a cap did to one message. */
export interface Capped {
  readonly message: ChatMessage
  /** Tokens of the texts that were cut, as kept and before (estimated: never counted in full). */
  readonly keptTokens: number
  readonly originalTokens: number
  /** What was taken out of each cut text, in the order of the message's parts. */
  readonly content: ReadonlyArray<ContentCut>
}

/** The smallest cap worth applying: below it the marker alone would not fit. */
export const MIN_ITEM_CAP = 64

/**
 * Whether a part holds a text whose UTF-8 size could exceed `cap` (a UTF-16 code unit is at
 * most 3 bytes), so {@link capText} has to look at it.
 */
const mayReach = (p: Part, cap: number): boolean =>
  p._tag === 'Text' ? mayExceedBytes(p.text, cap) : p._tag === 'ToolResult' && p.content.some((c) => c._tag === 'Text' && mayExceedBytes(c.text, cap))

/**
 * Where the first `cap` tokens of `text` end when it holds more than `cap` tokens (the cap
 * cuts it, unless its compressor and the middle cut both decline), or `undefined` when it
 * fits whole. Only a window at its start is tokenized, and only when its UTF-8 size could
 * exceed the cap. The request check asks it too (`HistoryReach.cut`): a turn the cap cuts
 * must not end the check before the history gatherer's walk.
 *
 * @category utils
 */
export const capEnd = (text: string, cap: number, tokenizer: Tokenizer): number | undefined => {
  if (!mayExceedBytes(text, cap) || utf8Length(text) <= cap) return undefined
  const headEnd = prefixEndWindowed(text, cap, tokenizer)
  return headEnd >= text.length ? undefined : headEnd
}

/** One text within `cap` tokens, or `undefined` when it fits whole. */
const capText = (
  text: string,
  cap: number,
  tokenizer: Tokenizer,
  hint: ContentHint,
): { readonly text: string; readonly tokens: number; readonly originalTokens: number; readonly content: ContentCut } | undefined => {
  const headEnd = capEnd(text, cap, tokenizer)
  if (headEnd === undefined) return undefined
  const sniffed = sniff(text, hint)
  if (sniffed.kind !== 'text') {
    // the whole, estimated from the density of its first `cap` tokens (never counted in full)
    const totalTokens = Math.max(cap + 1, Math.round((cap * text.length) / Math.max(1, headEnd)))
    const r = compressContent(text, cap, tokenizer, hint, { totalTokens, sniffed })
    if (r._tag === 'Compressed') return { text: r.text, tokens: r.tokens, originalTokens: r.originalTokens, content: { kind: r.kind, removed: r.removed } }
  }
  const cut = cutMiddle(text, cap, tokenizer)
  return cut === undefined
    ? undefined
    : { text: cut.text, tokens: cut.tokens, originalTokens: cut.originalTokens, content: { kind: sniffed.kind, removed: [{ _tag: 'Cut', keptTokens: cut.tokens, originalTokens: cut.originalTokens }] } }
}

/**
 * A message with every text over `cap` tokens cut to it (a text part, or the text of a tool
 * result), or `undefined` when nothing needed cutting. `hint` is what the caller knows of the
 * content (see `hintOf`); without it the text is sniffed.
 *
 * @example
 * capMessage(message('tool', [toolResult('c1', 'read', hugeLog)]), 2000, tokenizer)?.keptTokens // ≤ 2000
 * @category utils
 * @since 0.2.0
 */
export const capMessage = (m: ChatMessage, cap: number, tokenizer: Tokenizer, hint: ContentHint = {}): Capped | undefined => {
  // every turn of every build comes here: most have no text that could reach the cap
  if (!m.parts.some((p) => mayReach(p, cap))) return undefined
  let kept = 0
  let original = 0
  const content: ContentCut[] = []
  const capPart = <P extends TextPart>(p: P): P => {
    const r = capText(p.text, cap, tokenizer, hint)
    if (r === undefined) return p
    kept += r.tokens
    original += r.originalTokens
    content.push(r.content)
    return { ...p, text: r.text }
  }
  const parts = m.parts.map(
    (p): Part =>
      match(p)
        .with({ _tag: 'Text' }, (t): Part => capPart(t))
        .with({ _tag: 'ToolResult' }, (r): Part => ({ ...r, content: r.content.map((c) => (c._tag === 'Text' ? capPart(c) : c)) }))
        .with({ _tag: P.union('Image', 'Document', 'Thinking', 'ToolCall') }, (x): Part => x)
        .exhaustive(),
  )
  return original === 0 ? undefined : { message: { ...m, parts }, keptTokens: kept, originalTokens: original, content }
}

/**
 * The cap a build's config sets on one history item, in tokens (`maxItemShare` of the
 * available budget, at least {@link MIN_ITEM_CAP}), or `undefined` when the share is 1 (off).
 *
 * @category utils
 * @since 0.2.0
 */
export const itemCapOf = (config: Pick<Config, 'maxTokens' | 'reserveRatio' | 'maxItemShare'>): number | undefined =>
  config.maxItemShare >= 1 ? undefined : Math.max(MIN_ITEM_CAP, Math.floor(availableTokens(config) * config.maxItemShare))

/**
 * A history packet with its message capped (see {@link capMessage}; its metadata is the
 * content hint): its content follows, its count is taken again, and `metadata.capped`
 * records the cut (what was kept, and what each compressor removed) for the report. A packet
 * whose known count is within the cap is returned as it is, uncounted.
 *
 * @category utils
 * @since 0.2.0
 */
export const capPacket = (p: PacketInput, cap: number | undefined, tokenizer: Tokenizer): PacketInput => {
  if (cap === undefined || p.message === undefined || (p.tokens !== undefined && p.tokens <= cap)) return p
  const capped = capMessage(p.message, cap, tokenizer, hintOf(p.metadata ?? {}))
  if (capped === undefined) return p
  const { tokens: _counted, ...rest } = p
  return {
    ...rest,
    message: capped.message,
    content: messageText(capped.message),
    metadata: { ...p.metadata, capped: { keptTokens: capped.keptTokens, originalTokens: capped.originalTokens, content: capped.content } },
  }
}
