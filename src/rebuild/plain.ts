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
import { splitsAtWordEnds } from '../compress/outputCount.js'
import { itemCapOf } from '../gather/itemCap.js'
import type { RebuildMemo } from './memo.js'

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

/**
 * The first of the turns `h[from, to)` that is not the same as `turns[at, …)`, or -1. Its own
 * function, a loop and nothing else: it runs over the whole window in every rebuild, and
 * so V8 optimizes it long before the rebuild around it.
 */
export const changedTurn = (h: ReadonlyArray<unknown>, from: number, to: number, turns: ReadonlyArray<unknown>, at: number): number => {
  for (let i = from, k = at; i < to; i++, k++) if (h[i] !== turns[k] && !sameTurn(h[i], turns[k])) return i
  return -1
}

/**
 * A turn with no field but its role and content (a timestamp and a name at most), a plain
 * object: `detect` finds no SDK's mark on it, each mark being another field (or a role no
 * plain turn has), so a history of such turns is plain without asking it.
 */
const bare = (t: object): boolean => {
  if (Object.getPrototypeOf(t) !== Object.prototype) return false
  for (const k in t) if (k !== 'role' && k !== 'content' && k !== 'timestamp' && k !== 'name') return false
  return true
}

/**
 * Why the turns `turns[from, …)` read by the build are not plain turns, or undefined. Loops,
 * not `every` with a callback (see `./append.ts` on how the rebuild's code is written).
 */
export const notPlain = (turns: ReadonlyArray<unknown>, from: number, cap: number | undefined, tokenizer: Tokenizer): string | undefined => {
  let allBare = true
  for (let i = from; i < turns.length; i++) {
    if (!isPlainTurn(turns[i])) return 'the history holds turns other than { role, content: string }'
    if (allBare && !bare(turns[i] as object)) allBare = false
  }
  if (!allBare) {
    const shape = detect(turns.slice(from))
    if (E.isLeft(shape) || shape.right !== 'plain') return "the history is in an SDK's shape"
  }
  // a text within a third of the cap in UTF-16 units is within it in UTF-8 bytes (capMessage's own first test)
  if (cap !== undefined)
    for (let i = from; i < turns.length; i++) {
      const t = turns[i] as { readonly content: string }
      if (t.content.length * 3 > cap && capMessage(toChatMessage(t as never), cap, tokenizer) !== undefined) return 'a turn is longer than the per-item cap'
    }
  return undefined
}

/**
 * Why history `h` is not the memo's with plain turns appended, or undefined.
 *
 * @category utils
 */
export const notAppended = (memo: RebuildMemo, h: ReadonlyArray<unknown>, tokenizer: Tokenizer): string | undefined => {
  if (h.length < memo.length) return 'the history is shorter than before'
  const inLead = changedTurn(h, 0, memo.lead, memo.turns, 0)
  const changed = inLead >= 0 ? inLead : changedTurn(h, memo.from, memo.length, memo.turns, memo.lead)
  if (changed >= 0) return `history[${changed}] changed`
  // (a memo made without the field, by an earlier version, has its cap derived again)
  const bad = notPlain(h, memo.length, Object.hasOwn(memo, 'cap') ? memo.cap : itemCapOf(memo.key.config), tokenizer)
  if (bad !== undefined) return bad
  if (memo.length === memo.lead) for (let i = memo.length; i < h.length; i++) if ((h[i] as { readonly role: string }).role === 'system') return 'the new turns extend the system prompt'
  if (!splitsAtWordEnds(tokenizer)) return `counts under ${tokenizer.name} do not add up at word ends`
  return undefined
}
