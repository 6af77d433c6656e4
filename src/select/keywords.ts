/**
 * Keyword extraction for relevance and diversity scoring, for spaced and unspaced scripts.
 *
 * Chinese, Japanese, Thai, Lao, Khmer and Myanmar text has no spaces between words, so
 * whitespace splitting finds one "word" per sentence. `Intl.Segmenter` segments them with
 * ICU's dictionaries, but it runs at about 1.5 M chars/s and slows down on long inputs, so it
 * only sees the runs of those scripts; everything else is split by a regular expression.
 *
 * @module
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Extracts the keywords of a text. */
export type KeywordExtractor = (text: string) => ReadonlySet<string>

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const UNSPACED = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}'
const WORD_OR_RUN = new RegExp(`[${UNSPACED}]+|[\\p{L}\\p{M}\\p{N}_]+`, 'gu')
const IS_UNSPACED = new RegExp(`^[${UNSPACED}]`, 'u')
/** Segmenter inputs are kept short: its cost per character grows with input length. */
const SEGMENT_CHUNK = 256

/** Words that carry no topic; dropped unless nothing else is left. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this to too us was we were what ' +
    'when where which who whom why will with would you your yours he she him her his hers also just about please ' +
    '的 了 是 在 和 与 及 或 也 就 都 而 着 吗 呢 吧 啊 呀 么 这 那 这个 那个 一个 我 你 他 她 它 我们 你们 他们 ' +
    '什么 怎么 怎么样 为什么 如何 哪 哪里 哪个 请 能 会 要 有 没有 不 很 还 又 吧 被 把 给 让 对 从 向 到 个 之 其 所 以 于 样 の は が を に で と も'
  ).split(' '),
)

/**
 * A keyword extractor: lowercased words and numbers of spaced scripts, dictionary words of
 * unspaced ones, stopwords removed unless the text has nothing else.
 *
 * @example
 * keywordExtractor()('今天天气怎么样？') // Set { '今天', '天气' }
 * keywordExtractor()('Why does the build fail?') // Set { 'build', 'fail' }
 * @category constructors
 * @since 0.1.0
 */
export const keywordExtractor = (locale = 'zh'): KeywordExtractor => {
  // made on the first run of an unspaced script: most texts have none, and making one costs
  let segmenter: Intl.Segmenter | undefined
  return (text) => {
    const all: string[] = []
    for (const m of text.toLowerCase().matchAll(WORD_OR_RUN)) {
      const run = m[0]
      if (!IS_UNSPACED.test(run)) {
        all.push(run)
        continue
      }
      for (let i = 0; i < run.length; i += SEGMENT_CHUNK)
        for (const s of (segmenter ??= new Intl.Segmenter(locale, { granularity: 'word' })).segment(run.slice(i, i + SEGMENT_CHUNK)))
          if (s.isWordLike) all.push(s.segment)
    }
    const content = all.filter((w) => !STOPWORDS.has(w))
    return new Set((content.length > 0 ? content : all).map(stem))
  }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * Whether a keyword belongs to an unspaced script. For those, relevance checks the content
 * by substring, so the result does not depend on how the segmenter split the content.
 *
 * @category utils
 */
export const isUnspaced = (keyword: string): boolean => IS_UNSPACED.test(keyword)

/**
 * The spaced-script words of a text, lowercased; the fast half of keyword extraction.
 *
 * @category utils
 */
export const spacedWords = (text: string): ReadonlySet<string> => {
  const words = new Set<string>()
  for (const m of text.toLowerCase().matchAll(WORD_OR_RUN)) if (!IS_UNSPACED.test(m[0])) words.add(stem(m[0]))
  return words
}

/**
 * How many of `wanted` (stemmed words) occur among the spaced-script words of a lowercased
 * text. Allocates only for hits, so scoring many packets stays cheap.
 *
 * @category utils
 */
export const countWords = (lower: string, wanted: ReadonlySet<string>): number => {
  let found: Set<string> | undefined
  for (const m of lower.matchAll(WORD_OR_RUN)) {
    const w = m[0]
    if (IS_UNSPACED.test(w)) continue
    const s = stem(w)
    if (wanted.has(s)) (found ??= new Set()).add(s)
    if (found !== undefined && found.size === wanted.size) break
  }
  return found?.size ?? 0
}

/**
 * {@link countWords} for many texts and one `wanted` set: what a relevance scorer runs on
 * every packet. It gives the same counts, about 3× faster: ASCII words are scanned without a
 * regular expression; other characters are classified once per counter, so punctuation and
 * runs of unspaced scripts are skipped without one; a word is stemmed only when its first two
 * letters could make a wanted word (a stem is its word, or the word minus "ies" plus "y", so
 * the word starts with the wanted word minus its last letter); and stems are memoized for
 * the counter's life.
 *
 * @category utils
 */
export const wordCounter = (wanted: ReadonlySet<string>): ((lower: string) => number) => {
  // sticky: the match at lastIndex or null; one per counter, so no regex state is shared
  const wordAt = new RegExp(WORD_OR_RUN.source, 'uy')
  // first two char codes of every wanted word; a wanted word under 3 letters disables the filter
  const starts = new Set<number>()
  let filter = true
  for (const k of wanted) {
    if (k.length < 3) filter = false
    else starts.add(k.charCodeAt(0) * 65536 + k.charCodeAt(1))
  }
  const stemOf = stemmer()
  // What a BMP character can start, decided once per character by the regular expressions
  // themselves: nothing (punctuation, spaces), a run of an unspaced script, or a word.
  // One byte per BMP code unit (64 KiB per counter): class + 1, 0 while not yet decided.
  const classes = new Uint8Array(65536)
  const classOf = (c: number): CharClass => {
    const known = classes[c]!
    if (known !== 0) return (known - 1) as CharClass
    const ch = String.fromCharCode(c)
    const k: CharClass = IS_UNSPACED.test(ch) ? UNSPACED_RUN : WORD_START.test(ch) ? MAYBE_WORD : NOT_A_WORD
    classes[c] = k + 1
    return k
  }
  return (lower) => {
    let found: Set<string> | undefined
    const n = lower.length
    let i = 0
    while (i < n) {
      const c = lower.charCodeAt(i)
      let word: string
      if (c < 128) {
        if (!isAsciiWordChar(c)) {
          i++
          continue
        }
        let j = i + 1
        while (j < n && isAsciiWordChar(lower.charCodeAt(j))) j++
        if (j < n && lower.charCodeAt(j) >= 128) {
          // the word may go on in another script: let the regular expression decide
          wordAt.lastIndex = i
          word = wordAt.exec(lower)![0]
          i += word.length
        } else {
          const start = i
          i = j
          if (filter && (j - start < 3 || !starts.has(c * 65536 + lower.charCodeAt(start + 1)))) continue
          word = lower.slice(start, j)
        }
      } else {
        const k = c >= 0xd800 && c <= 0xdfff ? MAYBE_WORD : classOf(c)
        if (k === NOT_A_WORD) {
          i++
          continue
        }
        if (k === UNSPACED_RUN) {
          // a run of an unspaced script is skipped whole, as its regex match would be;
          // should it go on with an astral character, the next step skips the rest
          i++
          while (i < n) {
            const d = lower.charCodeAt(i)
            if (d < 128 || (d >= 0xd800 && d <= 0xdfff) || classOf(d) !== UNSPACED_RUN) break
            i++
          }
          continue
        }
        wordAt.lastIndex = i
        const m = wordAt.exec(lower)
        if (m === null) {
          i++
          continue
        }
        word = m[0]
        i += word.length
        if (IS_UNSPACED.test(word)) continue
      }
      const s = stemOf(word)
      if (wanted.has(s)) {
        ;(found ??= new Set()).add(s)
        if (found.size === wanted.size) break
      }
    }
    return found?.size ?? 0
  }
}

/**
 * {@link stem} memoized for one counter's life (a scorer sees a few thousand distinct words
 * at most; past 50,000 words, stems are taken again).
 *
 * @category utils
 */
export const stemmer = (): ((word: string) => string) => {
  const memo = new Map<string, string>()
  return (w) => {
    let s = memo.get(w)
    if (s === undefined) {
      s = stem(w)
      if (memo.size < MEMO_LIMIT) memo.set(w, s)
    }
    return s
  }
}

/** What a character can start in `WORD_OR_RUN`; surrogates are always left to the regex. */
type CharClass = 0 | 1 | 2
const NOT_A_WORD: CharClass = 0
const UNSPACED_RUN: CharClass = 1
const MAYBE_WORD: CharClass = 2
const WORD_START = /^[\p{L}\p{M}\p{N}_]/u

/** Stems memoized per counter; a scorer sees a few thousand distinct words at most. */
const MEMO_LIMIT = 50_000

/** ASCII characters of `[\p{L}\p{M}\p{N}_]`: letters, digits and the underscore. */
const isAsciiWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95

/**
 * A deliberately light English stemmer, so "fails", "failed" and "failing" match "fail". It
 * only strips common inflections from ASCII words; other scripts pass unchanged.
 *
 * @category utils
 */
export const stem = (word: string): string => {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word
  return dropE(strip(word))
}

const strip = (word: string): string => {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3))
  if (word.endsWith('ed') && word.length > 4) return undouble(word.slice(0, -2))
  if (word.endsWith('es') && /(?:sh|ch|x|ss|zz)es$/.test(word)) return word.slice(0, -2)
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1)
  return word
}

/** "compile" and "compiled" both become "compil". */
const dropE = (w: string): string => (w.length > 4 && w.endsWith('e') ? w.slice(0, -1) : w)

/** "stopped" → "stopp" → "stop". */
const undouble = (w: string): string => (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w)
