/**
 * `npm run bench`: gssc against the linear floor of its own work and against its peers, on
 * the same generated data and the same available budget, in one process (start-up and
 * memory in child processes).
 *
 *   npm run bench                 every measure (≈10 minutes on 2 cores); writes
 *                                 bench/results.md and the README's performance table
 *   npm run bench -- --json       the same as JSON: { machine, config, ratios, targets, … }
 *   npm run bench -- --quick      fewer runs and sizes (under a minute); writes nothing
 *   npm run bench -- --out r.json the tables, and the JSON written to r.json
 *   npm run bench -- --from r.json the tables of a saved run, without running anything
 *   npm run bench -- --from r.json --write
 *                                 and writes them, as the full run that saved r.json would
 *                                 have (a quick run's are refused: they are not the targets' run)
 *
 * The modules run compiled as the package's build compiles gssc (esbuild, names not kept), by
 * `scripts/bench-loader.mjs`: under tsx every closure a build makes would pay for its name.
 * Timings are medians of repeated runs after a warm-up; what a ratio compares is timed in
 * alternation, so machine load hits both sides alike. Compare the ratios, not the
 * milliseconds. Nothing here is asserted by the tests (test/bench only runs the modules).
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { match } from 'ts-pattern'
import { createTokenizer, type Tokenizer } from '../src/index.js'
import { batchSpeedup, type BatchRow } from './batch.js'
import { startup, type StartupRow } from './cli.js'
import {
  AVAILABLE,
  countOnlyJob,
  floorJob,
  gsscJob,
  inMemoryRebuild,
  interleave,
  sessionEndToEnd,
  type Effort,
  type RebuildRow,
  type SessionEndToEndRow,
  type Timing,
} from './core.js'
import { fitRow, type FitRow } from './fit.js'
import { langchainTrim } from './langchain.js'
import { session200, type Session200Row } from './memory.js'
import { jsTiktokenNewestFirst, langchainMemo, priomptRender, promptTsxRender, type PeerRow } from './peers.js'
import { peerThroughput, type PeerThroughputRow } from './tokenizer.js'
import { unusedTokens, type UnusedRow } from './unused.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** gssc and its floors at one size. */
export interface BuildRow {
  readonly messages: number
  readonly gsscMs: number
  readonly floorMs: number
  /** Counting only: the newest-first pass over contents, no layout and no output count. */
  readonly countOnlyMs: number
  readonly runs: number
  readonly kept: number
  readonly floorKept: number
  readonly tokenCount: number
  /** gssc's reported count equals a plain count of its output, within the budget. */
  readonly countChecked: boolean
}

/** The ratio keys `npm run bench -- --json` prints under `ratios` (NaN: not measured in this run). */
export interface Ratios {
  readonly vsLinearFloor10k: number
  readonly vsLinearFloor100k: number
  readonly vsLinearFloor10kWithEvidence: number
  readonly rebuildVsCold10k: number
  readonly rebuildVsCold100k: number
  readonly rebuildVsColdSession10k: number
  readonly rebuildVsColdSession100k: number
  readonly build1MVs10k: number
  readonly cliHelpVsNode: number
  readonly cliBuildVsNode: number
  readonly importMs: number
  readonly coldFirstCountMs: number
  readonly peakRssMB200MBSession: number
  readonly session200MBSeconds: number
  readonly unusedTokensMean: number
  readonly chineseMBps: number
  readonly englishMBps: number
  readonly vsBestPeerTokenizer: number
  /** Not targets: gssc against counting alone, and against the peers at 1,000 messages. */
  readonly vsCountOnly10k: number
  /** `fitMessages` on 10,000 OpenAI messages with tool calls, against its floor (issue 11). */
  readonly fitMessages10kVsFloor: number
  /** `gssc batch`: one worker's time over one per core's. */
  readonly batchSpeedup: number
  /** The same for pure computation on worker threads: what this machine's cores give at most (`BatchRow.machineSpeedup`). */
  readonly machineSpeedup: number
  /** The same for reads at random over 16 MiB, memory-bound as a tokenizer's memos are. */
  readonly machineMemorySpeedup: number
  readonly langchainGuideVsGssc1k: number
  readonly langchainMemoVsGssc1k: number
}

/** Everything `npm run bench -- --json` prints. */
export interface BenchResult {
  readonly machine: {
    readonly node: string
    readonly cpus: number
    readonly cpuModel: string
    readonly memoryGiB: number
    readonly platform: string
    readonly loadavgStart: ReadonlyArray<number>
    readonly loadavgEnd: ReadonlyArray<number>
    readonly seconds: number
  }
  readonly config: { readonly maxTokens: number; readonly available: number; readonly tokenizer: string; readonly evidencePassages: number; readonly quick: boolean }
  readonly ratios: Ratios
  readonly targets: ReadonlyArray<{ readonly key: keyof Ratios; readonly value: number; readonly target: string; readonly met: boolean }>
  readonly builds: ReadonlyArray<BuildRow>
  readonly withEvidence: BuildRow
  readonly build1M?: { readonly ms1M: number; readonly ms10k: number; readonly runs: number }
  readonly peers: ReadonlyArray<PeerRow>
  readonly rebuild: ReadonlyArray<RebuildRow & { readonly messages: number }>
  readonly session: ReadonlyArray<SessionEndToEndRow>
  readonly startup?: StartupRow
  readonly tokenizer: ReadonlyArray<PeerThroughputRow>
  readonly unused: UnusedRow
  readonly session200?: Session200Row
  readonly fit: ReadonlyArray<FitRow>
  readonly batch?: BatchRow
}

/** Options of {@link runBench}. */
export interface BenchOptions {
  readonly sizes: ReadonlyArray<number>
  readonly peerSizes: ReadonlyArray<number>
  readonly slowPeerSizes: ReadonlyArray<number>
  readonly passages: number
  readonly effort: Effort
  /** Seconds before a LangChain or prompt-tsx run is stopped. */
  readonly deadlineSeconds: number
  readonly peerRuns: number
  readonly rebuildSizes: ReadonlyArray<number>
  readonly rebuildRounds: number
  readonly sessionSizes: ReadonlyArray<number>
  readonly sessionRounds: number
  readonly million: boolean
  readonly startupRounds: number
  readonly unusedBuilds: number
  readonly tokenizerMs: number
  /** `fitMessages` sizes (OpenAI messages with tool calls). */
  readonly fitSizes: ReadonlyArray<number>
  /** `gssc batch`: files, messages per file, rounds (files 0: skipped). */
  readonly batch: { readonly files: number; readonly messages: number; readonly rounds: number }
  /** Bytes of the big-session run (0: skipped). */
  readonly bigSessionBytes: number
  readonly quick: boolean
  readonly progress: (line: string) => void
}

/** The full benchmark (`npm run bench`). */
export const FULL: BenchOptions = {
  sizes: [1000, 10_000, 100_000],
  peerSizes: [1000, 10_000, 100_000],
  slowPeerSizes: [1000, 10_000, 100_000],
  passages: 1000,
  effort: { minRuns: 30, minMs: 3000, maxRuns: 400 },
  deadlineSeconds: 20,
  peerRuns: 5,
  rebuildSizes: [10_000, 100_000],
  rebuildRounds: 25,
  sessionSizes: [10_000, 100_000],
  sessionRounds: 3,
  million: true,
  startupRounds: 9,
  unusedBuilds: 300,
  tokenizerMs: 600,
  fitSizes: [10_000],
  batch: { files: 16, messages: 5000, rounds: 3 },
  bigSessionBytes: 200e6,
  quick: false,
  progress: (line) => process.stderr.write(`${line}\n`),
}

/** `--quick`: fewer runs and sizes, no 1M build, no big session; under a minute. */
export const QUICK: BenchOptions = {
  ...FULL,
  sizes: [1000, 10_000, 100_000],
  peerSizes: [1000, 10_000],
  slowPeerSizes: [1000],
  effort: { minRuns: 8, minMs: 400, maxRuns: 60 },
  deadlineSeconds: 1,
  peerRuns: 1,
  rebuildSizes: [10_000],
  rebuildRounds: 7,
  sessionSizes: [10_000],
  sessionRounds: 1,
  million: false,
  startupRounds: 3,
  unusedBuilds: 60,
  tokenizerMs: 100,
  batch: { files: 4, messages: 1000, rounds: 1 },
  bigSessionBytes: 0,
  quick: true,
}

// -------------------------------------------------------------------------------------
// run
// -------------------------------------------------------------------------------------

const n = (x: number): string => x.toLocaleString('en')

const floorRow = async (tokenizer: Tokenizer, size: number, passages: number, effort: Effort): Promise<BuildRow> => {
  const jobs = { gssc: gsscJob(tokenizer, size, passages), floor: floorJob(tokenizer.count, size, passages, (text, above) => tokenizer.lowerBound(text, above)), count: countOnlyJob(tokenizer.count, size) }
  const t: Record<'gssc' | 'floor' | 'count', Timing> = await interleave(effort, jobs)
  const g = jobs.gssc.result()
  const f = jobs.floor.result()
  // the floor is a floor of this very output: the same text, so the same count
  if (f.output !== g.output) throw new Error(`the linear floor's output differs from gssc's at ${n(size)} messages and ${n(passages)} passages`)
  return {
    messages: size,
    gsscMs: t.gssc.ms,
    floorMs: t.floor.ms,
    countOnlyMs: t.count.ms,
    runs: t.gssc.runs,
    kept: g.kept,
    floorKept: f.kept,
    tokenCount: g.tokenCount,
    countChecked: g.countChecked && g.tokenCount <= AVAILABLE,
  }
}

/** Runs every measurement of `options` and returns the result. */
export const runBench = async (options: BenchOptions): Promise<BenchResult> => {
  const started = performance.now()
  const loadavgStart = loadavg()
  const say = options.progress
  const tokenizerE = createTokenizer('gpt-4o')
  if (E.isLeft(tokenizerE)) throw new Error(tokenizerE.left.message)
  const tokenizer: Tokenizer = tokenizerE.right
  await tokenizer.ready?.()
  tokenizer.count('warm up: load the o200k_base tables before timing')

  const builds: BuildRow[] = []
  for (const size of options.sizes) {
    say(`gssc and its linear floor, ${n(size)} messages`)
    builds.push(await floorRow(tokenizer, size, 0, options.effort))
  }
  say(`gssc with ${n(options.passages)} evidence passages and its floor, 10,000 messages`)
  const withEvidence = await floorRow(tokenizer, 10_000, options.passages, options.effort)

  const fit: FitRow[] = []
  for (const size of options.fitSizes) {
    say(`fitMessages and its floor, ${n(size)} OpenAI messages with tool calls`)
    fit.push(await fitRow(tokenizer, size, options.effort))
  }

  let build1M: BenchResult['build1M']
  if (options.million) {
    say('gssc at 1,000,000 messages against 10,000')
    const t = await interleave(options.effort, { big: gsscJob(tokenizer, 1_000_000, 0), small: gsscJob(tokenizer, 10_000, 0) })
    build1M = { ms1M: t.big.ms, ms10k: t.small.ms, runs: t.big.runs }
  }

  const peers: PeerRow[] = []
  for (const size of options.peerSizes) {
    say(`peers, ${n(size)} messages`)
    peers.push(await jsTiktokenNewestFirst(size, options.peerRuns * 3))
    peers.push(await priomptRender(size, options.peerRuns, tokenizer.count))
    const lc = await langchainTrim(size, tokenizer, options.deadlineSeconds)
    peers.push({
      peer: "LangChain trimMessages, the guide's counter",
      messages: size,
      ms: lc.seconds * 1000,
      runs: 1,
      status: lc.completed ? 'measured' : 'projected',
      kept: lc.kept,
      tokens: Number.NaN,
      withinBudget: true,
    })
    if (options.slowPeerSizes.includes(size)) {
      peers.push(await langchainMemo(size, options.deadlineSeconds))
      peers.push(await promptTsxRender(size, options.peerRuns, options.deadlineSeconds, tokenizer.count))
    }
  }

  const rebuild: Array<RebuildRow & { readonly messages: number }> = []
  for (const size of options.rebuildSizes) {
    say(`in-memory rebuild after one appended message, ${n(size)} messages`)
    rebuild.push({ messages: size, ...(await inMemoryRebuild(tokenizer, size, 0, options.rebuildRounds)) })
  }
  const session: SessionEndToEndRow[] = []
  for (const size of options.sessionSizes) {
    say(`session file to context, cold and after one appended line, ${n(size)} messages`)
    session.push(await sessionEndToEnd(tokenizer, size, options.sessionRounds))
  }

  say('start-up: --help, a small build, import, first count (child processes)')
  const start = options.startupRounds > 0 ? startup(options.startupRounds) : undefined
  say('tokenizer throughput against gpt-tokenizer and tiktoken WASM (100 KB of English and of Chinese prose)')
  const tok = await peerThroughput(['english prose', 'chinese prose'], 100_000, options.tokenizerMs)
  say(`unused tokens, ${options.unusedBuilds} random builds`)
  const unused = await unusedTokens(tokenizer, options.unusedBuilds)
  let batch: BatchRow | undefined
  if (options.batch.files > 0) {
    say(`gssc batch, ${options.batch.files} sessions of ${n(options.batch.messages)} messages, 1 worker and one per core (child processes)`)
    batch = await batchSpeedup(options.batch.files, options.batch.messages, options.batch.rounds)
  }
  let big: Session200Row | undefined
  if (options.bigSessionBytes > 0) {
    say(`a ${(options.bigSessionBytes / 1e6).toFixed(0)} MB session through gssc build --session --json (child process)`)
    big = session200(options.bigSessionBytes)
  }

  const at = (size: number) => builds.find((b) => b.messages === size)
  const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? Number.NaN : a / b)
  const rb = (size: number) => rebuild.find((r) => r.messages === size)
  const ss = (size: number) => session.find((r) => r.messages === size)
  const mbps = (corpus: string) => tok.find((r) => r.corpus === corpus)
  const peerMs = (peer: string, size: number) => peers.find((p) => p.peer.startsWith(peer) && p.messages === size)?.ms
  const ratios: Ratios = {
    vsLinearFloor10k: ratio(at(10_000)?.gsscMs, at(10_000)?.floorMs),
    vsLinearFloor100k: ratio(at(100_000)?.gsscMs, at(100_000)?.floorMs),
    vsLinearFloor10kWithEvidence: withEvidence.gsscMs / withEvidence.floorMs,
    rebuildVsCold10k: ratio(rb(10_000)?.rebuildMs, rb(10_000)?.coldMs),
    rebuildVsCold100k: ratio(rb(100_000)?.rebuildMs, rb(100_000)?.coldMs),
    rebuildVsColdSession10k: ratio(ss(10_000)?.rebuildMs, ss(10_000)?.coldMs),
    rebuildVsColdSession100k: ratio(ss(100_000)?.rebuildMs, ss(100_000)?.coldMs),
    build1MVs10k: ratio(build1M?.ms1M, build1M?.ms10k),
    cliHelpVsNode: ratio(start?.helpMs, start?.bareNodeMs),
    cliBuildVsNode: ratio(start?.buildMs, start?.bareNodeMs),
    importMs: start?.importMs ?? Number.NaN,
    coldFirstCountMs: start?.firstCountMs ?? Number.NaN,
    peakRssMB200MBSession: big?.peakRssMB ?? Number.NaN,
    session200MBSeconds: big?.seconds ?? Number.NaN,
    unusedTokensMean: unused.meanUnused,
    chineseMBps: mbps('chinese prose')?.gsscMBps ?? Number.NaN,
    englishMBps: mbps('english prose')?.gsscMBps ?? Number.NaN,
    vsBestPeerTokenizer: Math.min(...tok.map((r) => r.gsscMBps / Math.max(r.gptTokenizerMBps, r.tiktokenWasmMBps))),
    vsCountOnly10k: ratio(at(10_000)?.gsscMs, at(10_000)?.countOnlyMs),
    fitMessages10kVsFloor: ratio(fit.find((f) => f.messages === 10_000)?.fitMs, fit.find((f) => f.messages === 10_000)?.floorMs),
    batchSpeedup: batch?.speedup ?? Number.NaN,
    machineSpeedup: batch?.machineSpeedup.compute ?? Number.NaN,
    machineMemorySpeedup: batch?.machineSpeedup.memory ?? Number.NaN,
    langchainGuideVsGssc1k: ratio(peerMs('LangChain trimMessages, the guide', 1000), at(1000)?.gsscMs),
    langchainMemoVsGssc1k: ratio(peerMs('LangChain trimMessages, memoized', 1000), at(1000)?.gsscMs),
  }
  const goal = (key: keyof Ratios, target: string, met: (v: number) => boolean) => ({ key, value: ratios[key], target, met: Number.isFinite(ratios[key]) && met(ratios[key]) })
  const targets = [
    goal('vsLinearFloor10k', '≤ 1.3', (v) => v <= 1.3),
    goal('vsLinearFloor100k', '≤ 1.3', (v) => v <= 1.3),
    goal('vsLinearFloor10kWithEvidence', '≤ 1.3', (v) => v <= 1.3),
    goal('rebuildVsCold10k', '≤ 0.05', (v) => v <= 0.05),
    goal('rebuildVsCold100k', '≤ 0.05', (v) => v <= 0.05),
    goal('rebuildVsColdSession10k', '≤ 0.05', (v) => v <= 0.05),
    goal('rebuildVsColdSession100k', '≤ 0.05', (v) => v <= 0.05),
    goal('build1MVs10k', '≤ 2', (v) => v <= 2),
    goal('cliHelpVsNode', '≤ 1.5', (v) => v <= 1.5),
    goal('cliBuildVsNode', '≤ 2.5', (v) => v <= 2.5),
    goal('importMs', '≤ 60', (v) => v <= 60),
    goal('coldFirstCountMs', '≤ 150', (v) => v <= 150),
    goal('peakRssMB200MBSession', '≤ 512', (v) => v <= 512),
    goal('session200MBSeconds', '≤ 10', (v) => v <= 10),
    goal('unusedTokensMean', '≤ 1', (v) => v <= 1),
    goal('vsBestPeerTokenizer', '≥ 1', (v) => v >= 1),
  ]
  return {
    machine: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memoryGiB: totalmem() / 2 ** 30,
      platform: `${process.platform} ${process.arch}`,
      loadavgStart,
      loadavgEnd: loadavg(),
      seconds: (performance.now() - started) / 1000,
    },
    config: { maxTokens: 8000, available: AVAILABLE, tokenizer: tokenizer.name, evidencePassages: options.passages, quick: options.quick },
    ratios,
    targets,
    builds,
    withEvidence,
    ...(build1M === undefined ? {} : { build1M }),
    peers,
    rebuild,
    session,
    ...(start === undefined ? {} : { startup: start }),
    tokenizer: tok,
    unused,
    ...(big === undefined ? {} : { session200: big }),
    fit,
    ...(batch === undefined ? {} : { batch }),
  }
}

// -------------------------------------------------------------------------------------
// format
// -------------------------------------------------------------------------------------

const duration = (ms: number): string =>
  !Number.isFinite(ms)
    ? '—'
    : ms < 10
      ? `${ms.toFixed(2)} ms`
      : ms < 1000
        ? `${ms.toFixed(1)} ms`
        : ms < 120_000
          ? `${(ms / 1000).toFixed(1)} s`
          : ms < 7_200_000
            ? `${(ms / 60_000).toFixed(0)} min`
            : ms < 172_800_000
              ? `${(ms / 3_600_000).toFixed(1)} h`
              : `${(ms / 86_400_000).toFixed(1)} days`

const value = (x: number): string => (!Number.isFinite(x) ? 'not run' : Math.abs(x) >= 100 ? n(Math.round(x)) : x.toFixed(x >= 10 ? 1 : x >= 1 ? 2 : 3))

const table = (header: ReadonlyArray<string>, lines: ReadonlyArray<ReadonlyArray<string>>): string =>
  [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...lines.map((l) => `| ${l.join(' | ')} |`)].join('\n')

/** The machine the result comes from, in one line. */
export const machineLine = (r: BenchResult): string => {
  const m = r.machine
  return `${m.node}, ${m.platform}, ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB.toFixed(1)} GiB; load average ${m.loadavgStart.map((x) => x.toFixed(2)).join(' ')} at start, ${m.loadavgEnd.map((x) => x.toFixed(2)).join(' ')} at end; ${m.seconds.toFixed(0)} s${r.config.quick ? ' (--quick)' : ''}`
}

/** The peers table: every peer at every size, side by side with gssc and the floor. */
export const peersTable = (r: BenchResult): string => {
  const sizes = [...new Set(r.peers.map((p) => p.messages))]
  const names = [...new Set(r.peers.map((p) => p.peer))]
  const kept = (p: PeerRow): string => `, ${p.kept} kept${Number.isFinite(p.tokens) ? `, ${n(p.tokens)} tokens${p.withinBudget ? '' : ' OVER BUDGET'}` : ''}`
  const cell = (p: PeerRow | undefined): string =>
    p === undefined
      ? '—'
      : match(p.status)
          .with('measured', () => `${duration(p.ms)}${kept(p)}`)
          .with('projected', () => `≈ ${duration(p.ms)} (projected)${kept(p)}`)
          .with('stopped', () => `> ${duration(p.ms)} (stopped)`)
          .with('absent', () => 'not installed (`npm run bench:peers`)')
          .exhaustive()
  const gssc = (size: number) => r.builds.find((b) => b.messages === size)
  return table(
    ['', ...sizes.map((s) => `${n(s)} messages`)],
    [
      ['gssc `build` (default text layout)', ...sizes.map((s) => (gssc(s) === undefined ? '—' : `${duration(gssc(s)!.gsscMs)}, ${gssc(s)!.kept} kept, ${n(gssc(s)!.tokenCount)} tokens`))],
      ['linear floor (gssc tokenizer)', ...sizes.map((s) => (gssc(s) === undefined ? '—' : `${duration(gssc(s)!.floorMs)}, ${gssc(s)!.floorKept} kept`))],
      ...names.map((name) => [name, ...sizes.map((s) => cell(r.peers.find((p) => p.peer === name && p.messages === s)))]),
    ],
  )
}

/** The result as Markdown (what `npm run bench` prints and writes to bench/results.md). */
export const formatBench = (r: BenchResult): string => {
  const targets = table(
    ['key', 'measured', 'target', 'met'],
    r.targets.map((t) => [`\`${t.key}\``, value(t.value), t.target, !Number.isFinite(t.value) ? 'not run' : t.met ? 'yes' : 'no']),
  )
  const floors = table(
    ['history messages', 'gssc', 'linear floor', 'counting only', 'gssc ÷ floor', 'kept (gssc / floor)', 'tokens', 'count = plain count'],
    [...r.builds, { ...r.withEvidence, messages: Number.NaN }].map((b) => [
      Number.isNaN(b.messages) ? `10,000 + ${n(r.config.evidencePassages)} evidence` : n(b.messages),
      duration(b.gsscMs),
      duration(b.floorMs),
      duration(b.countOnlyMs),
      value(b.gsscMs / b.floorMs),
      `${b.kept} / ${b.floorKept}`,
      n(b.tokenCount),
      b.countChecked ? 'yes' : 'NO',
    ]),
  )
  const fits = table(
    ['OpenAI messages with tool calls', '`fitMessages`', 'linear floor', 'ratio', 'kept (fitMessages / floor)', 'tokens', 'count = countOpenAI'],
    r.fit.map((f) => [n(f.messages), duration(f.fitMs), duration(f.floorMs), value(f.fitMs / f.floorMs), `${f.kept} / ${f.floorKept}`, n(f.tokenCount), f.countChecked ? 'yes' : 'NO']),
  )
  const rebuilds = table(
    ['rebuild after one appended message', 'cold', 'rebuild', 'ratio'],
    [
      ...r.rebuild.map((x) => [`in memory (\`build\` with the previous result as \`previous\`), ${n(x.messages)} messages${x.checked ? '' : ' (CHECK FAILED)'}${x.incremental ? '' : ' (built cold)'}`, duration(x.coldMs), duration(x.rebuildMs), value(x.rebuildMs / x.coldMs)]),
      ...r.session.map((x) => [`session file to context (\`rebuildSession\` + \`build\` with \`sessionHistory\`), ${n(x.messages)} messages, ${(x.bytes / 1e6).toFixed(1)} MB${x.checked ? '' : ' (CHECK FAILED)'}`, duration(x.coldMs), duration(x.rebuildMs), value(x.rebuildMs / x.coldMs)]),
    ],
  )
  const s = r.startup
  const other = table(
    ['measure', 'value'],
    [
      ...(r.build1M === undefined ? [] : [['build at 1,000,000 messages / at 10,000', `${duration(r.build1M.ms1M)} / ${duration(r.build1M.ms10k)}`]]),
      ...(s === undefined
        ? []
        : [
            ['bare `node -e 0`, spawn to exit', duration(s.bareNodeMs)],
            ['`gssc --help`', duration(s.helpMs)],
            ['`gssc build` (12 turns, 2,000 tokens)', duration(s.buildMs)],
            ['`import("gssc")`', duration(s.importMs)],
            ['process start → first o200k count (`gssc/tokenize`)', duration(s.firstCountMs)],
          ]),
      ...r.tokenizer.map((t) => [`o200k_base, ${t.corpus} (${(t.bytes / 1000).toFixed(0)} KB): gssc / gpt-tokenizer / tiktoken WASM`, `${t.gsscMBps.toFixed(1)} / ${t.gptTokenizerMBps.toFixed(1)} / ${t.tiktokenWasmMBps.toFixed(1)} MB/s`]),
      [`unused tokens while an older turn would fit (${r.unused.builds} random builds)`, `${r.unused.leftOutFitting} builds left one out; mean ${value(r.unused.meanUnused)} tokens over all builds`],
      ...(r.batch === undefined
        ? []
        : [[`\`gssc batch\`, ${r.batch.files} sessions of ${n(r.batch.messagesPerFile)} messages: 1 worker / ${r.batch.cores} (one per core)`, `${duration(r.batch.oneWorkerMs)} / ${duration(r.batch.allCoresMs)}: ${value(r.batch.speedup)}× ${r.batch.checked ? '' : '(OUTPUTS DIFFER)'}`],
            [
              `the machine's own speed-up, 1 to ${r.batch.cores} threads (what the row above can reach): arithmetic / reads at random over 16 MiB`,
              r.batch.machineSpeedup === undefined ? '—' : `${value(r.batch.machineSpeedup.compute)}× / ${value(r.batch.machineSpeedup.memory)}×`,
            ],
          ]),
      ...(r.session200 === undefined ? [] : [[`${(r.session200.bytes / 1e6).toFixed(0)} MB session, \`gssc build --session --json\``, `${r.session200.seconds.toFixed(1)} s, ${r.session200.peakRssMB.toFixed(0)} MB peak RSS, ${(r.session200.jsonBytes / 1e6).toFixed(2)} MB of JSON`]]),
    ],
  )
  return [
    `gssc benchmark: ${machineLine(r)}`,
    `Budget ${n(r.config.maxTokens)} tokens: every builder fills the same ${n(r.config.available)} (15% is the answer's), ${r.config.tokenizer}. Medians of repeated runs, interleaved.`,
    '',
    targets,
    '',
    peersTable(r),
    '',
    floors,
    '',
    fits,
    '',
    rebuilds,
    '',
    other,
  ].join('\n')
}

// -------------------------------------------------------------------------------------
// main
// -------------------------------------------------------------------------------------

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const START = '<!-- bench:start -->'
const END = '<!-- bench:end -->'

/** The README's table: the machine and every target, measured; the rest is in bench/results.md. */
export const readmeTable = (r: BenchResult): string =>
  [
    `Last full run: ${machineLine(r)}.`,
    '',
    table(
      ['measure', 'measured', 'target', 'met'],
      r.targets.map((t) => [`\`${t.key}\``, value(t.value), t.target, !Number.isFinite(t.value) ? 'not run' : t.met ? 'yes' : 'no']),
    ),
  ].join('\n')

/**
 * `text` with `body` between the bench markers. Markers that are missing are added: after
 * the `## Performance` heading, or in a new section at the end.
 */
export const betweenMarkers = (text: string, body: string): string => {
  const a = text.indexOf(START)
  const b = text.indexOf(END)
  if (a >= 0 && b > a) return `${text.slice(0, a + START.length)}\n${body}\n${text.slice(b)}`
  const heading = /^## Performance[^\n]*\n/m.exec(text)
  const block = `${START}\n${body}\n${END}\n`
  return heading === null ? `${text.trimEnd()}\n\n## Performance\n\n${block}` : `${text.slice(0, heading.index + heading[0].length)}\n${block}${text.slice(heading.index + heading[0].length)}`
}

/**
 * Writes bench/results.md (every table) and the README's table (between the bench markers)
 * from a full run, under `root` (default: this repository).
 */
export const writeResults = (r: BenchResult, root = ROOT): void => {
  if (r.config.quick) throw new Error('a quick run (--quick) is not written: bench/results.md and the README show a full run')
  writeFileSync(resolve(root, 'bench', 'results.md'), `# Benchmark results\n\nWritten by \`npm run bench\` (a full run); rerun it to refresh. What each row measures: [bench/run.ts](run.ts) and the modules beside it.\n\n${formatBench(r)}\n`)
  const readme = resolve(root, 'README.md')
  writeFileSync(readme, betweenMarkers(readFileSync(readme, 'utf8'), readmeTable(r)))
}

const main = async (): Promise<void> => {
  const args = process.argv.slice(2)
  const json = args.includes('--json')
  const out = args.includes('--out') ? args[args.indexOf('--out') + 1] : undefined
  const from = args.includes('--from') ? args[args.indexOf('--from') + 1] : undefined
  const options = args.includes('--quick') ? QUICK : FULL
  const result = from === undefined ? await runBench(options) : (JSON.parse(readFileSync(from, 'utf8')) as BenchResult)
  if (out !== undefined) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`)
  if (from === undefined ? !options.quick : args.includes('--write')) writeResults(result)
  console.log(json ? JSON.stringify(result, null, 2) : formatBench(result))
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main()
