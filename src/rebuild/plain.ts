/**
 * The turns a rebuild can take as they are: plain `{ role, content: string }` turns, in no
 * SDK's shape, none longer than the per-item cap; and whether a turn is unchanged since the
 * previous build read it.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { detect } from '../adapters/detect.js'
import { toChatMessage } from '../gather/builtins.js'
import { capMessage } from '../gather/itemCap.js'
import { isRecord } from '../messageProblem.js'
import { turnProblem } from '../request.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'

/** A turn the rebuild can take as it is: `{ role, content: string }`, with a timestamp or name at most. */
export const isPlainTurn = (t: unknown): t is { readonly role: string; readonly content: string } =>
  isRecord(t) && typeof t['content'] === 'string' && !('parts' in t) && turnProblem(t) === undefined

/** The same turn: the same object, or the same plain fields. */
export const sameTurn = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (!isRecord(a) || !isRecord(b)) return false
  const ka = Object.keys(a)
  return ka.length === Object.keys(b).length && ka.every((k) => (k === 'role' || k === 'content' || k === 'timestamp' || k === 'name') && a[k] === b[k])
}

/** Why texts read by the build are not plain turns, or undefined. */
export const notPlain = (turns: ReadonlyArray<unknown>, cap: number | undefined, tokenizer: Tokenizer): string | undefined => {
  if (!turns.every(isPlainTurn)) return 'the history holds turns other than { role, content: string }'
  const shape = detect(turns)
  if (E.isLeft(shape) || shape.right !== 'plain') return "the history is in an SDK's shape"
  // a text within a third of the cap in UTF-16 units is within it in UTF-8 bytes (capMessage's own first test)
  if (cap !== undefined && turns.some((t) => (t as { readonly content: string }).content.length * 3 > cap && capMessage(toChatMessage(t as never), cap, tokenizer) !== undefined))
    return 'a turn is longer than the per-item cap'
  return undefined
}
