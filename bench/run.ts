/**
 * `npm run bench`: gssc against the linear floor of its own work and against LangChain.js
 * `trimMessages`, on the same generated data, in one process.
 *
 *   npm run bench                 the tables (≈4 minutes on 2 cores)
 *   npm run bench -- --json       the same as JSON
 *   npm run bench -- --quick      shorter runs, LangChain stopped after 5 s, no cold start
 *   npm run bench -- --out r.json the tables, and the JSON written to r.json
 *   npm run bench -- --from r.json the tables of a saved run, without running anything
 *
 * Timings are medians of repeated runs after a warm-up; gssc and the floor are timed in
 * alternation, so machine load hits both alike. Compare the ratios, not the milliseconds.
 * Nothing here is asserted by the tests (test/bench only checks that the modules run).
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { createTokenizer, type Tokenizer } from '../src/index.js'
import {
  floorJob,
  gsscJob,
  inMemoryRebuild,
  interleave,
  jsTiktoken,
  median,
  sessionRebuild,
  time,
  tokenizeAll,
  type BuildInfo,
  type Effort,
  type FloorInfo,
  type RebuildRow,
  type SessionRow,
  type Timing,
} from './core.js'
import { langchainTrim, type LangChainRow } from './langchain.js'
import { peakMemory, type MemoryRow } from './memory.js'
import { coldStart, fastThroughput, type ColdStartRow, type FastThroughputRow } from './tokenizer.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One measured (or projected) line of the comparison. */
export interface Row {
  /** `gssc`, `gssc-history`, `floor`, `floor-js-tiktoken`, `langchain`, `tokenize-all`. */
  readonly id: string
  readonly label: string
  readonly messages: number
  /** Milliseconds: the median of the timed runs, or LangChain's projection. */
  readonly ms: number
  readonly projected: boolean
  readonly runs: number
  /** What the row kept or passed; row-specific. */
  readonly detail: Readonly<Record<string, number | boolean | string>>
}

/** Everything `npm run bench -- --json` prints. */
export interface BenchResult {
  readonly machine: {
    readonly node: string
    readonly cpus: number
    readonly cpuModel: string
    readonly loadavgStart: ReadonlyArray<number>
    readonly loadavgEnd: ReadonlyArray<number>
    readonly seconds: number
  }
  readonly config: {
    readonly maxTokens: number
    readonly available: number
    readonly tokenizer: string
    readonly evidencePassages: number
    readonly sizes: ReadonlyArray<number>
    /** The sizes of the headline ratios. */
    readonly headline: BenchOptions['headline']
    readonly quick: boolean
  }
  readonly rows: ReadonlyArray<Row>
  readonly ratios: {
    /** gssc (history only) ÷ the linear floor at 10,000 messages; target ≤ 2. */
    readonly vsLinearFloor10k: number
    /** gssc with 1,000 evidence passages ÷ the same floor (gssc also scores and packs the passages). */
    readonly vsLinearFloor10kWithEvidence: number
    /** trimMessages ÷ gssc (history only) at 1,000 messages; target ≥ 1,000. */
    readonly vsLangChain1k: number
    /** trimMessages ÷ gssc with 1,000 evidence passages at 1,000 messages. */
    readonly vsLangChain1kWithEvidence: number
    /** In-memory rebuild after one appended message ÷ cold build, 10,000 messages, history only; target ≤ 0.05. */
    readonly rebuildVsCold: number
    /** The same with 1,000 evidence passages in the request. */
    readonly rebuildVsColdWithEvidence: number
    /** Session path (`sessionBenchmark`): incremental rebuild ÷ cold build of a 10,000-message session file. */
    readonly rebuildVsColdSession: number
    /** gssc with evidence ÷ tokenizing all 11,000 texts once (issue 2's floor). */
    readonly vsTokenizeAll10k: number
    /** Default tokenizer (o200k_base), 100 KB of Chinese / English prose, MB/s. */
    readonly chineseMBps: number
    readonly englishMBps: number
  }
  readonly targets: ReadonlyArray<{ readonly name: string; readonly value: number; readonly target: string; readonly met: boolean }>
  readonly rebuild: { readonly inMemory: RebuildRow; readonly inMemoryWithEvidence: RebuildRow; readonly session: SessionRow }
  readonly memory: { readonly runs: ReadonlyArray<MemoryRow>; readonly peakRssMiB: number }
  readonly tokenizer: ReadonlyArray<FastThroughputRow>
  readonly coldStart: ReadonlyArray<ColdStartRow>
}

/** Options of {@link runBench}. */
export interface BenchOptions {
  readonly sizes: ReadonlyArray<number>
  readonly passages: number
  /** Seconds before a LangChain run is stopped and projected, per size. */
  readonly langchainSeconds: (messages: number) => number
  readonly effort: Effort
  readonly jsEffort: Effort
  readonly rebuildRounds: number
  readonly sessionRounds: number
  readonly memoryRuns: number
  readonly memoryMessages: number
  /** The size of the rebuild, floor and LangChain headline ratios. */
  readonly headline: { readonly floor: number; readonly langchain: number; readonly rebuild: number }
  readonly coldStart: boolean
  readonly quick: boolean
  readonly progress: (line: string) => void
}

/** The full benchmark (`npm run bench`). */
export const FULL: BenchOptions = {
  sizes: [100, 1000, 10_000, 50_000],
  passages: 1000,
  langchainSeconds: (n) => (n <= 1000 ? 60 : 20),
  effort: { minRuns: 15, minMs: 1500, maxRuns: 200 },
  jsEffort: { minRuns: 3, minMs: 300, maxRuns: 15 },
  rebuildRounds: 25,
  sessionRounds: 5,
  memoryRuns: 3,
  memoryMessages: 50_000,
  headline: { floor: 10_000, langchain: 1000, rebuild: 10_000 },
  coldStart: true,
  quick: false,
  progress: (line) => process.stderr.write(`${line}\n`),
}

/** `--quick`: the same rows with shorter runs, LangChain stopped after 5 s, no cold start. */
export const QUICK: BenchOptions = {
  ...FULL,
  langchainSeconds: () => 5,
  effort: { minRuns: 5, minMs: 300, maxRuns: 50 },
  jsEffort: { minRuns: 1, minMs: 0, maxRuns: 3 },
  rebuildRounds: 7,
  sessionRounds: 1,
  memoryRuns: 1,
  coldStart: false,
  quick: true,
}

// -------------------------------------------------------------------------------------
// run
// -------------------------------------------------------------------------------------

const n = (x: number): string => x.toLocaleString('en')

/** Runs every measurement of `options` and returns the result. */
export const runBench = async (options: BenchOptions): Promise<BenchResult> => {
  const started = performance.now()
  const loadavgStart = loadavg()
  const say = options.progress
  const tokenizerE = createTokenizer('gpt-4o')
  if (E.isLeft(tokenizerE)) throw new Error(tokenizerE.left.message)
  const tokenizer: Tokenizer = tokenizerE.right
  tokenizer.count('warm up: load the o200k_base ranks before timing')
  const js = jsTiktoken()
  js('warm up: build the js-tiktoken encoder before timing')

  const rows: Row[] = []
  const builds = new Map<string, { timing: Timing; info: BuildInfo }>()
  const floors = new Map<number, { timing: Timing; info: FloorInfo }>()
  for (const size of options.sizes) {
    say(`gssc and the linear floor, ${n(size)} messages`)
    const jobs = { gssc: gsscJob(tokenizer, size, options.passages), history: gsscJob(tokenizer, size, 0), floor: floorJob(tokenizer.count, size) }
    const t = await interleave(options.effort, jobs)
    const full = { timing: t.gssc, info: jobs.gssc.result() }
    const hist = { timing: t.history, info: jobs.history.result() }
    const floor = { timing: t.floor, info: jobs.floor.result() }
    builds.set(`gssc:${size}`, full)
    builds.set(`history:${size}`, hist)
    floors.set(size, floor)
    const jsFloor = floorJob(js, size)
    const jsTiming = await time(options.jsEffort, jsFloor.run)
    rows.push(
      buildRow('gssc', `gssc: history + ${n(options.passages)} evidence`, size, full),
      buildRow('gssc-history', 'gssc: history only', size, hist),
      { id: 'floor', label: 'linear floor (gssc tokenizer)', messages: size, ms: floor.timing.ms, projected: false, runs: floor.timing.runs, detail: { ...floor.info } },
      { id: 'floor-js-tiktoken', label: 'linear floor (js-tiktoken)', messages: size, ms: jsTiming.ms, projected: false, runs: jsTiming.runs, detail: { ...jsFloor.result() } },
    )
  }

  const lc = new Map<number, LangChainRow>()
  for (const size of options.sizes) {
    const cap = options.langchainSeconds(size)
    say(`LangChain trimMessages, ${n(size)} messages (stopped and projected after ${cap} s)`)
    const r = await langchainTrim(size, tokenizer, cap)
    lc.set(size, r)
    rows.push({
      id: 'langchain',
      label: 'LangChain trimMessages',
      messages: size,
      ms: r.seconds * 1000,
      projected: !r.completed,
      runs: 1,
      detail: { kept: r.kept, counterCalls: r.counterCalls, charsPassed: r.charsPassed, ranSeconds: r.ranSeconds, ranChars: r.ranChars, charsPerSecond: r.charsPerSecond },
    })
  }

  const h = options.headline
  say(`tokenizing every packet once, ${n(h.floor)} messages + ${n(options.passages)} passages`)
  const all = await tokenizeAll(tokenizer, h.floor, options.passages, options.effort)
  rows.push({ id: 'tokenize-all', label: 'tokenize every packet once', messages: h.floor, ms: all.timing.ms, projected: false, runs: all.timing.runs, detail: { texts: all.texts } })

  say(`rebuild after one appended message, ${n(h.rebuild)} messages: in memory, then the session path`)
  const inMemory = await inMemoryRebuild(tokenizer, h.rebuild, 0, options.rebuildRounds)
  const inMemoryWithEvidence = await inMemoryRebuild(tokenizer, h.rebuild, options.passages, options.rebuildRounds)
  const session = await sessionRebuild(tokenizer, h.rebuild, options.sessionRounds)

  say(`peak memory, ${n(options.memoryMessages)} messages + ${n(options.passages)} passages (fresh child process × ${options.memoryRuns})`)
  const memoryRuns = Array.from({ length: options.memoryRuns }, () => peakMemory(options.memoryMessages, options.passages))

  say('tokenizer throughput (o200k_base, 100 KB of English and of Chinese prose)')
  const throughput = fastThroughput('o200k_base', ['english prose', 'chinese prose'], 100_000, options.quick ? 200 : 600)
  const cold = options.coldStart ? (say('cold start: process start → first count (child processes)'), coldStart(['o200k_base'])) : []

  const hist = (size: number) => builds.get(`history:${size}`)!.timing.ms
  const full = (size: number) => builds.get(`gssc:${size}`)!.timing.ms
  const floorMs = floors.get(h.floor)!.timing.ms
  const lcMs = lc.get(h.langchain)!.seconds * 1000
  const mbps = (corpus: string) => throughput.find((r) => r.corpus === corpus)?.MBps ?? Number.NaN
  const ratios = {
    vsLinearFloor10k: hist(h.floor) / floorMs,
    vsLinearFloor10kWithEvidence: full(h.floor) / floorMs,
    vsLangChain1k: lcMs / hist(h.langchain),
    vsLangChain1kWithEvidence: lcMs / full(h.langchain),
    rebuildVsCold: inMemory.rebuildMs / inMemory.coldMs,
    rebuildVsColdWithEvidence: inMemoryWithEvidence.rebuildMs / inMemoryWithEvidence.coldMs,
    rebuildVsColdSession: session.appendMs / session.coldMs,
    vsTokenizeAll10k: full(h.floor) / all.timing.ms,
    chineseMBps: mbps('chinese prose'),
    englishMBps: mbps('english prose'),
  }
  const peakRssMiB = median(memoryRuns.map((m) => m.peakRssMiB))
  return {
    machine: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      loadavgStart,
      loadavgEnd: loadavg(),
      seconds: (performance.now() - started) / 1000,
    },
    config: { maxTokens: 8000, available: 6800, tokenizer: tokenizer.name, evidencePassages: options.passages, sizes: options.sizes, headline: options.headline, quick: options.quick },
    rows,
    ratios,
    targets: [
      { name: `gssc (history only) ÷ linear floor, ${n(h.floor)} messages`, value: ratios.vsLinearFloor10k, target: '≤ 2', met: ratios.vsLinearFloor10k <= 2 },
      { name: `trimMessages ÷ gssc (history only), ${n(h.langchain)} messages`, value: ratios.vsLangChain1k, target: '≥ 1,000', met: ratios.vsLangChain1k >= 1000 },
      { name: `in-memory rebuild ÷ cold build, ${n(h.rebuild)} messages`, value: ratios.rebuildVsCold, target: '≤ 5%', met: ratios.rebuildVsCold <= 0.05 },
      { name: `session rebuild ÷ cold session build, ${n(h.rebuild)} messages`, value: ratios.rebuildVsColdSession, target: '≤ 5%', met: ratios.rebuildVsColdSession <= 0.05 },
      { name: `peak memory above baseline, ${n(options.memoryMessages)} messages (MiB)`, value: peakRssMiB, target: 'reported', met: Number.isFinite(peakRssMiB) },
    ],
    rebuild: { inMemory, inMemoryWithEvidence, session },
    memory: { runs: memoryRuns, peakRssMiB },
    tokenizer: throughput,
    coldStart: cold,
  }
}

const buildRow = (id: string, label: string, size: number, b: { timing: Timing; info: BuildInfo }): Row => ({
  id,
  label,
  messages: size,
  ms: b.timing.ms,
  projected: false,
  runs: b.timing.runs,
  detail: { ...b.info },
})

// -------------------------------------------------------------------------------------
// format
// -------------------------------------------------------------------------------------

const duration = (ms: number): string =>
  ms < 10
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

const times = (x: number): string => (x >= 100 ? `${n(Math.round(x))}×` : `${x.toFixed(x >= 10 ? 1 : 2)}×`)

const table = (header: ReadonlyArray<string>, lines: ReadonlyArray<ReadonlyArray<string>>): string =>
  [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...lines.map((l) => `| ${l.join(' | ')} |`)].join('\n')

/** The result as Markdown tables (what `npm run bench` prints). */
export const formatBench = (r: BenchResult): string => {
  const get = (id: string, size: number) => r.rows.find((x) => x.id === id && x.messages === size)
  const main = table(
    ['history messages', `gssc + ${n(r.config.evidencePassages)} evidence`, 'gssc, history only', 'linear floor', 'floor, js-tiktoken', 'LangChain trimMessages', 'gssc history ÷ floor', 'LangChain ÷ gssc history'],
    r.config.sizes.map((size) => {
      const g = get('gssc', size)!
      const hist = get('gssc-history', size)!
      const floor = get('floor', size)!
      const js = get('floor-js-tiktoken', size)!
      const lc = get('langchain', size)!
      return [
        n(size),
        duration(g.ms),
        duration(hist.ms),
        duration(floor.ms),
        duration(js.ms),
        `${lc.projected ? '≈ ' : ''}${duration(lc.ms)}${lc.projected ? ' (projected)' : ''}`,
        times(hist.ms / floor.ms),
        times(lc.ms / hist.ms),
      ]
    }),
  )
  const kept = table(
    ['history messages', 'gssc kept (history turns)', 'gssc history-only kept', 'floor kept', 'tokens in output', 'LangChain kept', 'LangChain counter calls', 'chars LangChain tokenizes'],
    r.config.sizes.map((size) => {
      const g = get('gssc', size)!.detail
      const hist = get('gssc-history', size)!.detail
      const lc = get('langchain', size)!.detail
      return [n(size), `${g['kept']} (${g['keptHistory']})`, String(hist['kept']), String(get('floor', size)!.detail['kept']), `${g['tokenCount']} / ${hist['tokenCount']}`, String(lc['kept']), n(Number(lc['counterCalls'])), n(Number(lc['charsPassed']))]
    }),
  )
  const { inMemory, inMemoryWithEvidence, session } = r.rebuild
  const rebuild = table(
    ['rebuild after one appended message', 'cold', 'rebuild', 'rebuild ÷ cold'],
    [
      [`in memory, shared TokenCache: ${n(r.config.headline.rebuild)} messages, history only`, duration(inMemory.coldMs), duration(inMemory.rebuildMs), `${(100 * r.ratios.rebuildVsCold).toFixed(1)}%`],
      [`in memory, shared TokenCache: + ${n(r.config.evidencePassages)} evidence`, duration(inMemoryWithEvidence.coldMs), duration(inMemoryWithEvidence.rebuildMs), `${(100 * r.ratios.rebuildVsColdWithEvidence).toFixed(1)}%`],
      [`session file (pi, ${(session.bytes / 1e6).toFixed(1)} MB, ${n(session.historyTokens)} tokens)`, duration(session.coldMs), duration(session.appendMs), `${(100 * r.ratios.rebuildVsColdSession).toFixed(1)}%`],
    ],
  )
  const mem = r.memory.runs[0]
  const other = table(
    ['measure', 'value'],
    [
      [
        `tokenize every packet once (${n(r.config.headline.floor)} + ${n(r.config.evidencePassages)} texts)`,
        `${duration(get('tokenize-all', r.config.headline.floor)?.ms ?? Number.NaN)}; gssc with evidence takes ${times(r.ratios.vsTokenizeAll10k)} of it`,
      ],
      ...r.tokenizer.map((t) => [`o200k_base, ${t.corpus} (${(t.bytes / 1000).toFixed(0)} KB)`, `${t.MBps.toFixed(1)} MB/s (first sight ${t.firstSightMBps.toFixed(1)} MB/s)`]),
      ...(mem === undefined
        ? []
        : [[`peak memory, ${n(mem.messages)} messages + ${n(mem.passages)} evidence (fresh process)`, `+${r.memory.peakRssMiB.toFixed(1)} MiB RSS above ${mem.baseRssMiB.toFixed(0)} MiB (input ${mem.inputMiB.toFixed(0)} MiB of heap; ${mem.heapGrowthMiB.toFixed(1)} MiB allocated, ${mem.retainedMiB.toFixed(2)} MiB retained; first build ${duration(mem.buildMs)})`]]),
      ...r.coldStart.map((c) => [`cold start, process start → first count (${c.encoding})`, `${c.fastMs.toFixed(0)} ms (bare node ${c.bareNodeMs.toFixed(0)} ms, js-tiktoken ${c.jsTiktokenMs.toFixed(0)} ms)`]),
    ],
  )
  const targets = table(
    ['target', 'measured', 'goal', 'met'],
    r.targets.map((t) => [t.name, t.name.includes('MiB') ? t.value.toFixed(1) : t.target.endsWith('%') ? `${(100 * t.value).toFixed(1)}%` : times(t.value), t.target, t.met ? 'yes' : 'no']),
  )
  const m = r.machine
  return [
    `gssc benchmark: ${m.node}, ${m.cpus} × ${m.cpuModel}, load average ${m.loadavgStart.map((x) => x.toFixed(2)).join(' ')} at start, ${m.loadavgEnd.map((x) => x.toFixed(2)).join(' ')} at end; ${m.seconds.toFixed(0)} s${r.config.quick ? ' (--quick)' : ''}`,
    `Budget ${n(r.config.maxTokens)} tokens (gssc and the floor fill ${n(r.config.available)}: 15% is reserved for the answer), ${r.config.tokenizer}. Medians of repeated runs.`,
    '',
    main,
    '',
    kept,
    '',
    rebuild,
    '',
    other,
    '',
    targets,
  ].join('\n')
}

const main = async (): Promise<void> => {
  const args = process.argv.slice(2)
  const json = args.includes('--json')
  const out = args.includes('--out') ? args[args.indexOf('--out') + 1] : undefined
  const from = args.includes('--from') ? args[args.indexOf('--from') + 1] : undefined
  const options = args.includes('--quick') ? QUICK : FULL
  const result = from === undefined ? await runBench(options) : (JSON.parse(readFileSync(from, 'utf8')) as BenchResult)
  if (out !== undefined) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`)
  console.log(json ? JSON.stringify(result, null, 2) : formatBench(result))
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main()
