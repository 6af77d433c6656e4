/**
 * Token counters. `createTokenizer(model)` picks the encoding a model family uses; the
 * estimator (chars / 4) is the fallback when no exact encoding applies.
 *
 * Rank tables load lazily, on the first count, and once per tokenizer: create one tokenizer
 * and pass it to every build.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { ConfigError } from '../error.js'
import { referenceBpe, type Bpe, type CountedEnds, type EncodingName } from './bpe.js'
import { loadEncoding, loadRanks } from './ranks.js'
import { fastBpe, loadPackedTables } from './fastBpe.js'
import { HAN_TOUCH } from './hanTouch.js'
import { modelEncoding } from './models.js'

export { baseModel } from './models.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Counts tokens the way a model would (or estimates, when `exact` is false). */
export interface Tokenizer {
  /** `o200k_base`, `cl100k_base` or `estimate`. */
  readonly name: string
  /**
   * True when counts are the model's own. False for the estimator, and for Claude models,
   * whose tokenizer is not public: cl100k_base is a documented approximation there.
   */
  readonly exact: boolean
  /** The model the tokenizer was made for, when made by {@link createTokenizer}. */
  readonly model?: string
  readonly count: (text: string) => number
  /**
   * A cheap lower bound on `count(text)`, computed without tokenizing. Lets a build skip
   * texts that cannot fit without counting them. Given `above`, it may stop as soon as its
   * figure passes `above` (still a lower bound, only not the tightest).
   */
  readonly lowerBound: (text: string, above?: number) => number
  /**
   * The end (UTF-16 offset, on a code point boundary) of the longest prefix of `text` made of
   * at most `maxTokens` of its tokens. One encode per call, never a search by re-counting.
   */
  readonly prefixEnd: (text: string, maxTokens: number) => number
  /**
   * `count(text)`, `count(text.slice(0, first))` and `count(text.slice(last))` in one pass,
   * for positions where the text's pieces always split (word ends: see `wordEdges.ts`).
   * Optional: a build's meter counts the three apart without it. gssc's exact tokenizers
   * have it as a property that is not enumerable, so that a tokenizer spread into another
   * with its own `count` (`{ ...tokenizer, count }`) does not take it.
   */
  readonly countEnds?: (text: string, first: number, last: number) => CountedEnds
  /**
   * Loads what counting needs (an encoding's rank module), so that counts run synchronously
   * on any platform. `build` and `fitMessages` await it before the first count; absent when
   * nothing needs loading.
   */
  readonly ready?: () => Promise<void>
}

/** Which engine counts exact encodings: the fast one (default) or js-tiktoken itself. */
export type Engine = 'fast' | 'js-tiktoken'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * An exact tokenizer for an encoding. Ranks load on the first call.
 *
 * @category constructors
 * @since 0.1.0
 */
export const encodingTokenizer = (
  encoding: EncodingName,
  options: { readonly engine?: Engine; readonly exact?: boolean; readonly model?: string } = {},
): Tokenizer => {
  let bpe: Bpe | undefined
  const load = (): Bpe =>
    (bpe ??= options.engine === 'js-tiktoken' ? referenceBpe(encoding, loadRanks(encoding)) : fastBpe(encoding))
  const tokenizer: Tokenizer = {
    name: encoding,
    exact: options.exact ?? true,
    ...(options.model === undefined ? {} : { model: options.model }),
    count: (text) => (text.length === 0 ? 0 : load().count(text)),
    lowerBound: hanLowerBound(HAN_TOUCH[encoding]),
    // the fast engine opens the packed rank file where there is one (Node, an installed build):
    // its small parts now, the rest as lookups reach it; the pre-tokenizer regex is compiled
    // once text past ASCII needs it (`pretokenize.ts`)
    ready: async () => {
      if (options.engine !== 'js-tiktoken' && loadPackedTables(encoding)) return
      await loadEncoding(encoding)
    },
    prefixEnd: (text, maxTokens) => {
      if (maxTokens <= 0 || text.length === 0) return 0
      const ends = load().tokenEnds(text)
      if (ends.length <= maxTokens) return text.length
      for (let k = Math.floor(maxTokens) - 1; k >= 0; k--) {
        const end = ends[k]!
        if (end >= 0) return end
      }
      return 0
    },
  }
  // not enumerable: a tokenizer spread into one with a `count` of its own must not count ends
  // with this one's engine
  return options.engine === 'js-tiktoken'
    ? tokenizer
    : Object.defineProperty(tokenizer, 'countEnds', { value: (text: string, first: number, last: number): CountedEnds => load().countEnds!(text, first, last), enumerable: false })
}

/**
 * The fallback: one token per four UTF-16 code units, rounded up. Never exact.
 *
 * @category constructors
 * @since 0.1.0
 */
export const estimateTokenizer = (charsPerToken = 4): Tokenizer => ({
  name: 'estimate',
  exact: false,
  count: (text) => Math.ceil(text.length / charsPerToken),
  lowerBound: (text) => Math.ceil(text.length / charsPerToken),
  prefixEnd: (text, maxTokens) => {
    const end = Math.min(text.length, Math.max(0, Math.floor(maxTokens)) * charsPerToken)
    // never split a surrogate pair
    const code = text.charCodeAt(end - 1)
    return end > 0 && end < text.length && code >= 0xd800 && code <= 0xdbff ? end - 1 : end
  },
})

/**
 * A lower bound for BPE encodings: the pre-tokenizer never joins two runs of non-space
 * characters into one piece, and every piece is at least one token.
 *
 * @category utils
 */
export const nonSpaceRuns = (text: string): number => {
  let runs = 0
  let inRun = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const space = c === 32 || (c >= 9 && c <= 13)
    if (!space && !inRun) runs++
    inRun = !space
  }
  return runs
}

/**
 * A tighter lower bound for o200k_base and cl100k_base, from their pre-tokenizer rules, in
 * one pass without allocating. Pieces almost never span two runs of non-space characters, so
 * each run (a *segment*) is bounded on its own:
 * - a segment holding any non-ASCII character counts one piece (classifying Unicode letters,
 *   marks and digits the way both encodings do is not worth its cost here);
 * - in an ASCII segment, a piece holding a letter holds one run of letters (apostrophes
 *   after a letter joined in, which can only lower the figure), so every letter run is at
 *   least one piece; a run of n digits is at least ⌈n/3⌉ pieces (digits form pieces of at
 *   most three on their own); and a run of other characters is at least one piece, unless it
 *   is a single character the next letter's piece can absorb.
 *
 * The one piece rule that crosses whitespace is o200k's punctuation piece,
 * ` ?[^\s\p{L}\p{N}]+[\r\n/]*`: after punctuation, line breaks and slashes join it, so
 * `".\n/"` is one piece (and one token). Slashes that open a segment after a gap of only
 * `\r`/`\n`, behind a segment that ends in anything but an ASCII letter or digit, therefore
 * count nothing; the chain goes on while whole segments are slashes. (cl100k's `[\r\n]*`
 * joins only whitespace.)
 *
 * The pieces counted are distinct, and each is at least one token. Given `hanTouch` (an
 * encoding's table in `hanTouch.ts`), a segment holding Han characters counts what their
 * shares add up to (see {@link hanLowerBound}). Property-tested against
 * the real counts of both encodings (a million cases per encoding in `npm run test:deep`).
 * On JSON it is several times tighter than {@link nonSpaceRuns}, at about the same cost.
 * With `above`, it stops once the count passes it (what a fill needs to rule a text out).
 *
 * @category utils
 */
export const pieceLowerBound = (text: string, above = Number.POSITIVE_INFINITY, hanTouch?: string): number => {
  // one pass, classes from a table: segments, their ASCII runs and the slash rule together
  let pieces = 0
  let i = 0
  const n = text.length
  // whether slashes here would join the punctuation piece before them (o200k)
  let absorbing = false
  while (i < n) {
    let c = text.charCodeAt(i)
    if (c < 128 && BITS[c] === SPACE) {
      // only line breaks keep the punctuation piece open
      if (c !== 10 && c !== 13) absorbing = false
      i++
      continue
    }
    // absorbed slashes first; a segment made only of them keeps the piece open
    if (absorbing) {
      while (i < n && text.charCodeAt(i) === 47) i++
      if (i >= n) break
      c = text.charCodeAt(i)
      if (c < 128 && BITS[c] === SPACE) continue
    }
    // one segment, up to the next ASCII space: its ASCII runs, each read in a loop of its
    // own (a letter run takes the apostrophes after its letters), while the segment is ASCII
    const start = i
    let runs = 0
    while (c < 128) {
      const k = BITS[c]!
      if (k === SPACE) break
      let j = i + 1
      if (k === LETTER) {
        while (j < n && (c = text.charCodeAt(j)) < 128 && (BITS[c]! & LETTER) !== 0) j++
        runs++
      } else if (k === DIGIT) {
        while (j < n && (c = text.charCodeAt(j)) < 128 && BITS[c] === DIGIT) j++
        runs += Math.ceil((j - i) / 3)
      } else {
        while (j < n && (c = text.charCodeAt(j)) < 128 && (BITS[c]! & OTHER) !== 0) j++
        // one character the next letter's piece can absorb counts nothing
        if (!(j - i === 1 && j < n && c < 128 && BITS[c] === LETTER)) runs++
      }
      i = j
      if (i >= n) break
    }
    let last: number
    if (i >= n || c < 128) {
      last = text.charCodeAt(i - 1)
      pieces += runs
    } else {
      // the segment holds non-ASCII: one piece (Han bounded apart), whatever its runs were;
      // non-ASCII whitespace (U+3000…) joins the spaces around it into one whitespace piece,
      // across segments, so a segment of nothing else counts nothing
      let solid = i > start
      let han = 0
      last = c
      for (; i < n; i++) {
        c = text.charCodeAt(i)
        if (c < 128) {
          if (BITS[c] === SPACE) break
          last = c
          solid = true
          continue
        }
        last = c
        if (c >= 0x4000 && c <= 0x9fff && hanTouch !== undefined) han += SHARE[hanTouch.charCodeAt(c - 0x4000)]!
        else if (!solid && isUnicodeSpace(c)) continue
        solid = true
      }
      pieces += solid ? Math.max(1, Math.ceil(han / WHOLE)) : 0
    }
    // the pieces counted so far are a lower bound already: enough to rule the text out
    if (pieces > above) return pieces
    absorbing = !(isAsciiLetter(last) || (last >= 48 && last <= 57))
  }
  return pieces
}

/**
 * {@link pieceLowerBound} with Han text bounded too. Every Han character (U+4000–U+9FFF) is
 * touched by a token (holds some of its bytes). `hanTouch` gives, for each character, the
 * most Han characters any token of the encoding able to touch it touches, a character split
 * across tokens included (`hanTouch.ts`, generated from the vocabulary and checked against
 * it by a test): n for character c. A token touching k Han characters then touches none with
 * n < k, so the shares 1/n of the characters it touches add up to at most 1, and the shares
 * of all the Han characters of a text to at most the number of tokens touching them. Those
 * of one piece (a letter piece) lie in one run of non-space characters, so a segment counts
 * at least ⌈its characters' shares⌉ tokens of its own. Shares add up as whole multiples of
 * 1/2520 (the least common multiple of 1…10), so no rounding can lift the figure past the
 * count.
 *
 * Most characters are in no token longer than two characters: on Chinese prose the bound is
 * about a third of the count, where one token per ten characters (the longest such token in
 * o200k_base) gave about a tenth, and a build reads fewer turns it cannot keep.
 *
 * @category utils
 */
export const hanLowerBound =
  (hanTouch: string) =>
  (text: string, above?: number): number =>
    pieceLowerBound(text, above, hanTouch)

/** A token's share of a character, in 1/{@link WHOLE}ths: {@link WHOLE} / n at code `48 + n` of a Han touch table. */
const WHOLE = 2520
const SHARE: Uint16Array = (() => {
  const t = new Uint16Array(59)
  for (let n = 1; n <= 10; n++) t[48 + n] = WHOLE / n
  return t
})()

// character classes of ASCII, as bits: an apostrophe continues a letter run and is otherwise
// punctuation, so it has both
const LETTER = 1
const DIGIT = 2
const OTHER = 4
const SPACE = 8

/** Classes of ASCII characters for {@link pieceLowerBound}: a read-only table built once. */
const BITS: Uint8Array = (() => {
  const t = new Uint8Array(128).fill(OTHER)
  for (let c = 0; c < 128; c++)
    if (c === 32 || (c >= 9 && c <= 13)) t[c] = SPACE
    else if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) t[c] = LETTER
    else if (c >= 48 && c <= 57) t[c] = DIGIT
    else if (c === 39) t[c] = LETTER | OTHER
  return t
})()

/** Non-ASCII whitespace as the pre-tokenizers' `\\s` sees it. */
const isUnicodeSpace = (c: number): boolean =>
  c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff

const isAsciiLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90)

/**
 * The tokenizer for a model name or encoding name.
 *
 * | model (after {@link baseModel}) | encoding | exact |
 * | --- | --- | --- |
 * | `gpt-4o*`, `chatgpt-4o*`, `gpt-4.1*`, `gpt-4.5*`, `gpt-5*`, `o1*`, `o3*`, `o4*` (any o-series), `gpt-oss*` | o200k_base | yes |
 * | `gpt-4*`, `gpt-3.5*`, `text-embedding-3*`, `text-embedding-ada-002`, `davinci-002`, `babbage-002` | cl100k_base | yes |
 * | `claude*` | cl100k_base | **no**: Anthropic's tokenizer is not public; counts are an approximation |
 * | `o200k_base`, `cl100k_base` | that encoding | yes |
 * | `estimate` | chars / 4 | no |
 *
 * Provider prefixes (`openai/gpt-4o`) and fine-tune ids (`ft:gpt-4o-mini:org::id`) name their
 * base model. Anything else is an error that says how to choose, rather than a silent estimate.
 *
 * @example
 * createTokenizer('gpt-4o')        // Right(o200k_base tokenizer)
 * createTokenizer('openai/gpt-5')  // Right(o200k_base tokenizer)
 * createTokenizer('llama-3')       // Left(config.model: unknown model "llama-3"; name an OpenAI model …)
 * @category constructors
 * @since 0.1.0
 */
export const createTokenizer = (
  model: string,
  options: { readonly engine?: Engine } = {},
): E.Either<ConfigError, Tokenizer> =>
  pipe(
    modelEncoding(model),
    E.map((m) =>
      m.encoding === 'estimate'
        ? estimateTokenizer()
        : encodingTokenizer(m.encoding, { ...options, ...(m.model === undefined ? {} : { model: m.model }), ...(m.exact ? {} : { exact: false }) }),
    ),
  )
