/**
 * The LangChain.js side of `npm run bench`: `trimMessages` (strategy "last", 6,800 tokens, the budget gssc fills)
 * with the token counter of LangChain's trimming guide, built on js-tiktoken:
 *
 *     3 (every reply is primed) + Σ per message: 3 + tokens(role) + tokens(content)
 *
 * `trimMessages` is quadratic: for every candidate cut it calls the counter on the whole
 * remaining list (`_firstMaxTokens`: `tokenCounter(messages.slice(0, -i))` for i = 0, 1, …
 * over the reversed history until the count fits), and the guide's counter re-tokenizes all
 * of it. A run is stopped at a deadline and projected: the characters a full run would pass
 * to the counter are known exactly (they follow from how many turns fit), and the rate is
 * measured on the part that ran.
 *
 * @module
 */
import { AIMessage, HumanMessage, trimMessages, type BaseMessage } from '@langchain/core/messages'
import type { Tokenizer } from '../src/index.js'
import { AVAILABLE, jsTiktoken } from './core.js'
import { history, NOW } from './data.js'

/** LangChain's budget in the benchmark: the same available budget gssc fills (6,800 of 8,000; the rest is the answer's). */
export const MAX_TOKENS = AVAILABLE

/** What one `trimMessages` run did, measured or projected. */
export interface LangChainRow {
  readonly messages: number
  /** Turns kept (computed exactly, with counts equal to js-tiktoken's). */
  readonly kept: number
  /** Calls a full run makes to the counter: one per candidate cut. */
  readonly counterCalls: number
  /** Characters of message content a full run passes to the counter. */
  readonly charsPassed: number
  /** Seconds: measured when `completed`, else `charsPassed / rate`. */
  readonly seconds: number
  readonly completed: boolean
  /** Seconds actually spent, and the content characters counted in them. */
  readonly ranSeconds: number
  readonly ranChars: number
  /** Content characters per second through the guide's counter inside `trimMessages`. */
  readonly charsPerSecond: number
}

// thrown by the counter when time is up; compared by identity
const DEADLINE = new Error('trimMessages stopped at the deadline')

const role = (m: BaseMessage): string => (m.getType() === 'human' ? 'user' : m.getType() === 'ai' ? 'assistant' : m.getType() === 'system' ? 'system' : 'tool')

/**
 * How many turns `trimMessages` keeps and what a full run passes to the counter, without
 * running it: newest first, the guide's count of the newest `k` turns is
 * 3 + Σ (3 + tokens(role) + tokens(content)), and the call for cut `i` passes the newest
 * `n − i` turns. `count` must equal js-tiktoken's count (gssc's engine does, and is fast).
 */
export const plan = (contents: ReadonlyArray<string>, roles: ReadonlyArray<string>, count: (t: string) => number, maxTokens = MAX_TOKENS) => {
  const n = contents.length
  let tokens = 3
  let kept = 0
  for (let i = n - 1; i >= 0; i--) {
    tokens += 3 + count(roles[i]!) + count(contents[i]!)
    if (tokens > maxTokens) break
    kept++
  }
  // newest-first prefix sums of content length
  const newest = new Float64Array(n + 1)
  for (let k = 1; k <= n; k++) newest[k] = newest[k - 1]! + contents[n - k]!.length
  let charsPassed = 0
  for (let i = 0; i <= n - kept && n - i >= 0; i++) charsPassed += newest[n - i]!
  return { kept, counterCalls: n - kept + 1, charsPassed }
}

/**
 * Runs `trimMessages` on `n` generated turns until it finishes or `deadlineSeconds` pass,
 * and projects a stopped run. `fast` counts the plan (it must agree with js-tiktoken).
 */
export const langchainTrim = async (n: number, fast: Tokenizer, deadlineSeconds: number): Promise<LangChainRow> => {
  const turns = history(n, NOW)
  const messages = turns.map((t) => (t.role === 'user' ? new HumanMessage(t.content as string) : new AIMessage(t.content as string)))
  const contents = turns.map((t) => t.content as string)
  const p = plan(contents, turns.map((t) => (t.role === 'user' ? 'user' : 'assistant')), fast.count)
  const strTokenCounter = jsTiktoken()
  let ranChars = 0
  let deadline = Number.POSITIVE_INFINITY
  // the guide's counter, plus a clock check (every 32 messages, once some were counted, so
  // a rate can be measured) and a tally of what it saw
  const tiktokenCounter = (msgs: BaseMessage[]): number => {
    let numTokens = 3 // every reply is primed with <|start|>assistant<|message|>
    const tokensPerMessage = 3
    for (let i = 0; i < msgs.length; i++) {
      const msg = msgs[i]!
      if ((i & 31) === 31 && performance.now() > deadline) throw DEADLINE
      const content = msg.content as string
      numTokens += tokensPerMessage + strTokenCounter(role(msg)) + strTokenCounter(content)
      ranChars += content.length
    }
    return numTokens
  }
  strTokenCounter('warm up: build the encoder before timing')
  const t0 = performance.now()
  deadline = t0 + deadlineSeconds * 1000
  let completed = true
  let kept = -1
  try {
    kept = (await trimMessages(messages, { maxTokens: MAX_TOKENS, strategy: 'last', tokenCounter: tiktokenCounter })).length
  } catch (e) {
    if (e !== DEADLINE) throw e
    completed = false
  }
  const ranSeconds = (performance.now() - t0) / 1000
  if (completed && kept !== p.kept) throw new Error(`trimMessages kept ${kept} turns, the plan says ${p.kept}: the projection would be wrong`)
  const charsPerSecond = ranChars / ranSeconds
  return {
    messages: n,
    kept: p.kept,
    counterCalls: p.counterCalls,
    charsPassed: p.charsPassed,
    seconds: completed ? ranSeconds : p.charsPassed / charsPerSecond,
    completed,
    ranSeconds,
    ranChars,
    charsPerSecond,
  }
}
