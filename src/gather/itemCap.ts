/**
 * The per-item cap: one oversized history item (a 120k-token tool result) is cut before
 * anything is allocated or counted in full, so it can never wipe out the rest of the
 * history. A text is looked at only when its UTF-8 size could exceed the cap (a token is at
 * least one byte); then only windows at its ends are tokenized. JSON is cut at structural
 * boundaries and stays valid (`"... 19 more items"`); any other text keeps its head and tail
 * around a visible marker saying what was kept of how much.
 *
 * @module
 */
import { match, P } from 'ts-pattern'
import { compressContent, meterCounter } from '../compress/content/index.js'
import { sniff } from '../compress/content/sniff.js'
import { cutMiddle } from '../compress/cutText.js'
import { availableTokens, type Config } from '../config.js'
import { messageText, type ChatMessage, type Part, type TextPart } from '../message.js'
import type { PacketInput } from '../packet.js'
import { prefixEndWindowed } from '../tokenize/prefix.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'

/** What a cap did to one message. */
export interface Capped {
  readonly message: ChatMessage
  /** Tokens of the texts that were cut, as kept and before (estimated: never counted in full). */
  readonly keptTokens: number
  readonly originalTokens: number
}

/** The smallest cap worth applying: below it the marker alone would not fit. */
export const MIN_ITEM_CAP = 64

const encoder = new TextEncoder()
/** UTF-8 bytes of a string, without allocating them. */
const utf8Length = (s: string): number => {
  if (s.length < 1024) return encoder.encode(s).length
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? (i++, 4) : 3
  }
  return n
}

/**
 * Whether a part holds a text whose UTF-8 size could exceed `cap` (a UTF-16 code unit is at
 * most 3 bytes), so {@link capText} has to look at it.
 */
const mayReach = (p: Part, cap: number): boolean =>
  p._tag === 'Text' ? p.text.length * 3 > cap : p._tag === 'ToolResult' && p.content.some((c) => c._tag === 'Text' && c.text.length * 3 > cap)

/** One text within `cap` tokens, or `undefined` when it fits whole. */
const capText = (text: string, cap: number, tokenizer: Tokenizer): { readonly text: string; readonly tokens: number; readonly originalTokens: number } | undefined => {
  if (utf8Length(text) <= cap) return undefined
  if (prefixEndWindowed(text, cap, tokenizer) >= text.length) return undefined
  if (sniff(text, {}).kind === 'json') {
    // valid JSON stays valid: the content compressor cuts arrays and strings, never mid-token
    const r = compressContent(text, cap, meterCounter({ text: tokenizer.count, tokenizer }), { contentType: 'application/json' }, { totalTokens: Math.ceil(utf8Length(text) / 4) })
    if (r._tag === 'Compressed') return { text: r.text, tokens: r.tokens, originalTokens: r.originalTokens }
  }
  const cut = cutMiddle(text, cap, tokenizer)
  return cut === undefined ? undefined : { text: cut.text, tokens: cut.tokens, originalTokens: cut.originalTokens }
}

/**
 * A message with every text over `cap` tokens cut to it (a text part, or the text of a tool
 * result), or `undefined` when nothing needed cutting.
 *
 * @example
 * capMessage(message('tool', [toolResult('c1', 'read', hugeLog)]), 2000, tokenizer)?.keptTokens // ≤ 2000
 * @category utils
 * @since 0.2.0
 */
export const capMessage = (m: ChatMessage, cap: number, tokenizer: Tokenizer): Capped | undefined => {
  // every turn of every build comes here: most have no text that could reach the cap
  if (!m.parts.some((p) => mayReach(p, cap))) return undefined
  let kept = 0
  let original = 0
  const capPart = <P extends TextPart>(p: P): P => {
    const r = capText(p.text, cap, tokenizer)
    if (r === undefined) return p
    kept += r.tokens
    original += r.originalTokens
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
  return original === 0 ? undefined : { message: { ...m, parts }, keptTokens: kept, originalTokens: original }
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
 * A history packet with its message capped (see {@link capMessage}): its content follows,
 * its count is taken again, and `metadata.capped` records the cut for the report. A packet
 * whose known count is within the cap is returned as it is, uncounted.
 *
 * @category utils
 * @since 0.2.0
 */
export const capPacket = (p: PacketInput, cap: number | undefined, tokenizer: Tokenizer): PacketInput => {
  if (cap === undefined || p.message === undefined || (p.tokens !== undefined && p.tokens <= cap)) return p
  const capped = capMessage(p.message, cap, tokenizer)
  if (capped === undefined) return p
  const { tokens: _counted, ...rest } = p
  return {
    ...rest,
    message: capped.message,
    content: messageText(capped.message),
    metadata: { ...p.metadata, capped: { keptTokens: capped.keptTokens, originalTokens: capped.originalTokens } },
  }
}
