/**
 * `npm run quality:tokens`: the figures behind docs/tokens.md.
 * - Calibrated counts: on the real Anthropic usage of test/fixtures/usage/pi-anthropic.json,
 *   how often the plain cl100k approximation and the calibrated count (learnt on each
 *   session's first half, checked on its second) under-count, and by how much they over-count.
 * - Exact counts for open-weight models: agreement with the reference implementation (Hugging
 *   Face's Rust `tokenizers`) on the tool outputs of the pi fixtures, load time and speed,
 *   next to o200k_base on the same text. Families whose packages are not installed are skipped.
 *
 * Run: npm run quality:tokens
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as E from 'fp-ts/lib/Either.js'
import { calibrate, calibratedRequest, type UsageSample } from '../src/tokenize/calibrate.js'
import { OPEN_WEIGHT_PACKAGES, openWeightTokenizer, type OpenWeightFamily } from '../src/tokenize/openWeights.js'
import { loadEncoding } from '../src/tokenize/ranks.js'
import { encodingTokenizer } from '../src/tokenize/tokenizer.js'
import { toolOutputs } from './toolOutputs.js'

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`

const calibration = (): ReadonlyArray<string> => {
  const { samples } = JSON.parse(readFileSync(new URL('../test/fixtures/usage/pi-anthropic.json', import.meta.url), 'utf8')) as {
    readonly samples: ReadonlyArray<UsageSample & { readonly file: string }>
  }
  const lines = ['Calibrated counts (real Anthropic usage, learnt on the first half of each session, checked on the second):']
  lines.push('session                     checked  cl100k under-counts  calibrated under-counts  calibrated mean over-count')
  for (const file of [...new Set(samples.map((s) => s.file))]) {
    const session = samples.filter((s) => s.file === file)
    const half = Math.floor(session.length / 2)
    const c = calibrate(session.slice(0, half))
    if (E.isLeft(c)) throw new Error(c.left.message)
    const checked = session.slice(half)
    const raw = checked.filter((s) => s.estimated < s.actual).length
    const under = checked.filter((s) => calibratedRequest(c.right, s.estimated) < s.actual).length
    const over = checked.reduce((sum, s) => sum + calibratedRequest(c.right, s.estimated) / s.actual - 1, 0) / checked.length
    lines.push(`${file.padEnd(27)} ${String(checked.length).padStart(7)}  ${pct(raw / checked.length).padStart(19)}  ${pct(under / checked.length).padStart(23)}  ${pct(over).padStart(26)}`)
  }
  return lines
}

const openWeights = async (): Promise<ReadonlyArray<string>> => {
  const require = createRequire(import.meta.url)
  const { Tokenizer: Reference } = (await import('tokenizers')) as typeof import('tokenizers')
  const texts = (await toolOutputs()).map((o) => o.text).filter((t) => t.length > 0)
  const chars = texts.reduce((n, t) => n + t.length, 0)
  await loadEncoding('o200k_base')
  const o200k = encodingTokenizer('o200k_base')
  let t = performance.now()
  const o200kTokens = texts.reduce((n, x) => n + o200k.count(x), 0)
  const o200kMs = performance.now() - t
  const lines = [`Exact counts for open-weight models (${texts.length} tool outputs, ${(chars / 1e6).toFixed(2)} M chars):`]
  lines.push('family        load ms  tokens     agree with reference  ms to count  (o200k_base: ' + `${o200kTokens} tokens in ${o200kMs.toFixed(0)} ms)`)
  const families: ReadonlyArray<[OpenWeightFamily, string]> = [
    ['llama3', 'llama-3.1-8b'],
    ['qwen3', 'qwen3-8b'],
    ['deepseek_v3', 'deepseek-v3'],
    ['gemma3', 'gemma-3-4b'],
  ]
  for (const [family, model] of families) {
    t = performance.now()
    const tok = await openWeightTokenizer(model)()
    const load = performance.now() - t
    if (E.isLeft(tok)) {
      lines.push(`${family.padEnd(12)} skipped: ${tok.left.message}`)
      continue
    }
    const reference = Reference.fromFile(require.resolve(`${OPEN_WEIGHT_PACKAGES[family]}/models/tokenizer.json`))
    t = performance.now()
    const counts = texts.map((x) => tok.right.count(x))
    const ms = performance.now() - t
    let agree = 0
    for (let i = 0; i < texts.length; i++) if ((await reference.encode(texts[i]!, null, { addSpecialTokens: false })).getIds().length === counts[i]) agree++
    lines.push(`${family.padEnd(12)} ${load.toFixed(0).padStart(8)}  ${String(counts.reduce((a, b) => a + b, 0)).padEnd(9)}  ${`${agree} / ${texts.length}`.padStart(20)}  ${ms.toFixed(0).padStart(11)}`)
  }
  return lines
}

const main = async (): Promise<void> => {
  console.log([...calibration(), '', ...(await openWeights())].join('\n'))
}

await main()
