/**
 * The peers of `npm run bench`, side by side on identical messages and the same available
 * budget (gssc's: 6,800 of 8,000 tokens): LangChain.js `trimMessages` with the counter of its
 * trimming guide (stopped at a deadline and projected, see `langchain.ts`) and with a
 * memoized counter, `@vscode/prompt-tsx`, priompt (`@impowering/priompt`, the only published
 * build) and a hand-written js-tiktoken newest-first pass.
 *
 * Every output is re-counted here with the exact o200k_base encoding, as the chat count of
 * LangChain's guide (3 per message, its role and its content, 3 for the reply), and checked
 * against the budget: a peer that overflows is reported as such, never silently.
 *
 * @module
 */
import { AIMessage, HumanMessage, trimMessages, type BaseMessage } from '@langchain/core/messages'
import type { SimpleMessage, Tokenizer } from '../src/index.js'
import { AVAILABLE, jsTiktoken, median } from './core.js'
import { history, NOW } from './data.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One peer at one size: what it kept, its re-counted output, and its time. */
export interface PeerRow {
  readonly peer: string
  readonly messages: number
  /** Median milliseconds (or the time of one run, for slow peers), or a projection. */
  readonly ms: number
  readonly runs: number
  /** `projected`: stopped at the deadline, time projected; `stopped`: stopped, no projection (a lower bound); `absent`: the peer's package is not installed, not run. */
  readonly status: 'measured' | 'projected' | 'stopped' | 'absent'
  readonly kept: number
  /** The output re-counted exactly (chat count); NaN when stopped. */
  readonly tokens: number
  readonly withinBudget: boolean
}

/** The chat count of LangChain's guide: 3 + Σ (3 + tokens(role) + tokens(content)). */
export const chatCount = (count: (t: string) => number, turns: ReadonlyArray<{ readonly role: string; readonly content: string }>): number =>
  turns.reduce((n, t) => n + 3 + count(t.role) + count(t.content), 3)

const turnsOf = (n: number): ReadonlyArray<{ readonly role: string; readonly content: string }> =>
  history(n, NOW).map((t: SimpleMessage) => ({ role: t.role, content: t.content as string }))

// thrown by a counter when time is up; compared by identity
const DEADLINE = new Error('stopped at the deadline')

const timed = async (runs: number, deadlineMs: number, f: () => Promise<number>): Promise<{ readonly ms: number; readonly runs: number; readonly kept: number }> => {
  const ts: number[] = []
  let kept = 0
  const until = performance.now() + deadlineMs
  for (let i = 0; i < runs && (i === 0 || performance.now() < until); i++) {
    const t0 = performance.now()
    kept = await f()
    ts.push(performance.now() - t0)
  }
  return { ms: median(ts), runs: ts.length, kept }
}

// -------------------------------------------------------------------------------------
// peers
// -------------------------------------------------------------------------------------

/**
 * `trimMessages` with a counter that memoizes each message's count (one `Map` lookup per
 * message visit): the quadratic loop stays, the re-tokenizing goes. Stopped and projected
 * past `deadlineSeconds` from the measured rate of message visits (the visits of a full run
 * follow from how many turns fit).
 */
export const langchainMemo = async (n: number, deadlineSeconds: number, budget = AVAILABLE): Promise<PeerRow> => {
  const turns = turnsOf(n)
  const messages = turns.map((t) => (t.role === 'user' ? new HumanMessage(t.content) : new AIMessage(t.content)))
  const enc = jsTiktoken()
  const memo = new Map<BaseMessage, number>()
  let visits = 0
  let deadline = Number.POSITIVE_INFINITY
  const counter = (msgs: BaseMessage[]): number => {
    let total = 3
    for (let i = 0; i < msgs.length; i++) {
      const m = msgs[i]!
      if ((i & 1023) === 1023 && performance.now() > deadline) throw DEADLINE
      let c = memo.get(m)
      if (c === undefined) memo.set(m, (c = 3 + enc(m.getType() === 'human' ? 'user' : 'assistant') + enc(m.content as string)))
      total += c
      visits++
    }
    return total
  }
  const t0 = performance.now()
  deadline = t0 + deadlineSeconds * 1000
  let kept: BaseMessage[] | undefined
  try {
    kept = await trimMessages(messages, { maxTokens: budget, strategy: 'last', tokenCounter: counter })
  } catch (e) {
    if (e !== DEADLINE) throw e
  }
  const ran = performance.now() - t0
  // the plan: k turns fit; the call for cut i passes the newest n − i turns, i = 0 … n − k
  let k = 0
  for (let total = 3, i = n - 1; i >= 0; i--) {
    total += memo.get(messages[i]!) ?? 3 + enc(turns[i]!.role) + enc(turns[i]!.content)
    if (total > budget) break
    k++
  }
  const fullVisits = Array.from({ length: n - k + 1 }, (_, i) => n - i).reduce((a, b) => a + b, 0)
  const out = turns.slice(n - (kept?.length ?? k))
  const tokens = chatCount(enc, out)
  return {
    peer: 'LangChain trimMessages, memoized counter',
    messages: n,
    ms: kept === undefined ? (ran * fullVisits) / Math.max(1, visits) : ran,
    runs: 1,
    status: kept === undefined ? 'projected' : 'measured',
    kept: kept?.length ?? k,
    tokens,
    withinBudget: tokens <= budget,
  }
}

/** A hand-written newest-first pass with js-tiktoken: the chat count, stop at the first turn that does not fit. */
export const jsTiktokenNewestFirst = async (n: number, runs: number, budget = AVAILABLE): Promise<PeerRow> => {
  const turns = turnsOf(n)
  const enc = jsTiktoken()
  enc('warm up')
  const run = async (): Promise<number> => {
    let total = 3
    let k = 0
    for (let i = n - 1; i >= 0; i--) {
      const t = 3 + enc(turns[i]!.role) + enc(turns[i]!.content)
      if (total + t > budget) break
      total += t
      k++
    }
    return k
  }
  const t = await timed(runs, 10_000, run)
  const tokens = chatCount(enc, turns.slice(n - t.kept))
  return { peer: 'js-tiktoken, newest first (hand-written)', messages: n, ms: t.ms, runs: t.runs, status: 'measured', kept: t.kept, tokens, withinBudget: tokens <= budget }
}

/**
 * priompt: one `scope` per turn with priority = its index (newer turns win), rendered by
 * priompt's `render` within the budget with its o200k tokenizer (native tiktoken).
 */
// Not a devDependency: its native tokenizer's optional platform packages are not all on the
// registry, so a lock file naming it fails `npm ci` ("Missing: @anysphere/tiktoken-node-darwin-arm64").
// `npm run bench:peers` installs it without touching the lock; without it the row says so.
const PRIOMPT = '@impowering/priompt'

export const priomptRender = async (n: number, runs: number, count: Tokenizer['count'], budget = AVAILABLE): Promise<PeerRow> => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an optional, untyped peer
  const load = async (m: string): Promise<any> => import(m).catch(() => undefined)
  const priompt = await load(PRIOMPT)
  const tokenizerModule = await load(`${PRIOMPT}/dist/tokenizer.js`)
  if (priompt === undefined || tokenizerModule === undefined)
    return { peer: 'priompt (@impowering/priompt)', messages: n, ms: Number.NaN, runs: 0, status: 'absent', kept: 0, tokens: 0, withinBudget: true }
  const { O200K } = tokenizerModule
  const turns = turnsOf(n)
  const tree = () =>
    priompt.createElement(
      'scope',
      null,
      ...turns.map((t, i) =>
        priompt.createElement('scope', { p: i + 1 }, priompt.createElement(t.role === 'user' ? priompt.UserMessage : priompt.AssistantMessage, {}, t.content)),
      ),
    )
  let kept: ReadonlyArray<{ readonly role: string; readonly content: string }> = []
  const run = async (): Promise<number> => {
    const out = await priompt.render(tree(), { tokenLimit: budget, tokenizer: O200K })
    const prompt = out.prompt as { readonly messages?: ReadonlyArray<{ readonly role: string; readonly content?: unknown }> }
    kept = (prompt.messages ?? []).map((m) => ({ role: m.role, content: String(m.content ?? '') }))
    return kept.length
  }
  const t = await timed(runs, 20_000, run)
  const tokens = chatCount(count, kept)
  return { peer: 'priompt (@impowering/priompt)', messages: n, ms: t.ms, runs: t.runs, status: 'measured', kept: t.kept, tokens, withinBudget: tokens <= budget }
}

/**
 * `@vscode/prompt-tsx`: one `UserMessage`/`AssistantMessage` per turn with priority = its
 * index, rendered by `renderPrompt` within the budget, counting with js-tiktoken (as its
 * own tests do). Stopped at the deadline (the renderer's cost is superlinear, so a stopped run
 * is reported as a lower bound, not projected).
 */
export const promptTsxRender = async (n: number, runs: number, deadlineSeconds: number, count: Tokenizer['count'], budget = AVAILABLE): Promise<PeerRow> => {
  const ptsx = await import('@vscode/prompt-tsx')
  const vscpp = (globalThis as unknown as { vscpp: (...a: unknown[]) => unknown }).vscpp
  const turns = turnsOf(n)
  const enc = jsTiktoken()
  let deadline = Number.POSITIVE_INFINITY
  const tokenizer = {
    mode: ptsx.OutputMode.Raw,
    tokenLength: (part: { readonly type: number; readonly text?: string }) => {
      if (performance.now() > deadline) throw DEADLINE
      return part.text === undefined ? 0 : enc(part.text)
    },
    // the same chat count as every other peer: 3 per message, its role, its content
    countMessageTokens: (m: { readonly role: number; readonly content: ReadonlyArray<{ readonly text?: string }> }) =>
      3 + enc(m.role === 1 ? 'user' : 'assistant') + m.content.reduce((s, p) => s + (p.text === undefined ? 0 : enc(p.text)), 0),
  }
  class History extends ptsx.PromptElement {
    override render() {
      return vscpp(
        (globalThis as unknown as { vscppf: unknown }).vscppf,
        null,
        ...turns.map((t, i) => vscpp(t.role === 'user' ? ptsx.UserMessage : ptsx.AssistantMessage, { priority: i + 1 }, t.content)),
      ) as never
    }
  }
  let kept: ReadonlyArray<{ readonly role: string; readonly content: string }> = []
  const run = async (): Promise<number> => {
    // 3 tokens prime the reply, as in the chat count
    const out = await ptsx.renderPrompt(History as never, {}, { modelMaxPromptTokens: budget - 3 }, tokenizer as never)
    kept = (out.messages as ReadonlyArray<{ readonly role: number; readonly content: ReadonlyArray<{ readonly text?: string }> }>).map((m) => ({
      role: m.role === 1 ? 'user' : 'assistant',
      content: m.content.map((p) => p.text ?? '').join(''),
    }))
    return kept.length
  }
  const t0 = performance.now()
  deadline = t0 + deadlineSeconds * 1000
  try {
    const t = await timed(runs, deadlineSeconds * 1000, run)
    const tokens = chatCount(count, kept)
    return { peer: '@vscode/prompt-tsx', messages: n, ms: t.ms, runs: t.runs, status: 'measured', kept: t.kept, tokens, withinBudget: tokens <= budget }
  } catch (e) {
    if (e !== DEADLINE) throw e
    return { peer: '@vscode/prompt-tsx', messages: n, ms: performance.now() - t0, runs: 1, status: 'stopped', kept: 0, tokens: Number.NaN, withinBudget: true }
  }
}
