/**
 * The offline summarizer: picks the most informative sentences of the turns, within the
 * token target, and lists them in their original order with who said them. No model, no
 * network; deterministic.
 *
 * Scoring is SumBasic (Nenkova & Vanderwende, 2005), simple and explainable:
 * - a sentence's terms are its words of 3+ letters or digits (file names and identifiers
 *   included) minus common English stop words;
 * - a term's weight is its share of all term occurrences, so words the conversation keeps
 *   coming back to (its topic) weigh most, and one-off small talk weighs little;
 * - a sentence scores the sum of its terms' weights over √(its term count) (between
 *   SumBasic's mean, which favours one-word sentences, and a plain sum, which favours
 *   long ones), times: 1.5 for user turns (requests and decisions), 0.6 for tool output,
 *   0.5 for tool calls, 1.25 when it mentions an error or a decision, and up to 1.25 for
 *   recency;
 * - after each pick, the picked terms' weights are squared, so the next pick says something
 *   new rather than the same thing again.
 *
 * Sentence token counts are estimated from length and calibrated against one real count of
 * the assembled summary, so the history is not tokenized again. Greedy picking runs over
 * the best-scoring few hundred sentences only, so the cost stays linear in the history.
 *
 * @module
 */
import { cutChars, cutText } from '../../compress/cutText.js'
import type { ChatMessage } from '../../message.js'
import { partText } from '../../message.js'
import type { Tokenizer } from '../../tokenize/tokenizer.js'
import type { Summarizer } from './model.js'

/** Tuning of {@link extractiveSummarizer}. */
export interface ExtractiveOptions {
  /** Longest sentence kept whole, in characters; longer ones are cut with `…` by the one text cutter (`cutChars`: at a space, never mid-character). Default 300. */
  readonly maxSentenceChars?: number
  /** Shortest sentence considered, in characters. Default 12. */
  readonly minSentenceChars?: number
}

interface Candidate {
  readonly text: string
  readonly order: number
  readonly terms: ReadonlyArray<string>
  readonly weight: number
}

const STOP = new Set(
  'the and for are but not you all any can had her was one our out has him his how its may new now old see two way who did get let put say she too use that this with have from they will would there their what about which when make like time just know take into your some could them than then look only come over also back after work first well even want because these give most yes thanks please sure'.split(
    ' ',
  ),
)
const WORD = /[\p{L}\p{N}_][\p{L}\p{N}_./-]{2,}/gu
const SPLIT = /(?<=[.!?。！？])\s+|\n+/u
const ROLE_WEIGHT: Readonly<Record<string, number>> = { user: 1.5, assistant: 1, tool: 0.6, system: 1 }
const TOOL_CALL_WEIGHT = 0.5
const SIGNAL = /error|fail|exception|must|decid|decision|important|todo|next step/i
const POOL = 400
// wrappers such as pi's <summary> tags are markup, not content
const TAG = /<\/?[a-z][a-z_-]*>/g

const sentencesOf = (m: ChatMessage, maxChars: number, minChars: number): ReadonlyArray<readonly [string, number]> =>
  m.parts.flatMap((p) =>
    (p._tag === 'ToolCall' ? `called ${partText(p)}` : partText(p).replace(TAG, ' '))
      .split(SPLIT)
      .map((s) => s.trim().replace(/\s+/g, ' '))
      .filter((s) => s.length >= minChars)
      .map((s) => [cutChars(s, maxChars), p._tag === 'ToolCall' ? TOOL_CALL_WEIGHT : ROLE_WEIGHT[m.role] ?? 1] as const),
  )

const candidates = (messages: ReadonlyArray<ChatMessage>, options: ExtractiveOptions): ReadonlyArray<Candidate> => {
  const out: Candidate[] = []
  const seen = new Set<string>()
  for (const m of messages)
    for (const [s, weight] of sentencesOf(m, options.maxSentenceChars ?? 300, options.minSentenceChars ?? 12)) {
      if (seen.has(s)) continue
      seen.add(s)
      const terms = [...new Set((s.toLowerCase().match(WORD) ?? []).filter((w) => !STOP.has(w)))]
      if (terms.length > 0) out.push({ text: `${m.role}: ${s}`, order: out.length, terms, weight: weight * (SIGNAL.test(s) ? 1.25 : 1) })
    }
  return out.map((c) => ({ ...c, weight: c.weight * (1 + (0.25 * c.order) / Math.max(1, out.length - 1)) }))
}

const score = (c: Candidate, p: ReadonlyMap<string, number>): number => (c.terms.reduce((n, t) => n + p.get(t)!, 0) / Math.sqrt(c.terms.length)) * c.weight

const pick = (pool: ReadonlyArray<Candidate>, probabilities: ReadonlyMap<string, number>, target: number, charsPerToken: number): string => {
  const p = new Map(probabilities)
  const left = new Set(pool)
  const chosen: Candidate[] = []
  let used = 0
  for (;;) {
    let best: Candidate | undefined
    let bestScore = -1
    for (const c of left) {
      const s = score(c, p)
      if (s > bestScore) [best, bestScore] = [c, s]
    }
    if (best === undefined) break
    left.delete(best)
    const cost = Math.ceil((best.text.length + 1) / charsPerToken)
    if (used + cost > target) continue
    chosen.push(best)
    used += cost
    for (const t of best.terms) p.set(t, p.get(t)! ** 2)
  }
  return chosen
    .sort((a, b) => a.order - b.order)
    .map((c) => c.text)
    .join('\n')
}

/**
 * The offline default {@link Summarizer} (see the module comment).
 *
 * @example
 * const summarizer = extractiveSummarizer(tokenizer)
 * await summarizer(messages, 300) // "user: Fix the flaky date test.\nassistant: called read({…})\n…"
 * @category constructors
 * @since 0.1.0
 */
export const extractiveSummarizer =
  (tokenizer: Tokenizer, options: ExtractiveOptions = {}): Summarizer =>
  async (messages, targetTokens) => {
    const all = candidates(messages, options)
    const counts = new Map<string, number>()
    let total = 0
    for (const c of all)
      for (const t of c.terms) {
        counts.set(t, (counts.get(t) ?? 0) + 1)
        total++
      }
    const p = new Map([...counts].map(([t, n]) => [t, n / total] as const))
    const pool = [...all].sort((a, b) => score(b, p) - score(a, p) || a.order - b.order).slice(0, POOL)
    let text = pick(pool, p, targetTokens, 4)
    // calibrate the chars-per-token estimate on the summary itself (code is denser than prose)
    for (let i = 0; i < 3 && text.length > 0; i++) {
      const tokens = tokenizer.count(text)
      if (tokens <= targetTokens) return text
      text = pick(pool, p, targetTokens, (text.length / tokens) * 0.95 ** (i + 1))
    }
    if (text.length > 0 || pool[0] === undefined) return text
    // not even one whole sentence fits: the best one, cut to the target
    const top = pool[0].text
    return cutText(top, targetTokens, 'head', tokenizer, targetTokens + 1)
  }
