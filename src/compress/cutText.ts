/**
 * Cutting one text to a token budget, at a line or sentence boundary where one is close,
 * never inside a character, nor inside a character reference such as `&lt;` (escaped XML
 * text stays well-formed when cut). One encode per cut: the tokenizer reports where its tokens end.
 *
 * @module
 */
import { prefixEndWindowed, suffixStartWindowed, windowFor } from '../tokenize/prefix.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'

/** How far back (as a share of the kept length) a boundary may be to be preferred. */
const SNAP_WINDOW = 0.3
const SENTENCE_END = /[.!?;。！？；…]/

/**
 * The index just after the last line or sentence boundary in `text[0, end)`, if one lies
 * within the snap window; otherwise the last whitespace in it; otherwise `end`.
 */
const snapBack = (text: string, end: number): number => {
  const floor = Math.floor(end * (1 - SNAP_WINDOW))
  const line = text.lastIndexOf('\n', end - 1)
  if (line >= floor && line > 0) return line
  for (let i = end - 1; i >= floor && i > 0; i--) {
    const c = text[i]!
    const next = text[i + 1]
    if (SENTENCE_END.test(c) && (next === undefined || i + 1 >= end || /\s/.test(next) || c.charCodeAt(0) > 0x2fff)) return i + 1
  }
  for (let i = end - 1; i >= floor && i > 0; i--) if (/\s/.test(text[i]!)) return i
  return end
}

/** The index of the first character after the first boundary in `text[start, …)`, within the window. */
const snapForward = (text: string, start: number): number => {
  const ceiling = start + Math.ceil((text.length - start) * SNAP_WINDOW)
  const line = text.indexOf('\n', start)
  if (line >= 0 && line < ceiling) return line + 1
  for (let i = start; i < ceiling && i < text.length; i++) {
    const c = text[i]!
    if (SENTENCE_END.test(c) && (i + 1 >= text.length || /\s/.test(text[i + 1]!) || c.charCodeAt(0) > 0x2fff)) {
      let j = i + 1
      while (j < text.length && /\s/.test(text[j]!)) j++
      return j
    }
  }
  for (let i = start; i < ceiling && i < text.length; i++) if (/\s/.test(text[i]!)) return i + 1
  return start
}

// a character reference (`&lt;`, `&#13;`, `&#x85;`): escaped XML text must not be cut inside one
const REF_HEAD = /&#?[A-Za-z0-9]{0,8}$/
const REF_TAIL = /^#?[A-Za-z0-9]{0,8};/

/** A cut at `at` moved off any character reference it would split: back to its `&` (or, `forward`, past its `;`). */
const offReference = (text: string, at: number, forward: boolean): number => {
  const head = REF_HEAD.exec(text.slice(Math.max(0, at - 10), at))
  if (head === null || head[0].length === 0) return at
  const tail = REF_TAIL.exec(text.slice(at, at + 10))
  if (tail === null) return at
  return forward ? at + tail[0].length : at - head[0].length
}

/**
 * Keeps at most about `maxTokens` tokens of `text`: its head (cut at the end) or its tail
 * (cut at the start). `totalTokens` is the text's known count, so it is not counted again.
 * BPE is not additive at a cut, so the kept part may count a token more or less than the
 * budget; the compress stage verifies the final output exactly.
 *
 * @example
 * cutText('First line.\nSecond line.', 3, 'head', tokenizer, 6) // 'First line.'
 * @category utils
 * @since 0.1.0
 */
export const cutText = (
  text: string,
  maxTokens: number,
  keep: 'head' | 'tail',
  tokenizer: Tokenizer,
  totalTokens: number,
): string => {
  if (maxTokens >= totalTokens) return text
  if (maxTokens <= 0) return ''
  if (keep === 'head') {
    // a long text is tokenized only as far as the cut: a window, not the whole of it
    const end = offReference(text, prefixEndWindowed(text, maxTokens, tokenizer), false)
    return text.slice(0, end >= text.length ? end : snapBack(text, end)).trimEnd()
  }
  const start = offReference(text, tokenizer.prefixEnd(text, totalTokens - maxTokens), true)
  return text.slice(start <= 0 ? start : snapForward(text, start)).trimStart()
}

/**
 * Keeps the head of `text` in at most `maxChars` characters, `marker` included: cut at a
 * line or sentence boundary, else at a space, where one is close (the same boundaries as
 * {@link cutText}), never inside a surrogate pair. For a length in characters, where no
 * tokenizer is at hand (the offline summarizer's longest sentence).
 *
 * @example
 * cutChars('The build fails because left-pad is missing from the lock file.', 40) // 'The build fails because left-pad is…'
 * @category utils
 * @since 0.2.0
 */
export const cutChars = (text: string, maxChars: number, marker = '…'): string => {
  if (text.length <= maxChars) return text
  let end = Math.max(0, maxChars - marker.length)
  // a high surrogate at the end would be half a character
  const last = text.charCodeAt(end - 1)
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--
  return `${text.slice(0, snapBack(text, end)).trimEnd()}${marker}`
}

/** What {@link cutMiddle} kept of a text. */
export interface MiddleCut {
  readonly text: string
  /** Tokens of `text`, marker included: the exact count. */
  readonly tokens: number
  /** The whole text's tokens: exact when small enough to count, else estimated from the kept share. */
  readonly originalTokens: number
  readonly estimated: boolean
}

/**
 * Keeps the head and the tail of a long text (three fifths head), `maxTokens` in all with a
 * visible marker between them that says what was cut, tokenizing only windows at both ends:
 * a 120k-token tool result costs what the kept 2k cost. Cuts land on line or sentence
 * boundaries where one is close. Returns `undefined` when the text fits whole.
 *
 * @example
 * cutMiddle(hugeLog, 2000, tokenizer)?.text // 'first lines…\n[… cut to fit: kept 1,985 of ~120,000 tokens …]\nlast lines'
 * @category utils
 * @since 0.2.0
 */
export const cutMiddle = (text: string, maxTokens: number, tokenizer: Tokenizer): MiddleCut | undefined => {
  const headEnd0 = prefixEndWindowed(text, maxTokens, tokenizer)
  if (headEnd0 >= text.length) return undefined
  // a first estimate of the whole, from the density of the first maxTokens tokens
  const total = Math.max(maxTokens + 1, Math.round((maxTokens * text.length) / Math.max(1, headEnd0)))
  const note = (kept: number): string => `\n[… cut to fit: kept ${fmt(kept)} of ~${fmt(Number(total.toPrecision(3)))} tokens …]\n`
  let budget = maxTokens - tokenizer.count(note(maxTokens))
  for (let round = 0; round < 6 && budget > 0; round++) {
    const headTokens = Math.ceil((budget * 3) / 5)
    const headEnd = snapBack(text, prefixEndWindowed(text, headTokens, tokenizer))
    const tailStart = snapForward(text, Math.max(headEnd, suffixStartWindowed(text, budget - headTokens, tokenizer)))
    const head = text.slice(0, headEnd).trimEnd()
    const tail = text.slice(tailStart).trimStart()
    const keptTokens = tokenizer.count(head) + tokenizer.count(tail)
    const out = `${head}${note(keptTokens)}${tail}`
    const tokens = tokenizer.count(out)
    if (tokens <= maxTokens) return { text: out, tokens, originalTokens: total, estimated: true }
    budget -= tokens - maxTokens
  }
  const out = note(0).trim()
  return { text: out, tokens: tokenizer.count(out), originalTokens: total, estimated: true }
}

/**
 * The tokens of a text that may be far longer than anything kept of it: counted when short or
 * when it has at most `limit` tokens, else estimated from the density of its first `limit`
 * tokens, so a 2 MB file under a 2,000-token cap costs what its first 2,000 tokens cost.
 *
 * @example
 * tokensUpTo(twoMegabyteMemory, 2000, tokenizer) // { tokens: 524_117, estimated: true }
 * @category utils
 * @since 0.2.0
 */
export const tokensUpTo = (text: string, limit: number, tokenizer: Tokenizer): { readonly tokens: number; readonly estimated: boolean } => {
  if (text.length <= windowFor(limit)) return { tokens: tokenizer.count(text), estimated: false }
  const end = prefixEndWindowed(text, limit, tokenizer)
  // a long text of few tokens (long runs of one character) is counted after all
  if (end >= text.length) return { tokens: tokenizer.count(text), estimated: false }
  return { tokens: Math.max(limit + 1, Math.round((limit * text.length) / Math.max(1, end))), estimated: true }
}

/**
 * The note of a counted cut: what was kept of how much, `~` before an estimated total.
 *
 * @example
 * countedNote('memory/MEMORY.md', 1987, 524_288, true) // '… [truncated: memory/MEMORY.md, kept 1,987 of ~524,000 tokens]'
 * @category utils
 * @since 0.2.0
 */
export const countedNote = (label: string, kept: number, total: number, estimated: boolean): string =>
  `… [truncated: ${label}, kept ${fmt(kept)} of ${estimated ? `~${fmt(Number(total.toPrecision(3)))}` : fmt(total)} tokens]`

/** What {@link cutFramed} kept. */
export interface FramedCut {
  /** The kept head of the text (never empty). */
  readonly head: string
  /** The head in its frame: what is shown. */
  readonly text: string
  /** Exact tokens of `text`. */
  readonly tokens: number
}

/**
 * Keeps the longest head of `text` whose frame (`frame(head)`: the head with what goes
 * around it — a heading, a marker, a wrapper) counts at most `maxTokens`, counted exactly.
 * `overhead` is the frame's tokens at their most; each try that still comes out over asks
 * for that much less. Cut with {@link cutText}, so only a window of a huge text is tokenized;
 * `totalTokens` is the text's count or an upper bound. `undefined` when fewer than `minKept`
 * tokens of the text would stay.
 *
 * @example
 * cutFramed(summary, 40, tokenizer.count('<summary>\n…\n</summary>'), (h) => `<summary>\n${h}…\n</summary>`, tokenizer, 900)?.text
 * // '<summary>\nThe build failed because a module was missing.…\n</summary>'
 * @category utils
 * @since 0.2.0
 */
export const cutFramed = (
  text: string,
  maxTokens: number,
  overhead: number,
  frame: (head: string) => string,
  tokenizer: Tokenizer,
  totalTokens: number,
  minKept = 1,
): FramedCut | undefined => {
  let keep = maxTokens - overhead
  // BPE merges across the seams: re-check and ask for less (rarely more than twice)
  for (let attempt = 0; attempt < 4 && keep >= minKept; attempt++) {
    const head = cutText(text, keep, 'head', tokenizer, Math.max(keep + 1, totalTokens))
    if (head === '') return undefined
    const out = frame(head)
    const tokens = tokenizer.count(out)
    if (tokens <= maxTokens) return { head, text: out, tokens }
    keep -= tokens - maxTokens
  }
  return undefined
}

/** What {@link cutCounted} kept. */
export interface CountedCut {
  /** The kept head of the text, a line break and the note (the lead not repeated). */
  readonly text: string
  /** Exact tokens of the lead and `text` together. */
  readonly tokens: number
  /** Exact tokens of the lead and the kept head with its line break: the number the note states. */
  readonly keptTokens: number
}

/**
 * Keeps the head of `text` after `lead` (a heading, never cut), then a note on its own line
 * saying what was kept of `totalTokens` (the lead's and the text's): at most `maxTokens` for
 * the three together, counted exactly ({@link cutFramed}). `undefined` when fewer than
 * `minKept` tokens of the text would stay.
 *
 * @example
 * cutCounted('## AGENTS.md\n\n', agents, 34, { label: 'AGENTS.md', estimated: false }, 38, 8, tokenizer)?.text
 * // '# Agent Instructions\n\nYou are a careful assistant for\n… [truncated: AGENTS.md, kept 16 of 38 tokens]'
 * @category utils
 * @since 0.2.0
 */
export const cutCounted = (
  lead: string,
  text: string,
  maxTokens: number,
  marker: { readonly label: string; readonly estimated: boolean },
  totalTokens: number,
  minKept: number,
  tokenizer: Tokenizer,
): CountedCut | undefined => {
  const leadTokens = tokenizer.count(lead)
  const note = (kept: number): string => countedNote(marker.label, kept, totalTokens, marker.estimated)
  const counts = new Map<string, number>() // the kept part's count, which the note states, by head
  const frame = (head: string): string => {
    const kept = `${lead}${head}\n`
    const keptTokens = tokenizer.count(kept)
    counts.set(head, keptTokens)
    return `${kept}${note(keptTokens)}`
  }
  // room for the note at its longest, and for the line break a mid-line cut adds
  const cut = cutFramed(text, maxTokens, tokenizer.count(note(maxTokens)) + 1 + leadTokens, frame, tokenizer, totalTokens - leadTokens, minKept)
  return cut === undefined ? undefined : { text: cut.text.slice(lead.length), tokens: cut.tokens, keptTokens: counts.get(cut.head)! }
}

const fmt = (n: number): string => n.toLocaleString('en-US')
