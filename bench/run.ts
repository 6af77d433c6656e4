/**
 * `npm run bench`: times gssc against the floor of its own work, on generated data.
 *
 *   npm run bench            a table
 *   npm run bench -- --json  the same as JSON
 *
 * Timings are medians of repeated runs after a warm-up, in one process; machines are noisy,
 * so compare the ratios, not the milliseconds. Nothing here is asserted by the tests.
 */
import * as E from 'fp-ts/lib/Either.js'
import { build, encodingTokenizer, type Tokenizer } from '../src/index.js'
import { evidence, history, QUERY } from './data.js'

const NOW = Date.parse('2026-01-01T12:00:00Z')

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const time = async (runs: number, f: () => unknown): Promise<number> => {
  await f()
  const ts: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await f()
    ts.push(performance.now() - t0)
  }
  return median(ts)
}

export interface Row {
  readonly name: string
  readonly ms: number
  readonly note: string
}

/** gssc on `n` history turns plus 1,000 evidence passages, 8,000-token budget, vs tokenizing every packet once. */
export const coreBench = async (tokenizer: Tokenizer, n: number, runs = 5): Promise<{ rows: Row[]; ratio: number }> => {
  const turns = history(n, NOW)
  const docs = evidence(1000)
  const request = { query: QUERY, instructions: 'You are the build assistant. Answer from the evidence.', history: turns, packets: docs }
  let kept = 0
  const gssc = await time(runs, async () => {
    const r = await build(request, { tokenizer, now: NOW, config: { maxTokens: 8000, maxHistoryMessages: Number.POSITIVE_INFINITY } })()
    if (E.isLeft(r)) throw new Error(r.left.message)
    kept = r.right.included.length
  })
  const texts = [...turns.map((t) => t.content as string), ...docs.map((d) => d.content)]
  const floor = await time(runs, () => texts.reduce((s, t) => s + tokenizer.count(t), 0))
  return {
    rows: [
      { name: `gssc build: ${n.toLocaleString('en')} turns + 1,000 evidence`, ms: gssc, note: `${kept} packets kept` },
      { name: `tokenize every packet once (${texts.length.toLocaleString('en')} texts)`, ms: floor, note: 'the practical floor of a non-lazy builder' },
    ],
    ratio: gssc / floor,
  }
}

const main = async (): Promise<void> => {
  const json = process.argv.includes('--json')
  const tokenizer = encodingTokenizer('o200k_base')
  tokenizer.count('warm up: load the ranks before timing')
  const { rows, ratio } = await coreBench(tokenizer, 10_000)
  if (json) {
    console.log(JSON.stringify({ rows, ratios: { vsTokenizeAll10k: ratio } }, null, 2))
    return
  }
  const width = Math.max(...rows.map((r) => r.name.length))
  for (const r of rows) console.log(`${r.name.padEnd(width)}  ${r.ms.toFixed(1).padStart(8)} ms  ${r.note}`)
  console.log(`\ngssc / tokenize-all: ${ratio.toFixed(3)} (lower is better)`)
}

await main()
