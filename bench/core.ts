/**
 * The gssc side of `npm run bench`: builds, the linear floor, tokenizing every packet once,
 * and rebuilds after one appended message. Every function takes its sizes and run counts as
 * arguments, so the smoke test can run them on tiny inputs.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { Tiktoken } from 'js-tiktoken/lite'
import { build, createTokenCache, type BuildResult, type SimpleMessage, type TokenCache, type Tokenizer } from '../src/index.js'
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sessionBenchmark } from '../src/session/bench.js'
import { buildSession, type SessionBuild } from '../src/session/build.js'
import { rebuildSession } from '../src/session/incremental.js'
import { syntheticPiSession, syntheticUserLine } from '../src/session/synthetic.js'
import { sessionHistory } from '../src/session/window.js'
import { loadRanks } from '../src/tokenize/bpe.js'
import { labelsFor } from '../src/structure/labels.js'
import { relevance } from '../src/select/score.js'
import type { Packet } from '../src/packet.js'
import { evidence, history, INSTRUCTIONS, NOW, QUERY } from './data.js'

// -------------------------------------------------------------------------------------
// timing
// -------------------------------------------------------------------------------------

/** Wall-clock milliseconds of repeated runs. */
export interface Timing {
  /** Median of the timed runs. */
  readonly ms: number
  readonly min: number
  readonly runs: number
}

/** How long to keep timing: at least `minRuns` runs and `minMs` ms, at most `maxRuns` runs. */
export interface Effort {
  readonly minRuns: number
  readonly minMs: number
  readonly maxRuns: number
}

/** The median (the mean of the middle two for an even count); NaN for none. */
export const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? Number.NaN : s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

// No forced garbage collection between runs. A full collection discards code V8 compiled
// lazily, the tokenizer's pre-tokenizer regex among it (the slowdown grows with
// --no-regexp-tier-up), and the next run pays to compile it again: forcing one before each
// run made the floor 1.0 → 1.5 ms and gssc about 2× slower than a long-running process ever
// is. The collections a run triggers itself stay part of its cost.

/** Times `f` after one untimed warm-up run. */
export const time = async (effort: Effort, f: () => unknown): Promise<Timing> => {
  await f()
  const ts: number[] = []
  const until = performance.now() + effort.minMs
  while (ts.length < effort.maxRuns && (ts.length < effort.minRuns || performance.now() < until)) {
    const t0 = performance.now()
    await f()
    ts.push(performance.now() - t0)
  }
  return { ms: median(ts), min: Math.min(...ts), runs: ts.length }
}

/** Something to time, and what its last run produced. */
export interface Job<R> {
  readonly run: () => unknown
  readonly result: () => R
}

/**
 * Times several jobs in alternation (A, B, C, A, B, C, …) after one warm-up each, so a
 * change in machine load hits all of them alike: their ratios stay honest on a busy machine.
 */
export const interleave = async <K extends string>(effort: Effort, jobs: Readonly<Record<K, Job<unknown>>>): Promise<Record<K, Timing>> => {
  const keys = Object.keys(jobs) as K[]
  for (const k of keys) await jobs[k].run()
  const ts = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>
  const until = performance.now() + effort.minMs
  for (let i = 0; i < effort.maxRuns && (i < effort.minRuns || performance.now() < until); i++)
    for (const k of keys) {
      const t0 = performance.now()
      await jobs[k].run()
      ts[k].push(performance.now() - t0)
    }
  return Object.fromEntries(keys.map((k) => [k, { ms: median(ts[k]), min: Math.min(...ts[k]), runs: ts[k].length }])) as Record<K, Timing>
}

// -------------------------------------------------------------------------------------
// gssc builds
// -------------------------------------------------------------------------------------

/** The benchmark request: the given history turns, plus `passages` evidence passages (none when 0). */
export const request = (turns: ReadonlyArray<SimpleMessage>, passages: number) => ({
  query: QUERY,
  instructions: INSTRUCTIONS,
  history: turns,
  ...(passages > 0 ? { packets: evidence(passages) } : {}),
})

/** The build every row times: 8,000 tokens (6,800 available), the whole history eligible. */
export const CONFIG = { maxTokens: 8000, maxHistoryMessages: Number.POSITIVE_INFINITY } as const

const run = async (req: ReturnType<typeof request>, tokenizer: Tokenizer, cache?: TokenCache, previous?: BuildResult, rebuildable = false): Promise<BuildResult> => {
  const r = await build(req, { tokenizer, now: NOW, config: CONFIG, rebuildable, ...(cache === undefined ? {} : { cache }), ...(previous === undefined ? {} : { previous }) })()
  if (E.isLeft(r)) throw new Error(r.left.message)
  return r.right
}

/** What a gssc build produced. */
export interface BuildInfo {
  readonly kept: number
  readonly keptHistory: number
  readonly tokenCount: number
  /** The build's output. */
  readonly output: string
  /** The reported count equals a plain count of the output (checked once, untimed). */
  readonly countChecked: boolean
  readonly tokenizerCalls: number
  readonly charsTokenized: number
}

/**
 * gssc building `n` history turns (plus `passages` evidence passages) into 8,000 tokens,
 * cold: no token cache, so every count is a real tokenization.
 */
export const gsscJob = (tokenizer: Tokenizer, n: number, passages: number): Job<BuildInfo> => {
  const req = request(history(n, NOW), passages)
  let last: BuildResult | undefined
  return {
    run: async () => {
      last = await run(req, tokenizer)
    },
    result: () => {
      if (last === undefined) throw new Error('the build has not run')
      return {
        kept: last.included.length,
        keptHistory: last.included.filter((id) => id.startsWith('history:')).length,
        tokenCount: last.tokenCount,
        output: last.output,
        countChecked: last.tokenCount === tokenizer.count(last.output),
        tokenizerCalls: last.stats.tokenizerCalls,
        charsTokenized: last.stats.charsTokenized,
      }
    },
  }
}

/** One gssc build, timed on its own. */
export const gsscBuild = async (tokenizer: Tokenizer, n: number, passages: number, effort: Effort): Promise<BuildInfo & { readonly timing: Timing }> => {
  const job = gsscJob(tokenizer, n, passages)
  const timing = await time(effort, job.run)
  return { timing, ...job.result() }
}

// -------------------------------------------------------------------------------------
// floors
// -------------------------------------------------------------------------------------

/** The default `minRelevance`: passages scoring under it are left out. */
const MIN_RELEVANCE = 0.3

/** gssc's available budget under {@link CONFIG}: floor(8,000 × 0.85). */
export const AVAILABLE = 6800

/** Counts texts newest first and stops at the first that does not fit in `budget`. */
export const newestFirst = (count: (text: string) => number, turns: ReadonlyArray<string>, budget = AVAILABLE): { readonly kept: number; readonly tokens: number } => {
  let tokens = 0
  let kept = 0
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = count(turns[i]!)
    if (tokens + t > budget) break
    tokens += t
    kept++
  }
  return { kept, tokens }
}

/** js-tiktoken's own encoder for `o200k_base`, as LangChain's guide uses it. */
export const jsTiktoken = (): ((text: string) => number) => {
  const enc = new Tiktoken(loadRanks('o200k_base'))
  return (text) => enc.encode(text).length
}

/** What the floor kept, its output and the exact count of it. */
export interface FloorInfo {
  readonly kept: number
  readonly tokens: number
  /** The floor's output: the bench checks it equals gssc's, character for character. */
  readonly output?: string
}

const LABELS = labelsFor('en')

/**
 * The linear floor of a build (what `vsLinearFloor*` divides by): a hand-written builder
 * that produces gssc's output, character for character, doing the least any exact builder
 * must do for it, and nothing else:
 *
 * 1. the fixed text (instructions, task, headings, answer format, as gssc's default layout
 *    writes them) is counted once;
 * 2. history: the lines (`user: …`) are counted newest first, each once, as they will be
 *    rendered (line break included), until one does not fit;
 * 3. the output is joined and counted once, exactly (a plain count of the whole string).
 *
 * It validates and reports nothing. With `passages`, the output depends on relevance (the
 * seed's ranking: evidence fills the budget before history, best first, and a passage that
 * does not fit is skipped, not a stop), so the floor does what that output requires:
 * scores every passage with gssc's keyword relevance (`relevance(QUERY)`, the one scorer
 * the output's order comes from; recency is equal for all, they have no timestamp), drops
 * those under `minRelevance` (0.3), sorts the rest best first, then counts each line
 * (`[Source: …] …`) in that order, taking it when it fits and skipping it when not. A line
 * the tokenizer's cheap lower bound (`lowerBound`, when given; it stops once past what is
 * left) shows cannot fit is skipped without counting, as any builder that stops tokenizing
 * hopeless text would. History then
 * fills what is left, newest first.
 */
export const floorJob = (count: (text: string) => number, n: number, passages = 0, lowerBound: (text: string, above: number) => number = () => 0): Job<FloorInfo> => {
  const turns = history(n, NOW).map((t) => `${LABELS.speaker(t.role)}${t.content as string}`)
  const docs = passages > 0 ? evidence(passages) : []
  const score = relevance(QUERY)
  const head = `${LABELS.instructions}\n${INSTRUCTIONS}\n\n${LABELS.task}\n${LABELS.taskIntro}${QUERY}\n\n`
  const evidenceHead = `${LABELS.evidence}\n${LABELS.evidenceIntro}\n`
  const contextHead = `${LABELS.context}\n${LABELS.contextIntro}\n`
  const tail = `\n\n${LABELS.output}\n${LABELS.outputFormat}`
  let last: FloorInfo = { kept: 0, tokens: 0 }
  return {
    run: () => {
      let budget = AVAILABLE - count(head) - count(tail)
      const passed: string[] = []
      if (docs.length > 0) {
        const ranked: Array<{ readonly line: string; readonly rel: number; readonly i: number }> = []
        docs.forEach((d, i) => {
          const rel = score(d as Packet) ?? 0
          if (rel >= MIN_RELEVANCE) ranked.push({ line: `${LABELS.source(d.source ?? 'doc')}${d.content}`, rel, i })
        })
        ranked.sort((a, b) => b.rel - a.rel || a.i - b.i)
        budget -= count(evidenceHead)
        for (const { line } of ranked) {
          if (line.length > budget && lowerBound(line, budget) > budget) continue
          const t = count(`${line}\n`)
          if (t > budget) continue
          budget -= t
          passed.push(line)
        }
      }
      const kept: string[] = []
      let room = budget - count(contextHead)
      for (let i = turns.length - 1; i >= 0; i--) {
        const line = turns[i]!
        if (line.length > room && lowerBound(line, room) > room) break
        const t = count(`${line}\n`)
        if (t > room) break
        room -= t
        kept.push(line)
      }
      const sections = [...(passed.length > 0 ? [`${evidenceHead}${passed.join('\n')}`] : []), ...(kept.length > 0 ? [`${contextHead}${kept.reverse().join('\n')}`] : [])]
      const output = `${head}${sections.join('\n\n')}${tail}`
      last = { kept: passed.length + kept.length, tokens: count(output), output }
    },
    result: () => last,
  }
}

/** Counting only: the newest-first pass over the history's contents, no layout, no output count. */
export const countOnlyJob = (count: (text: string) => number, n: number): Job<FloorInfo> => {
  const turns = history(n, NOW).map((t) => t.content as string)
  let last: FloorInfo = { kept: 0, tokens: 0 }
  return {
    run: () => {
      last = newestFirst(count, turns)
    },
    result: () => last,
  }
}

/** The linear floor, timed on its own. */
export const linearFloor = async (count: (text: string) => number, n: number, effort: Effort): Promise<FloorInfo & { readonly timing: Timing }> => {
  const job = floorJob(count, n)
  const timing = await time(effort, job.run)
  return { timing, ...job.result() }
}

/** Issue 2's floor: tokenizing every packet once, `n` turns and `passages` passages. */
export const tokenizeAll = async (tokenizer: Tokenizer, n: number, passages: number, effort: Effort): Promise<{ readonly timing: Timing; readonly texts: number }> => {
  const texts = [...history(n, NOW).map((t) => t.content as string), ...evidence(passages).map((d) => d.content)]
  const timing = await time(effort, () => texts.reduce((s, t) => s + tokenizer.count(t), 0))
  return { timing, texts: texts.length }
}

// -------------------------------------------------------------------------------------
// rebuilds
// -------------------------------------------------------------------------------------

/** Cold build against a rebuild after one appended turn, medians of interleaved rounds. */
export interface RebuildRow {
  readonly coldMs: number
  readonly rebuildMs: number
  readonly rounds: number
  /** Tokenizer calls the rebuild made (the new turn, and the text around it). */
  readonly rebuildTokenizerCalls: number
  readonly rebuildCacheHits: number
  /** Every rebuild gave a cold build's output and count. */
  readonly checked: boolean
  /** Every rebuild appended to the previous result (`stats.rebuild.mode` `incremental`) rather than building cold. */
  readonly incremental: boolean
}

/**
 * The in-memory path: `build(request, { previous })`, the previous build's result passed
 * back in (docs/caching.md). The previous result is made once, untimed; each round times a
 * cold build of the history with one new turn appended, then the rebuild of the same request
 * from the previous result (`rebuildable: false`: it carries no data for a next link).
 * Rounds interleave, so load changes hit both sides alike, and each rebuild runs right after a
 * cold build, with its code and data out of the CPU's caches, as after other work.
 */
export const inMemoryRebuild = async (tokenizer: Tokenizer, n: number, passages: number, rounds: number): Promise<RebuildRow> => {
  const turns = history(n, NOW)
  const req = request(turns, passages)
  const cold: number[] = []
  const warm: number[] = []
  let calls = 0
  let hits = 0
  let checked = true
  let incremental = true
  // only the previous build is asked to be rebuildable; the cold builds timed are plain ones
  const previous = await run(req, tokenizer, undefined, undefined, true)
  const appended = (i: number) => ({ ...req, history: [...turns, { role: 'user' as const, content: `One more thing (${i}): the build still fails after the rename, what now?`, timestamp: NOW }] })
  // warm-up, untimed: both paths compiled before the first round, as in a long-running process
  // (a few cold builds; the rebuild's short loops need more calls than the cold build's long
  // ones before V8 optimizes them)
  const early = appended(-1)
  for (let i = 0; i < 3; i++) await run(early, tokenizer)
  for (let i = 0; i < 50; i++) await run(early, tokenizer, undefined, previous)
  // every round's request made before timing: copying a 100,000-turn array in a round
  // leaves garbage whose collection lands in whatever is timed next
  const requests = Array.from({ length: rounds }, (_, i) => appended(i))
  for (let i = 0; i < rounds; i++) {
    const grown = requests[i]!
    let t0 = performance.now()
    const c = await run(grown, tokenizer)
    cold.push(performance.now() - t0)
    t0 = performance.now()
    const r = await run(grown, tokenizer, undefined, previous)
    warm.push(performance.now() - t0)
    calls = r.stats.tokenizerCalls
    hits = r.stats.cacheHits
    checked &&= r.output === c.output && r.tokenCount === c.tokenCount
    incremental &&= r.stats.rebuild?.mode === 'incremental'
  }
  return { coldMs: median(cold), rebuildMs: median(warm), rounds, rebuildTokenizerCalls: calls, rebuildCacheHits: hits, checked, incremental }
}

/** The session path: `sessionBenchmark` (a pi session file, cold build vs incremental rebuild). */
export interface SessionRow {
  readonly coldMs: number
  readonly appendMs: number
  readonly unchangedMs: number
  readonly rounds: number
  readonly bytes: number
  readonly historyTokens: number
}

/** Medians of `rounds` session benchmarks of `n` messages. */
export const sessionRebuild = async (tokenizer: Tokenizer, n: number, rounds: number): Promise<SessionRow> => {
  const rs = []
  for (let i = 0; i < rounds; i++) {
    rs.push(await sessionBenchmark({ messages: n, tokenizer }))
  }
  return {
    coldMs: median(rs.map((r) => r.coldMs)),
    appendMs: median(rs.map((r) => r.appendMs)),
    unchangedMs: median(rs.map((r) => r.unchangedMs)),
    rounds,
    bytes: rs[0]!.bytes,
    historyTokens: rs[0]!.historyTokens,
  }
}

/** The session route end to end: a session file to a finished context, cold and after one appended line. */
export interface SessionEndToEndRow {
  readonly messages: number
  readonly bytes: number
  /** `buildSession` + `build` with `sessionHistory` and a new token cache, from nothing (the tokenizer warm). */
  readonly coldMs: number
  /** `rebuildSession` after one appended line + the same `build`, with the cold build's token cache. */
  readonly rebuildMs: number
  readonly rounds: number
  /** Every rebuild read only the appended line, and gave the output a cold build of the grown file gives. */
  readonly checked: boolean
}

const right = <A>(e: E.Either<{ readonly message: string }, A>): A => {
  if (E.isLeft(e)) throw new Error(e.left.message)
  return e.right
}

/** Messages of the session `sessionEndToEnd` warms up on. */
const WARM_UP_MESSAGES = 1000

/**
 * A pause before each timed step of a turn, as between an agent's turns (it waits for the
 * model): V8 finishes the collection the step before started, instead of charging its marking
 * to whatever runs next. Measured at 10k messages: a rebuild's context build right after the
 * cold build 3-42 ms, after a 200 ms pause 4-12 ms (2-4 ms in a loop of rebuilds); a forced
 * collection instead made it 21-44 ms (it drops compiled code, see above).
 */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 300))

/**
 * The documented route from a session file to a context (docs/sessions.md › A context every turn):
 * `buildSession` (or `rebuildSession` with the previous build) then `build` with the
 * session's window gatherer and a token cache kept across turns, timed end to end on a
 * generated pi session of `n` messages.
 */
export const sessionEndToEnd = async (tokenizer: Tokenizer, n: number, rounds: number): Promise<SessionEndToEndRow> => {
  const dir = await mkdtemp(join(tmpdir(), 'gssc-bench-session-'))
  const file = join(dir, 'session.jsonl')
  const text = `${syntheticPiSession({ messages: n }).join('\n')}\n`
  // the context build's token counts, kept from one turn to the next (a new cache at each cold build)
  const context = async (s: SessionBuild, cache: TokenCache): Promise<BuildResult> =>
    right(await build({ query: QUERY, instructions: INSTRUCTIONS }, { tokenizer, cache, now: NOW, config: CONFIG, gatherers: [sessionHistory(s)] })())
  const cold: number[] = []
  const warm: number[] = []
  let checked = true
  try {
    // warm-up, untimed, on a short session: both paths compiled before the first round, as in
    // a long-running agent (as `inMemoryRebuild` does; a rebuild's short loops need many more
    // calls than a cold build's long ones before V8 optimizes them)
    const warmUp = `${syntheticPiSession({ messages: WARM_UP_MESSAGES }).join('\n')}\n`
    for (let i = 0; i < 2; i++) {
      await writeFile(file, warmUp)
      const cache = createTokenCache()
      const first = right(await buildSession(file, { tokenizer })())
      await context(first, cache)
      await appendFile(file, `${syntheticUserLine(WARM_UP_MESSAGES, 'And now run the whole test suite again, please.')}\n`)
      for (let k = 0; k < 25; k++) await context(right(await rebuildSession(file, { tokenizer }, first)()), cache)
    }
    for (let i = 0; i < rounds; i++) {
      await writeFile(file, text)
      await settle()
      let t0 = performance.now()
      const cache = createTokenCache()
      const first = right(await buildSession(file, { tokenizer })())
      await context(first, cache)
      cold.push(performance.now() - t0)
      await appendFile(file, `${syntheticUserLine(n, 'And now run the whole test suite again, please.')}\n`)
      await settle()
      t0 = performance.now()
      const next = right(await rebuildSession(file, { tokenizer }, first)())
      const out = await context(next, cache)
      warm.push(performance.now() - t0)
      if (i === 0) checked = next.stats.mode === 'incremental' && out.output === (await context(right(await buildSession(file, { tokenizer })()), createTokenCache())).output
    }
    return { messages: n, bytes: Buffer.byteLength(text), coldMs: median(cold), rebuildMs: median(warm), rounds, checked }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
