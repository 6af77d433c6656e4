/**
 * The summary turn that stands in for turns a strategy leaves out: calling the summarizer
 * (failures become values) and making sure the turn fits its token allowance.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { describeThrown } from '../../error.js'
import { message, type ChatMessage } from '../../message.js'
import type { Tokenizer } from '../../tokenize/tokenizer.js'
import type { HistoryItem } from '../items.js'
import type { Summarizer } from './model.js'

/** The words around a summary of the turns before the kept ones (`compressHistory`). */
export const EARLIER_WRAPPER = {
  prefix: 'Summary of the earlier part of this conversation:\n<summary>\n',
  suffix: '\n</summary>',
} as const

/** The words around a summary of turns left out between kept ones (`smartHistory`). */
export const OMITTED_WRAPPER = {
  prefix: 'Summary of turns left out from this point on:\n<summary>\n',
  suffix: '\n</summary>',
} as const

/** A summary's surrounding text. */
export interface Wrapper {
  readonly prefix: string
  readonly suffix: string
}

/**
 * Calls a summarizer; a rejection or a throw becomes a Left with its message.
 *
 * @category utils
 */
export const summarize = async (summarizer: Summarizer, messages: ReadonlyArray<ChatMessage>, targetTokens: number): Promise<E.Either<string, string>> => {
  try {
    const text = await summarizer(messages, targetTokens)
    return typeof text === 'string' ? E.right(text) : E.left(`summarizer returned ${typeof text}, not a string`)
  } catch (e) {
    return E.left(describeThrown(e))
  }
}

/**
 * The summary as a user turn within `allowance` tokens: the summarizer's text is cut (on a
 * token boundary, marked with `…`) when it is longer than asked. Undefined when not even the
 * wrapper fits. Counts only the summary text, a few times at most.
 *
 * @category utils
 */
export const summaryItem = (
  text: string,
  covered: ReadonlyArray<HistoryItem>,
  allowance: number,
  wrapper: Wrapper,
  tokenizer: Tokenizer,
): { readonly item: HistoryItem; readonly truncated: boolean } | undefined => {
  const first = covered[0]
  if (first === undefined) return undefined
  const last = covered[covered.length - 1]!
  const build = (body: string, tokens: number): HistoryItem => ({
    id: `summary:${first.id}`,
    kind: 'summary',
    message: message('user', wrapper.prefix + body + wrapper.suffix, last.message.timestamp === undefined ? {} : { timestamp: last.message.timestamp }),
    tokens,
  })
  const full = tokenizer.count(wrapper.prefix + text + wrapper.suffix)
  if (full <= allowance) return { item: build(text, full), truncated: false }
  let room = allowance - tokenizer.count(wrapper.prefix + '…' + wrapper.suffix)
  // concatenation can merge tokens across the seams, so re-check and shrink (rarely twice)
  for (let attempt = 0; attempt < 4 && room > 0; attempt++) {
    const body = text.slice(0, tokenizer.prefixEnd(text, room)).trimEnd() + '…'
    const tokens = tokenizer.count(wrapper.prefix + body + wrapper.suffix)
    if (tokens <= allowance) return { item: build(body, tokens), truncated: true }
    room -= tokens - allowance
  }
  return undefined
}
