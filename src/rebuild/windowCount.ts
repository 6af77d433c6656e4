/**
 * The exact count of a layout whose history window moved, from the previous window's count:
 * only the turns that joined or left it, and the text at its two ends, are tokenized.
 *
 * A layout of the default text build is its opening text (the sections before the history
 * turns, the context section's heading), the window's turns `[from, to)` joined by the
 * section's separator, each with its speaker label, and its closing text. Split it at the
 * first and last word end of every turn's content: counts add up at word ends
 * (`src/compress/outputCount.ts`), and a word end inside a content is one wherever the
 * content appears, so
 *
 *     count = head(from) + Σ mid(k) + Σ joint(k) + tail(to − 1)
 *
 * where `head(i)` counts the opening text with turn `i`'s label and content up to its first
 * word end, `mid(k)` turn `k`'s content between its word ends (its known count less its two
 * ends), `joint(k)` the text from turn `k`'s last word end to turn `k + 1`'s first (the
 * separator and the label between), and `tail(i)` the text from turn `i`'s last word end to
 * the end. A window that shares a turn with the previous one differs from it by a few of
 * these pieces: the previous count less its head and tail, less (or plus) the turns that left
 * (or joined) at the old end, plus the new turns, plus the new head and tail. What changed
 * at each end is one stretch of text between two word ends, counted whole: the turns that
 * left, from the old first turn's first word end to the new first turn's; the new turns,
 * from the previous last turn's last word end to the layout's end. One count each, where
 * the pieces would take three or four a turn: a rebuild's tokenizer calls are few and short,
 * and each costs more for its call than for its text.
 *
 * A turn without a word end where a boundary is needed (the two windows' first turns, the
 * previous last turn) leaves the change undefined, and the caller counts the whole text
 * (`spanCount`).
 *
 * @module
 */
import { spanCount } from '../compress/outputCount.js'
import { isLineStart, wordEnds } from '../tokenize/wordEdges.js'
import { sectionsOf, type Document, type Item, type Span } from '../structure/document.js'
import type { FrameCounts } from './frame.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import type { Edges } from '../tokenize/wordEdges.js'

/** A layout's exact count, with the pieces at its window's two ends (undefined where a turn has no word end). */
export interface WindowCount {
  /** The window's turns: `[from, to)`. */
  readonly from: number
  readonly to: number
  /** Exact tokens of the whole layout. */
  readonly tokens: number
  /** Tokens of the layout up to the first word end of turn `from`'s content. */
  readonly head: number | undefined
  /** Tokens of the layout from the last word end of turn `to − 1`'s content. */
  readonly tail: number | undefined
}

/** What the pieces are counted with, in one build. */
export interface PieceEnv {
  readonly tokenizer: Tokenizer
  /** The build's memoized count of a text. */
  readonly count: (text: string) => number
  /** The known count of an item text, if any. */
  readonly known: (content: string) => number | undefined
  /** The context section's separator. */
  readonly separator: string
  /** The word edges the build's meter found of a content already (their counts included), if any. */
  readonly found: (content: string) => Edges | undefined
  /** Turn `i`'s item as the layout shows it. */
  readonly item: (i: number) => Item | undefined
  /** The frame's counts: the previous build's, or made when first asked. */
  readonly frame: () => FrameCounts | undefined
  /** Whether a window's count carries the tail piece of a changed end: a build whose result carries its memo needs it for the next build; the count itself does not. */
  readonly tails: boolean
  /**
   * The last new end counted ({@link windowChange}): the text after turn `at`'s last word end,
   * turns up to `to` shown after it. A build's two layouts end at the newest turn, so the
   * second asks for the first's; the meter would count it once anyway, but the text would be
   * made and looked up again.
   */
  newEnd?: { readonly at: number; readonly to: number; readonly tokens: number | undefined }
}

/** Turn `i`'s item and its content's first and last word ends, or undefined (no item, or no word end). */
const ends = (env: PieceEnv, i: number): readonly [Item, number, number] | undefined => {
  const it = env.item(i)
  const e = it === undefined ? undefined : wordEnds(it.text, true)
  return e === undefined ? undefined : [it!, e[0], e[1]]
}

/** A turn's label and content up to its first word end: its head piece. */
const opening = (e: readonly [Item, number, number]): string => `${e[0].prefix}${e[0].text.slice(0, e[1])}`

/** The turns `[a, to)` as the layout shows them, each after the separator. */
const shown = (env: PieceEnv, a: number, to: number): string | undefined => {
  let text = ''
  for (let k = a; k < to; k++) {
    const it = env.item(k)
    if (it === undefined) return undefined
    text += `${env.separator}${it.prefix}${it.text}${it.suffix ?? ''}`
  }
  return text
}

/** The head piece of a window whose first turn is `i`. */
const headOf = (env: PieceEnv, i: number): number | undefined => {
  const e = ends(env, i)
  const f = env.frame()
  return e === undefined || f?.opening === undefined || !isLineStart(`\n${opening(e)}`, 1) ? undefined : f.opening + env.count(opening(e))
}

/** The tail piece of a window whose last turn is `i`. */
const tailOf = (env: PieceEnv, i: number): number | undefined => {
  const e = ends(env, i)
  const f = env.frame()
  return e === undefined || f === undefined ? undefined : env.count(`${e[0].text.slice(e[2])}${e[0].suffix ?? ''}${f.closingLead}`) + f.closingRest
}

/**
 * The text from turn a's first word end to turn b's (a < b), where turns left (or joined)
 * at the old end, counted whole: one count where the pieces would be three a turn.
 */
const stretch = (env: PieceEnv, a: number, b: number): number | undefined => {
  const ea = ends(env, a)
  const eb = ends(env, b)
  const between = shown(env, a + 1, b)
  return ea === undefined || eb === undefined || between === undefined ? undefined : env.count(`${ea[0].text.slice(ea[1])}${ea[0].suffix ?? ''}${between}${env.separator}${opening(eb)}`)
}

/**
 * The text from turn i's last word end to the layout's end, its turns up to `to` shown
 * after it, counted whole (a line start splits the closing text's own count off): one
 * count where the pieces would be four for one new turn.
 */
const newer = (env: PieceEnv, i: number, to: number): number | undefined => {
  const e = ends(env, i)
  const f = env.frame()
  if (e === undefined || f === undefined) return undefined
  const pieces = newerInPieces(env, e, i, to, f)
  if (pieces !== undefined) return pieces
  const after = shown(env, i + 1, to)
  return after === undefined ? undefined : env.count(`${e[0].text.slice(e[2])}${e[0].suffix ?? ''}${after}${f.closingLead}`) + f.closingRest
}

/**
 * {@link newer} from its pieces, where it splits into them: turn i's last word with the
 * separator; each new turn's label with its first word (a line start before it), its middle
 * (its count less its two ends) and its last word with what follows it (the separator, or
 * for the last the closing's lead); the closing's rest. All but the first are pieces the
 * build has counted already (the fill's joins, the context section's opening), so this costs
 * one short count where the whole would be long. Undefined where a new turn's word edges are
 * not known or its label does not start a line.
 */
const newerInPieces = (env: PieceEnv, e: readonly [Item, number, number], i: number, to: number, f: FrameCounts): number | undefined => {
  let total = env.count(`${e[0].text.slice(e[2])}${e[0].suffix ?? ''}${env.separator}`)
  for (let k = i + 1; k < to; k++) {
    const it = env.item(k)
    const edges = it === undefined ? undefined : env.found(it.text)
    const tokens = it === undefined ? undefined : env.known(it.text)
    if (it === undefined || edges === undefined || tokens === undefined || !isLineStart(`${env.separator}${it.prefix}${it.text}`, env.separator.length)) return undefined
    total += env.count(`${it.prefix}${it.text.slice(0, edges.first)}`) + tokens - edges.head - edges.tail
    total += env.count(`${it.text.slice(edges.last)}${it.suffix ?? ''}${k === to - 1 ? f.closingLead : env.separator}`)
  }
  return total + f.closingRest
}

/** {@link newer}, kept for the next layout that asks (`env.newEnd`). */
const newEnd = (env: PieceEnv, at: number, to: number): number | undefined => {
  const last = env.newEnd
  if (last !== undefined && last.at === at && last.to === to) return last.tokens
  const tokens = newer(env, at, to)
  env.newEnd = { at, to, tokens }
  return tokens
}

/**
 * The count of the window `[from, to)` from the count of the previous window `before`, with
 * its end pieces; undefined when it cannot be had from the pieces (see the module comment).
 * The new end, which the two layouts of a build share (the first layout's and the output's
 * windows both end at the newest turn), is made once (`env.newEnd`); any other piece is
 * counted once through `env.count`, the build's meter. A plain function of `env`, not a
 * counter closure holding maps of its pieces: see `./append.ts` on how the rebuild's code is
 * written.
 *
 * @category utils
 */
export const windowChange = (env: PieceEnv, before: WindowCount, from: number, to: number): WindowCount | undefined => {
  // the two windows must share a turn: the text between its word ends is the same in both
  if (before.head === undefined || before.tail === undefined || from >= to || to < before.to || Math.max(from, before.from) > before.to - 1) return undefined
  const h = from === before.from ? before.head : headOf(env, from)
  // the old end: what the turns that left (or joined) there add, up to the first word end of the new first turn
  const older = from === before.from ? 0 : stretch(env, Math.min(from, before.from), Math.max(from, before.from))
  // the new end: everything after the previous last turn's last word end, the new turns shown after it
  const end = to === before.to ? before.tail : newEnd(env, before.to - 1, to)
  if (h === undefined || older === undefined || end === undefined) return undefined
  const tokens = before.tokens - before.head + (from > before.from ? -older : older) + h - before.tail + end
  // the tail piece of a changed end is counted only for a build that carries it to the next one
  return { from, to, tokens, head: h, tail: to === before.to ? before.tail : env.tails ? tailOf(env, to - 1) : undefined }
}

/**
 * The count of a rendered layout whose window is `[from, to)` and whose whole count is
 * `tokens`, with its end pieces counted from the text (`spans`: its item texts).
 *
 * @category utils
 */
export const measuredWindow = (
  tokenizer: Tokenizer,
  count: (text: string) => number,
  known: (content: string) => number | undefined,
  rendered: { readonly text: string; readonly spans: ReadonlyArray<Span> },
  from: number,
  to: number,
  tokens: number,
): WindowCount => {
  const { text, spans } = rendered
  const at = (i: number): readonly [Span, number, number] | undefined => {
    const s = spans.find((x) => x.packetId === `history:${i}`)
    const e = s === undefined ? undefined : wordEnds(s.content, true)
    return e === undefined ? undefined : [s!, s!.start + e[0], s!.start + e[1]]
  }
  const first = at(from)
  const last = at(to - 1)
  const head = first === undefined ? undefined : spanCount(tokenizer, text.slice(0, first[1]), spans.filter((s) => s.end <= first[1]), known, count)
  const tail =
    last === undefined
      ? undefined
      : spanCount(tokenizer, text.slice(last[2]), spans.filter((s) => s.start >= last[2]).map((s) => ({ ...s, start: s.start - last[2], end: s.end - last[2] })), known, count)
  return { from, to, tokens, head, tail }
}

/**
 * The count of an item text among `items`, or the always-kept packets' items of `doc` (looked up when asked: a count asks a few).
 *
 * @category utils
 */
export const itemCount = (doc: Document, items: ReadonlyArray<Item>, content: string): number | undefined => {
  for (const it of items) if (it.text === content) return it.tokens
  for (const sec of sectionsOf(doc)) if (sec.name !== 'context') for (const it of sec.items) if (it.packetId !== undefined && it.text === content) return it.tokens
  return undefined
}
