/**
 * Writes `test/fixtures/usage/pi-anthropic.json`: real provider-reported usage paired with
 * gssc's approximate count of the same request, for `calibrate`.
 *
 * Source: the two real pi sessions in `../shared/fixtures/pi` (recorded by the pi coding
 * agent against Anthropic's API, claude-sonnet-4-5 and claude-opus-4-5). Each assistant entry
 * records the usage Anthropic reported for the request that produced it; its input side is
 * `input + cacheRead + cacheWrite` tokens. gssc rebuilds the context pi sent for it (the
 * branch up to the entry's parent, with gssc's session loader) and counts it with cl100k_base,
 * its documented approximation for Claude. What gssc cannot see is constant per session:
 * pi's system prompt and tool definitions, which the calibration finds as its intercept.
 *
 * The committed fixture is a frozen dataset: its counts are those of gssc's cost model on
 * 2026-11-24 (commit 004c52d), and test/tokenize/calibrate.test.ts pins the statistics of that
 * data. Today's counts of the same contexts are 0.4–14% higher, median 6.5% (closer to what Anthropic
 * reported); the same test recomputes them with {@link usageSamples} and checks the safety
 * property on them too.
 *
 * Run: npx tsx scripts/usage-fixture.ts
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { messageCost } from '../src/render/cost.js'
import { loadSession, branchContext, counter } from '../src/session/index.js'
import { createTokenCache } from '../src/tokenize/cache.js'
import { encodingTokenizer } from '../src/tokenize/tokenizer.js'
import { loadEncoding } from '../src/tokenize/ranks.js'
import { FIXTURES } from './toolOutputs.js'

interface Usage {
  readonly input: number
  readonly cacheRead: number
  readonly cacheWrite: number
}

/** One recorded request: where it is, the model, gssc's count of the context and the input Anthropic reported. */
export interface RecordedUsage {
  readonly file: string
  readonly line: number
  readonly model: string
  readonly estimated: number
  readonly actual: number
}

/** Every Anthropic request of the pi fixtures, paired with gssc's count of its context today. */
export const usageSamples = async (): Promise<ReadonlyArray<RecordedUsage>> => {
  await loadEncoding('cl100k_base')
  const count = counter(encodingTokenizer('cl100k_base'), createTokenCache())
  const samples: RecordedUsage[] = []
  for (const file of ['pi/large-session.jsonl', 'pi/before-compaction.jsonl']) {
    const path = resolve(FIXTURES, file)
    const lines = readFileSync(path, 'utf8').split('\n')
    const loaded = await loadSession(path)()
    if (E.isLeft(loaded)) throw new Error(loaded.left.message)
    const session = loaded.right
    for (const entry of session.entries) {
      const raw = JSON.parse(lines[entry.line - 1]!) as {
        readonly message?: { readonly role?: string; readonly provider?: string; readonly model?: string; readonly usage?: Usage; readonly stopReason?: string }
      }
      const m = raw.message
      if (m?.role !== 'assistant' || m.provider !== 'anthropic' || m.usage === undefined || entry.parentId === null) continue
      const actual = m.usage.input + m.usage.cacheRead + m.usage.cacheWrite
      if (actual === 0 || m.stopReason === 'error' || m.stopReason === 'aborted') continue
      const context = branchContext({ leaf: entry.parentId })(session)
      if (E.isLeft(context)) continue
      const estimated = context.right.messages.reduce((n, c) => n + messageCost(c.message, { count }, { format: 'anthropic' }), 0)
      samples.push({ file, line: entry.line, model: m.model ?? 'unknown', estimated, actual })
    }
  }
  return samples
}

const main = async (): Promise<void> => {
  const samples = await usageSamples()
  writeFileSync(
    new URL('../test/fixtures/usage/pi-anthropic.json', import.meta.url),
    `${JSON.stringify({ source: 'scripts/usage-fixture.ts: real Anthropic usage from the pi sessions in ../shared/fixtures/pi, paired with gssc cl100k_base counts of the rebuilt context', samples }, null, 1)}\n`,
  )
  console.log(`${samples.length} samples`)
}

// a module the calibration test imports, and a script
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
