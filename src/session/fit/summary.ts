/**
 * The summary turn that stands in for turns a strategy leaves out: calling the summarizer
 * (failures become values) and making sure the turn fits its token allowance.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { describeThrown } from '../../error.js'
import { message, type ChatMessage } from '../../message.js'
import { cutFramed } from '../../compress/cutText.js'
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
 * The summary as a user turn within `allowance` tokens: the summarizer's text is cut by the
 * one text cutter (at a line or sentence end where one is close, marked with `…`) when it is
 * longer than asked. Undefined when not even the wrapper fits.
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
  const frame = (head: string): string => `${wrapper.prefix}${head}…${wrapper.suffix}`
  const cut = cutFramed(text, allowance, tokenizer.count(frame('')), frame, tokenizer, full)
  return cut === undefined ? undefined : { item: build(`${cut.head}…`, cut.tokens), truncated: true }
}
