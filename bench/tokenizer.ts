/**
 * Tokenizer benchmark: js-tiktoken against gssc's fast BPE engine, on English prose, Chinese
 * prose, code and JSON (≈100 KB each, generated from a seeded PRNG), on a set of ≈200-char chat
 * messages, and cold start (process start → first count) in a child `node` process.
 *
 * Run: `npx tsx bench/tokenizer.ts`. `bench/run.ts` can call {@link tokenizerBench}.
 *
 * @module
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Tiktoken } from 'js-tiktoken/lite'
import { loadRanks, type EncodingName } from '../src/tokenize/bpe.js'
import { fastBpe } from '../src/tokenize/fastBpe.js'
import { ensureDist } from './cli.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Throughput of one engine on one corpus. */
export interface ThroughputRow {
  readonly encoding: EncodingName
  readonly corpus: string
  readonly bytes: number
  readonly tokens: number
  /** 10^6 UTF-8 bytes per second, median of the timed runs. */
  readonly jsTiktokenMBps: number
  readonly fastMBps: number
  /**
   * fastBpe on its first sight of the input: a fresh engine (loaded beforehand), so its merge
   * memo is empty; median of 3 engines.
   */
  readonly fastFirstMBps: number
}

/** Process start → first count of a ≈200-char message, median of 5 child processes. */
export interface ColdStartRow {
  readonly encoding: EncodingName
  readonly bareNodeMs: number
  readonly jsTiktokenMs: number
  readonly fastMs: number
}

/** Everything {@link tokenizerBench} measures. */
export interface TokenizerBenchResult {
  readonly throughput: ReadonlyArray<ThroughputRow>
  readonly coldStart: ReadonlyArray<ColdStartRow>
}

// -------------------------------------------------------------------------------------
// corpora
// -------------------------------------------------------------------------------------

type Rng = () => number

const mulberry32 =
  (seed: number): Rng =>
  () => {
    let t = (seed = (seed + 0x6d2b79f5) | 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

const pick = <A>(rng: Rng, xs: ReadonlyArray<A>): A => xs[Math.floor(rng() * xs.length)]!
// Zipf-like: low indexes far more often than high ones.
const zipf = <A>(rng: Rng, xs: ReadonlyArray<A>): A => xs[Math.floor(xs.length * rng() ** 3)]!

const EN =
  'the of and to a in is it you that he was for on are with as his they be at one have this from or had by word but what some we can out other were all there when up use your how said an each she which do their time if will way about many then them write would like so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find any new work part take get place made live where after back little only round man year came show every good me give our under name very through just form sentence great think say help low line differ turn cause much mean before move right boy old too same tell does set three want air well also play small end put home read hand port large spell add even land here must big high such follow act why ask men change went light kind off need house picture try us again animal point mother world near build self earth father'.split(
    ' ',
  )
const SYLLABLES = 'ka lo mi ren tas vor el qui dra fen ost ulm pra zet ix na bel cor'.split(' ')

const englishSentence = (rng: Rng): string => {
  const words = Array.from({ length: 6 + Math.floor(rng() * 14) }, () => {
    const r = rng()
    if (r < 0.03) return Array.from({ length: 2 + Math.floor(rng() * 3) }, () => pick(rng, SYLLABLES)).join('')
    if (r < 0.035) return String(Math.floor(rng() * 100000))
    if (r < 0.04) return pick(rng, ['e.g.', 'i.e.', 'etc.', 'U.S.', 'API', 'HTTP/2', "don't", "it's"])
    return zipf(rng, EN)
  })
  const s = words.map((w, i) => (i > 2 && i < words.length - 1 && rng() < 0.08 ? `${w},` : w)).join(' ')
  return s.charAt(0).toUpperCase() + s.slice(1) + pick(rng, ['.', '.', '.', '?', '!'])
}

const ZH_WORDS =
  '我们 你们 他们 这个 那个 什么 因为 所以 但是 如果 已经 可以 需要 问题 时候 工作 发展 社会 经济 国家 人民 政府 公司 市场 技术 系统 数据 模型 用户 服务 管理 研究 教育 文化 历史 世界 中国 北京 上海 城市 农村 环境 能源 科学 医疗 健康 生活 学生 老师 学校 孩子 家庭 朋友 时间 今天 明天 昨天 现在 未来 过去 重要 主要 基本 一般 特别 非常 比较 进行 提供 支持 实现 提高 增加 减少 保持 解决 认为 表示 知道 觉得 希望 开始 结束 继续 包括 通过 根据 关于 对于 之间 以后 以前 其中 方面 情况 方法 过程 结果 目标 计划 政策 改革 开放 创新 合作 安全 质量 标准 能力 水平 条件 影响 作用 关系 部分 全部 一些 许多 各种 每个 所有 的 了 在 是 和 有 也 就 都 而 及 与 或 被 把 让 给 对 从 向 到 上 下 中 大 小 多 少 新 老 好 高 长'.split(
    ' ',
  )
const ZH_PUNCT = ['，', '，', '，', '。', '。', '、', '；', '：', '！', '？']

const chineseSentence = (rng: Rng): string => {
  const parts = Array.from({ length: 8 + Math.floor(rng() * 24) }, (_, i) => {
    const r = rng()
    const word = r < 0.03 ? pick(rng, [' API ', ' Node.js ', ' GPT-4o ', '2024年', ' 10%']) : zipf(rng, ZH_WORDS)
    return i > 0 && rng() < 0.12 ? pick(rng, ZH_PUNCT) + word : word
  })
  return parts.join('') + pick(rng, ['。', '。', '！', '？'])
}

const IDENT = 'user item list value result config token count index node text data map key id name path file options'.split(' ')

const camel = (rng: Rng): string =>
  Array.from({ length: 1 + Math.floor(rng() * 3) }, (_, i) => {
    const w = pick(rng, IDENT)
    return i === 0 ? w : w[0]!.toUpperCase() + w.slice(1)
  }).join('')

const codeBlock = (rng: Rng): string => {
  const fn = camel(rng)
  const args = Array.from({ length: Math.floor(rng() * 3) + 1 }, () => camel(rng))
  const body = Array.from({ length: 2 + Math.floor(rng() * 6) }, () =>
    pick(rng, [
      () => `  const ${camel(rng)} = ${pick(rng, args)}.${camel(rng)}(${Math.floor(rng() * 1000)})`,
      () => `  if (${pick(rng, args)} === undefined) return ${pick(rng, ['null', '[]', '0', `'${camel(rng)}'`])}`,
      () => `  // ${englishSentence(rng).toLowerCase()}`,
      () => `  for (let i = 0; i < ${pick(rng, args)}.length; i++) ${camel(rng)}.push(${pick(rng, args)}[i])`,
      () => `  await ${camel(rng)}({ ${camel(rng)}: ${pick(rng, args)}, retries: ${Math.floor(rng() * 5)} })`,
    ])(),
  )
  return `export const ${fn} = async (${args.map((a) => `${a}: ${pick(rng, ['string', 'number', 'Options', 'ReadonlyArray<Item>'])}`).join(', ')}) => {\n${body.join('\n')}\n}\n`
}

const jsonBlock = (rng: Rng): string =>
  JSON.stringify(
    {
      tool: pick(rng, ['read', 'grep', 'ls', 'bash']),
      ok: rng() < 0.9,
      files: Array.from({ length: 1 + Math.floor(rng() * 4) }, () => ({
        path: `src/${camel(rng)}/${camel(rng)}.ts`,
        size: Math.floor(rng() * 100000),
        modified: new Date(1.7e12 + Math.floor(rng() * 3e10)).toISOString(),
        matches: Array.from({ length: Math.floor(rng() * 3) }, () => ({ line: Math.floor(rng() * 900), text: englishSentence(rng) })),
      })),
    },
    null,
    2,
  ) + '\n'

const utf8Length = (s: string): number => Buffer.byteLength(s, 'utf8')

const grow = (rng: Rng, bytes: number, unit: (rng: Rng) => string, sep: string): string => {
  const out: string[] = []
  let size = 0
  while (size < bytes) {
    const s = unit(rng)
    out.push(s)
    size += utf8Length(s) + sep.length
  }
  return out.join(sep)
}

const paragraphs = (sentence: (rng: Rng) => string, sep: string) => (rng: Rng) =>
  Array.from({ length: 3 + Math.floor(rng() * 5) }, () => sentence(rng)).join(sep)

/** The benchmark corpora, ≈`bytes` UTF-8 bytes each, the same on every run. */
export const corpora = (bytes = 100_000): ReadonlyArray<{ readonly name: string; readonly text: string }> => [
  { name: 'english prose', text: grow(mulberry32(1), bytes, paragraphs(englishSentence, ' '), '\n\n') },
  { name: 'chinese prose', text: grow(mulberry32(2), bytes, paragraphs(chineseSentence, ''), '\n\n') },
  { name: 'code', text: grow(mulberry32(3), bytes, codeBlock, '\n') },
  { name: 'json', text: grow(mulberry32(4), bytes, jsonBlock, '') },
]

/** ≈200-char chat messages: 80% English, 10% code, 5% JSON, 5% Chinese. */
export const chatMessages = (count = 2000): ReadonlyArray<string> => {
  const rng = mulberry32(5)
  return Array.from({ length: count }, () => {
    const r = rng()
    const unit = r < 0.8 ? englishSentence : r < 0.9 ? codeBlock : r < 0.95 ? jsonBlock : chineseSentence
    const long = grow(rng, 200, unit, ' ')
    return long.slice(0, 200)
  })
}

// -------------------------------------------------------------------------------------
// throughput
// -------------------------------------------------------------------------------------

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

// Median seconds per run of `f`, after one warm-up, over at least `minRuns` runs and `minMs`.
const timeIt = (f: () => void, minRuns = 5, minMs = 400): number => {
  f()
  const times: number[] = []
  const until = performance.now() + minMs
  while (times.length < minRuns || performance.now() < until) {
    const t0 = performance.now()
    f()
    times.push((performance.now() - t0) / 1000)
  }
  return median(times)
}

// Text whose lookups reach far more than 256 pages of a packed rank table, so that the rest
// of it is read in one call (`rankPages.ts`): random letters, none of the corpora's words.
const scattered = (): string => {
  const rng = mulberry32(97)
  return Array.from({ length: 40_000 }, () => Array.from({ length: 2 + Math.floor(rng() * 6) }, () => String.fromCharCode(97 + Math.floor(rng() * 26))).join('')).join(' ')
}

// Seconds for a fresh engine to count `texts` once. Loading happens before the clock starts:
// the whole rank table (read by another engine: tables are shared, memos are not), and the
// character table (built once 64 KiB of non-ASCII text has merged).
const firstSight = (encoding: EncodingName, texts: ReadonlyArray<string>): number => {
  fastBpe(encoding).count(scattered())
  const fresh = fastBpe(encoding)
  fresh.count(`load the tables: ${'鬣狗鳄鱼犰狳'.repeat(4000)}`)
  const t0 = performance.now()
  texts.forEach((t) => fresh.count(t))
  return (performance.now() - t0) / 1000
}

const throughput = (encoding: EncodingName): ReadonlyArray<ThroughputRow> => {
  const reference = new Tiktoken(loadRanks(encoding))
  const fast = fastBpe(encoding)
  const messages = chatMessages()
  const inputs: ReadonlyArray<{ readonly name: string; readonly texts: ReadonlyArray<string> }> = [
    ...corpora().map((c) => ({ name: c.name, texts: [c.text] })),
    { name: `${messages.length} chat messages`, texts: messages },
  ]
  return inputs.map(({ name, texts }) => {
    const bytes = texts.reduce((n, t) => n + utf8Length(t), 0)
    const tokens = texts.reduce((n, t) => n + reference.encode(t, [], []).length, 0)
    const fastTokens = texts.reduce((n, t) => n + fast.count(t), 0)
    if (fastTokens !== tokens) throw new Error(`${encoding} ${name}: fastBpe counted ${fastTokens}, js-tiktoken ${tokens}`)
    const slow = timeIt(() => texts.forEach((t) => reference.encode(t, [], [])), 3)
    const quick = timeIt(() => texts.forEach((t) => fast.count(t)))
    const first = median(Array.from({ length: 3 }, () => firstSight(encoding, texts)))
    return {
      encoding,
      corpus: name,
      bytes,
      tokens,
      jsTiktokenMBps: bytes / slow / 1e6,
      fastMBps: bytes / quick / 1e6,
      fastFirstMBps: bytes / first / 1e6,
    }
  })
}

/** Throughput of gssc's default engine on one corpus. */
export interface FastThroughputRow {
  readonly encoding: EncodingName
  readonly corpus: string
  readonly bytes: number
  readonly tokens: number
  /** 10^6 UTF-8 bytes per second, median of the timed runs. */
  readonly MBps: number
  /** The same, for a fresh engine's first sight of the text (empty merge memo). */
  readonly firstSightMBps: number
}

/**
 * The fast engine's MB/s on some of the {@link corpora} (≈`bytes` each), for `npm run bench`:
 * no js-tiktoken timing (its Chinese runs take seconds), but its count of each corpus is
 * checked once against the engine's.
 *
 * @category bench
 */
export const fastThroughput = (
  encoding: EncodingName,
  names: ReadonlyArray<string> = ['english prose', 'chinese prose'],
  bytes = 100_000,
  minMs = 400,
): ReadonlyArray<FastThroughputRow> => {
  const reference = new Tiktoken(loadRanks(encoding))
  const fast = fastBpe(encoding)
  return corpora(bytes)
    .filter((c) => names.includes(c.name))
    .map(({ name, text }) => {
      const size = utf8Length(text)
      const tokens = fast.count(text)
      const expected = reference.encode(text, [], []).length
      if (tokens !== expected) throw new Error(`${encoding} ${name}: fastBpe counted ${tokens}, js-tiktoken ${expected}`)
      const seconds = timeIt(() => fast.count(text), 5, minMs)
      const first = median(Array.from({ length: 3 }, () => firstSight(encoding, [text])))
      return { encoding, corpus: name, bytes: size, tokens, MBps: size / seconds / 1e6, firstSightMBps: size / first / 1e6 }
    })
}

// -------------------------------------------------------------------------------------
// cold start
// -------------------------------------------------------------------------------------

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const MESSAGE = 'Please summarise the build failure in the log below and suggest a fix. 构建失败的原因是缺少编译脚本。'

// Child processes run the shipped files (`dist/tokenize`, rebuilt first when a source is newer:
// `ensureDist`), which find their packed rank tables beside them as an installed package does.
// (A copy of the engine transpiled into a temporary folder found no `dist/ranks` there and
// measured the slow fallback that decodes js-tiktoken's module instead.)
const childMs = (dir: string, script: string): number => {
  const file = join(dir, `child-${Math.random().toString(36).slice(2)}.mjs`)
  writeFileSync(file, `${script}\nconsole.log(performance.now())\n`)
  const run = (): number => {
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`cold start child failed: ${r.stderr}`)
    return Number(r.stdout.trim().split('\n').pop())
  }
  run() // warm the file system cache
  return median(Array.from({ length: 5 }, run))
}

/**
 * Process start → first count of a ≈200-char message in child processes: bare node,
 * js-tiktoken and gssc's engine, median of 5 after one warm-up each.
 *
 * @category bench
 */
export const coldStart = (encodings: ReadonlyArray<EncodingName> = ['o200k_base', 'cl100k_base']): ReadonlyArray<ColdStartRow> => {
  const cache = join(ROOT, 'node_modules', '.cache')
  mkdirSync(cache, { recursive: true })
  const dir = mkdtempSync(join(cache, 'gssc-bench-'))
  try {
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}')
    ensureDist()
    const engine = pathToFileURL(join(ROOT, 'dist', 'tokenize', 'index.js')).href
    const message = JSON.stringify(MESSAGE)
    const bareNodeMs = childMs(dir, '')
    return encodings.map((encoding) => ({
      encoding,
      bareNodeMs,
      jsTiktokenMs: childMs(
        dir,
        `import { Tiktoken } from 'js-tiktoken/lite'\nimport ranks from 'js-tiktoken/ranks/${encoding}'\nnew Tiktoken(ranks).encode(${message}, [], [])`,
      ),
      fastMs: childMs(dir, `import { createTokenizer } from '${engine}'\nconst t = createTokenizer('${encoding}').right\nawait t.ready?.()\nt.count(${message})`),
    }))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// -------------------------------------------------------------------------------------
// run
// -------------------------------------------------------------------------------------

/**
 * Runs the tokenizer benchmark (≈1 minute on 2 cores): throughput on both encodings, then
 * cold start. Throws if the two engines ever disagree on a count.
 *
 * @category bench
 */
export const tokenizerBench = async (): Promise<TokenizerBenchResult> => ({
  throughput: [...throughput('o200k_base'), ...throughput('cl100k_base')],
  coldStart: coldStart(),
})

const fixed = (x: number, digits = 1): string => x.toFixed(digits)

/**
 * The result as Markdown tables.
 *
 * @category bench
 */
export const formatTokenizerBench = (result: TokenizerBenchResult): string =>
  [
    '| encoding | input | KB | tokens | js-tiktoken MB/s | fastBpe MB/s | speed-up | fastBpe first sight MB/s |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...result.throughput.map(
      (r) =>
        `| ${r.encoding} | ${r.corpus} | ${fixed(r.bytes / 1000, 0)} | ${r.tokens} | ${fixed(r.jsTiktokenMBps, 2)} | ${fixed(r.fastMBps, 2)} | ×${fixed(r.fastMBps / r.jsTiktokenMBps)} | ${fixed(r.fastFirstMBps, 2)} |`,
    ),
    '',
    '| encoding | bare node ms | js-tiktoken ms | fastBpe ms |',
    '| --- | --- | --- | --- |',
    ...result.coldStart.map((r) => `| ${r.encoding} | ${fixed(r.bareNodeMs)} | ${fixed(r.jsTiktokenMs)} | ${fixed(r.fastMs)} |`),
  ].join('\n')

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  console.log(formatTokenizerBench(await tokenizerBench()))
}

// -------------------------------------------------------------------------------------
// peers
// -------------------------------------------------------------------------------------

/** gssc's engine and the fastest JavaScript peers on one corpus, timed side by side. */
export interface PeerThroughputRow {
  readonly corpus: string
  readonly bytes: number
  readonly tokens: number
  /** MB/s, medians of interleaved runs. */
  readonly gsscMBps: number
  /** gpt-tokenizer with its default merge cache (warm after the first run, as gssc's pair memo is). */
  readonly gptTokenizerMBps: number
  /** tiktoken (Rust compiled to WASM), `encode_ordinary`. */
  readonly tiktokenWasmMBps: number
}

/**
 * o200k_base throughput of gssc's engine, gpt-tokenizer and tiktoken WASM on the same
 * corpora, interleaved run by run; every count is checked against the others first.
 *
 * @category bench
 */
export const peerThroughput = async (names: ReadonlyArray<string>, bytes = 100_000, minMs = 400): Promise<ReadonlyArray<PeerThroughputRow>> => {
  const gpt = await import('gpt-tokenizer/encoding/o200k_base')
  const { get_encoding } = await import('tiktoken')
  const wasm = get_encoding('o200k_base')
  const fast = fastBpe('o200k_base')
  try {
    return corpora(bytes)
      .filter((c) => names.includes(c.name))
      .map(({ name, text }) => {
        const size = utf8Length(text)
        const tokens = fast.count(text)
        const counts = [gpt.encode(text).length, wasm.encode_ordinary(text).length]
        if (counts.some((c) => c !== tokens)) throw new Error(`o200k_base ${name}: gssc counted ${tokens}, the peers ${counts.join(', ')}`)
        const runs: Record<'gssc' | 'gpt' | 'wasm', number[]> = { gssc: [], gpt: [], wasm: [] }
        const jobs = { gssc: () => fast.count(text), gpt: () => gpt.encode(text).length, wasm: () => wasm.encode_ordinary(text).length }
        const until = performance.now() + minMs * 3
        for (let i = 0; i < 5 || performance.now() < until; i++)
          for (const k of ['gssc', 'gpt', 'wasm'] as const) {
            const t0 = performance.now()
            jobs[k]()
            runs[k].push((performance.now() - t0) / 1000)
          }
        const mbps = (k: 'gssc' | 'gpt' | 'wasm') => size / median(runs[k].slice(1)) / 1e6
        return { corpus: name, bytes: size, tokens, gsscMBps: mbps('gssc'), gptTokenizerMBps: mbps('gpt'), tiktokenWasmMBps: mbps('wasm') }
      })
  } finally {
    wasm.free()
  }
}
