/**
 * Budget shares: a conversation that a crowd of relevant passages would push out keeps its
 * newest turns with a history floor, and an evidence cap bounds the passages. Run: npx tsx examples/budget-shares.ts
 */
import * as E from 'fp-ts/lib/Either.js'
import { build, type PacketInput, type SimpleMessage, type TypeSettingsByType } from 'gssc'
import { isMain } from './load.js'

const NOW = Date.parse('2026-01-01T12:00:00Z')
const history: SimpleMessage[] = Array.from({ length: 40 }, (_, i) => ({
  role: i % 2 === 0 ? 'user' : 'assistant',
  content: i % 2 === 0 ? `Step ${i}: the staging deploy still fails, what next?` : `Step ${i}: check the certificate rotation and rerun the deploy.`,
  timestamp: NOW - (40 - i) * 60_000,
}))
const passages: PacketInput[] = Array.from({ length: 200 }, (_, i) => ({
  id: `doc:${i}`,
  type: 'evidence',
  content: `Runbook ${i}: a failing staging deploy after a certificate rotation needs the new chain in the load balancer.`,
}))

export const main = async (): Promise<string> => {
  const run = async (types: TypeSettingsByType): Promise<string> => {
    const r = await build(
      { query: 'Why does the staging deploy fail after the certificate rotation?', history, packets: passages },
      { now: NOW, config: { maxTokens: 2000, maxHistoryMessages: 40, types } },
    )()
    if (E.isLeft(r)) throw new Error(r.left.message)
    const kept = (type: string) => r.right.packets.filter((p) => p.type === type && p.status !== 'dropped').length
    const decided = r.right.excluded.find((x) => x.reason === 'type_floor' || x.reason === 'type_cap')
    return [
      `${JSON.stringify(types)}: ${kept('history')} turns, ${kept('evidence')} passages, ${r.right.tokenCount} of ${r.right.budget.available} tokens`,
      ...(decided === undefined ? [] : [`  ${decided.id}: ${decided.reason} (${decided.detail})`]),
    ].join('\n')
  }
  return [await run({}), await run({ history: { floor: 0.3 } }), await run({ evidence: { cap: 0.4 } })].join('\n')
}

if (isMain(import.meta.url)) console.log(await main())
