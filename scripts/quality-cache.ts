/**
 * `npm run quality:cache`: the figures behind docs/caching.md.
 *
 * A simulated 50-turn conversation on real data: the first 50 user prompts of the pi fixture
 * `large-session.jsonl` are the questions, the session's own turns before each prompt (tool
 * calls and results included) its history, three tool outputs of the fixtures (a different
 * three each turn) the retrieved evidence, and a line of task state. Each turn is built as a
 * request; for each, the share of its tokens that are a byte-identical prefix of the previous
 * turn's request — measured here on the outputs themselves (the longest common prefix of two
 * text prompts; the leading messages two requests share, breakpoints aside), independently of
 * the build's own `prefix` report, which is checked against it.
 *
 * Layouts: for a text prompt the seed's `sectioned()` (today's default) against `stable()`;
 * for messages `chat()` (the default) with the OpenAI and the Anthropic renderer. Once with
 * the whole history kept (nothing older dropped), once within a budget that drops the oldest
 * turns as the conversation grows.
 *
 * Run: npm run quality:cache
 */
import { resolve } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { anthropicRenderer, openaiRenderer } from '../src/formats.js'
import type { Renderer } from '../src/output.js'
import { build } from '../src/pipeline.js'
import { countAnthropic, countOpenAI } from '../src/render/count.js'
import { REQUEST_OVERHEAD } from '../src/render/cost.js'
import type { AnthropicRequest, OpenAIMessage } from '../src/render/wire.js'
import type { BuildResult } from '../src/report.js'
import { unitKey } from '../src/report/prefix.js'
import { buildSession } from '../src/session/index.js'
import { stable } from '../src/structure/stable.js'
import type { Structurer } from '../src/structure/structurer.js'
import { loadEncoding } from '../src/tokenize/ranks.js'
import { encodingTokenizer, type Tokenizer } from '../src/tokenize/tokenizer.js'
import { FIXTURES, toolOutputs } from './toolOutputs.js'

const TURNS = 50
const SYSTEM = [
  'You are a coding agent working in the user’s repository.',
  'Read files before changing them, run the tests after every change, and say what you changed and why.',
  'Use the retrieved documents when they answer the question; say so when they do not.',
].join('\n')

type Kind = 'text' | 'openai' | 'anthropic'
interface Layout {
  readonly name: string
  readonly kind: Kind
  readonly structurer?: Structurer
  readonly renderer?: Renderer<unknown>
}
const LAYOUTS: ReadonlyArray<Layout> = [
  { name: 'text, sectioned() (default)', kind: 'text' },
  { name: 'text, stable()', kind: 'text', structurer: stable() },
  { name: 'OpenAI, chat() (default)', kind: 'openai', renderer: openaiRenderer() as Renderer<unknown> },
  { name: 'Anthropic, chat() (default)', kind: 'anthropic', renderer: anthropicRenderer() as Renderer<unknown> },
]

/** Tokens of the byte-identical prefix `current` shares with `previous`, measured on the outputs. */
const sharedTokens = (kind: Kind, previous: unknown, current: unknown, tokenizer: Tokenizer): number => {
  if (kind === 'text') {
    const a = previous as string
    const b = current as string
    let n = 0
    while (n < a.length && n < b.length && a.charCodeAt(n) === b.charCodeAt(n)) n++
    return tokenizer.count(b.slice(0, n))
  }
  const units = (o: unknown): ReadonlyArray<unknown> =>
    kind === 'openai' ? (o as OpenAIMessage[]) : [...((o as AnthropicRequest).system === undefined ? [] : [(o as AnthropicRequest).system]), ...(o as AnthropicRequest).messages]
  const a = units(previous).map(unitKey)
  const b = units(current).map(unitKey)
  let k = 0
  while (k < a.length && k < b.length && a[k] === b[k]) k++
  if (kind === 'openai') return countOpenAI((current as OpenAIMessage[]).slice(0, k), tokenizer) - REQUEST_OVERHEAD
  const r = current as AnthropicRequest
  const system = r.system === undefined ? 0 : 1
  return countAnthropic({ ...(r.system !== undefined && k > 0 ? { system: r.system } : {}), messages: r.messages.slice(0, Math.max(0, k - system)) }, tokenizer) - REQUEST_OVERHEAD
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`
const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? 0 : s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

const main = async (): Promise<void> => {
  await loadEncoding('o200k_base')
  const tokenizer = encodingTokenizer('o200k_base')
  const session = await buildSession(resolve(FIXTURES, 'pi/large-session.jsonl'), { tokenizer })()
  if (E.isLeft(session)) throw new Error(session.left.message)
  const items = session.right.history.items
  const prompts = items.flatMap((it, i) => (it.message.role === 'user' && it.message.parts.some((p) => p._tag === 'Text') ? [i] : [])).slice(0, TURNS)
  const outputs = (await toolOutputs()).filter((o) => o.text.trim().length > 200)
  const requests = prompts.map((at, t) => ({
    query: items[at]!.message.parts.flatMap((p) => (p._tag === 'Text' ? [p.text] : [])).join('\n'),
    instructions: SYSTEM,
    history: items.slice(0, at).map((it) => it.message),
    packets: [
      ...[0, 1, 2].map((k) => {
        const o = outputs[(3 * t + k) % outputs.length]!
        return { type: 'evidence' as const, content: o.text.slice(0, 1500), source: o.hint.path ?? o.tool, relevance: 0.9 - k / 10 }
      }),
      { type: 'task_state' as const, content: `turn ${t + 1} of ${TURNS}; files touched so far: ${t}` },
    ],
  }))

  console.log(`Cache-stable prefixes: ${TURNS} turns of pi/large-session.jsonl (o200k_base), three retrieved documents and a state line per turn.`)
  console.log('Share of each turn’s tokens that is a byte-identical prefix of the previous turn’s request (turns 2–50):\n')
  for (const budget of [{ name: 'whole history (nothing older dropped)', maxTokens: 400_000 }, { name: 'budget 16,000 tokens (oldest turns dropped)', maxTokens: 16_000 }]) {
    console.log(`${budget.name}`)
    console.log('layout                          mean    median  min     turns ≥ 90%  ≥ 90% where the request grew < 10%  report agrees  tokens at turn 50')
    for (const layout of LAYOUTS) {
      let previous: BuildResult<unknown> | undefined
      const shares: number[] = []
      // turns whose request grew by less than a tenth: no layout can share more than the rest
      const small: boolean[] = []
      let agrees = 0
      let last = 0
      for (const req of requests) {
        const options = {
          tokenizer,
          now: 0,
          config: { maxTokens: budget.maxTokens, maxHistoryMessages: Number.POSITIVE_INFINITY, reserveRatio: 0 },
          ...(layout.structurer === undefined ? {} : { structurer: layout.structurer }),
          ...(previous === undefined ? {} : { previous }),
        }
        const built = await (layout.renderer === undefined ? build(req, options) : build<unknown>(req, { ...options, renderer: layout.renderer }))()
        if (E.isLeft(built)) throw new Error(built.left.message)
        const r = built.right as BuildResult<unknown>
        if (previous !== undefined) {
          const shared = sharedTokens(layout.kind, previous.output, r.output, tokenizer)
          shares.push(shared / r.tokenCount)
          small.push(r.tokenCount - previous.tokenCount < r.tokenCount / 10)
          // the report's figure: the same messages; for text, the same text up to the last whole unit
          const reported = r.prefix.identical?.tokens ?? 0
          if (layout.kind === 'text' ? reported <= shared && shared - reported < 64 : reported === shared) agrees++
        }
        last = r.tokenCount
        previous = r
      }
      const mean = shares.reduce((s, x) => s + x, 0) / shares.length
      const high = shares.filter((x) => x >= 0.9).length
      const smallHigh = shares.filter((x, i) => small[i] && x >= 0.9).length
      if (process.env['GSSC_TURNS'] === '1') console.log(shares.map((x, i) => `${i + 2}:${pct(x)}`).join(' '))
      console.log(
        `${layout.name.padEnd(31)} ${pct(mean).padStart(6)}  ${pct(median(shares)).padStart(6)}  ${pct(Math.min(...shares)).padStart(6)}  ${`${high}/${shares.length}`.padStart(11)}  ${`${smallHigh}/${small.filter(Boolean).length}`.padStart(35)}  ${`${agrees}/${shares.length}`.padStart(13)}  ${String(last).padStart(17)}`,
      )
    }
    console.log('')
  }
}

await main()
