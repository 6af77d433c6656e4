/**
 * `npm run quality:shares`: what per-type budget shares change in a build crowded with
 * relevant evidence (issue 14 §2).
 *
 * The benchmark's data (`bench/data.ts`): `n` history turns and 1,000 evidence passages that
 * all share keywords with the query, built into 8,000 tokens (6,800 available) with the whole
 * history eligible. Evidence is P2 and history P3, so without shares the passages take the
 * whole budget and no turn survives. For each setting the table gives what the output holds:
 * history turns, evidence passages, the tokens of each, and how many packets a floor or a cap
 * decided (`type_floor`, `type_cap` in the report).
 *
 * Run: npm run quality:shares [-- --json]
 */
import * as E from 'fp-ts/lib/Either.js'
import { evidence, history, INSTRUCTIONS, NOW, QUERY } from '../bench/data.js'
import { build, createTokenizer, type Config, type TypeSettingsByType } from '../src/index.js'

/** The settings compared. */
export const SETTINGS: ReadonlyArray<readonly [string, TypeSettingsByType]> = [
  ['no shares', {}],
  ['history floor 30%', { history: { floor: 0.3 } }],
  ['evidence cap 40%', { evidence: { cap: 0.4 } }],
  ['history floor 30% + evidence cap 40%', { history: { floor: 0.3 }, evidence: { cap: 0.4 } }],
]

/** One row: a history size under one setting. */
export interface SharesRow {
  readonly turns: number
  readonly setting: string
  readonly historyKept: number
  readonly evidenceKept: number
  readonly historyTokens: number
  readonly evidenceTokens: number
  readonly tokenCount: number
  readonly available: number
  readonly floorDecided: number
  readonly capDecided: number
}

/** Builds every history size under every setting. */
export const measure = async (sizes: ReadonlyArray<number> = [100, 1000, 10_000], passages = 1000): Promise<ReadonlyArray<SharesRow>> => {
  const tokenizer = E.getOrElseW((e: { readonly message: string }) => {
    throw new Error(e.message)
  })(createTokenizer('gpt-4o'))
  await tokenizer.ready?.()
  const rows: SharesRow[] = []
  for (const turns of sizes) {
    const request = { query: QUERY, instructions: INSTRUCTIONS, history: history(turns, NOW), packets: evidence(passages) }
    for (const [setting, types] of SETTINGS) {
      const config: Partial<Config> = { maxTokens: 8000, maxHistoryMessages: Number.POSITIVE_INFINITY, types }
      const r = await build(request, { tokenizer, now: NOW, config })()
      if (E.isLeft(r)) throw new Error(r.left.message)
      const shown = new Set(r.right.included)
      const kept = (type: string) => r.right.packets.filter((p) => p.type === type && shown.has(p.id))
      const tokens = (type: string) => kept(type).reduce((n, p) => n + (p.tokens ?? 0), 0)
      rows.push({
        turns,
        setting,
        historyKept: kept('history').length,
        evidenceKept: kept('evidence').length,
        historyTokens: tokens('history'),
        evidenceTokens: tokens('evidence'),
        tokenCount: r.right.tokenCount,
        available: r.right.budget.available,
        floorDecided: r.right.excluded.filter((x) => x.reason === 'type_floor').length,
        capDecided: r.right.excluded.filter((x) => x.reason === 'type_cap').length,
      })
    }
  }
  return rows
}

const table = (rows: ReadonlyArray<SharesRow>): string => {
  const head = ['history turns', 'setting', 'history kept', 'evidence kept', 'history tokens', 'evidence tokens', 'output / available', 'type_floor', 'type_cap']
  const body = rows.map((r) => [
    r.turns.toLocaleString('en'),
    r.setting,
    String(r.historyKept),
    String(r.evidenceKept),
    String(r.historyTokens),
    String(r.evidenceTokens),
    `${r.tokenCount} / ${r.available}`,
    String(r.floorDecided),
    String(r.capDecided),
  ])
  const line = (cells: ReadonlyArray<string>) => `| ${cells.join(' | ')} |`
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await measure()
  console.log(process.argv.includes('--json') ? JSON.stringify(rows, null, 2) : `Budget shares with 1,000 evidence passages (o200k_base, 8,000 tokens, 6,800 available)\n\n${table(rows)}`)
}
