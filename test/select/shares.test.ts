import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { evidence, history, INSTRUCTIONS, NOW, QUERY } from '../../bench/data.js'
import { build } from '../../src/pipeline.js'
import { shareRooms, typesProblem } from '../../src/select/shares.js'
import { gpt4o } from '../helpers.js'

describe('shareRooms', () => {
  it('turns shares into tokens of the selectable room, rounded down; a cap of 1 is no cap', () => {
    const rooms = shareRooms({ history: { floor: 0.3 }, evidence: { floor: 0.25, cap: 0.4 }, custom: { cap: 1 } }, 1001)
    expect(rooms.floors).toEqual([
      { type: 'evidence', tokens: 250, share: 0.25 },
      { type: 'history', tokens: 300, share: 0.3 },
    ])
    expect([...rooms.caps]).toEqual([['evidence', { tokens: 400, share: 0.4 }]])
    expect(shareRooms({ history: { floor: 0.3 } }, -5).floors[0]!.tokens).toBe(0)
  })

  it('finds nothing wrong with valid settings', () => {
    expect(typesProblem({ history: { floor: 0.3, cap: 0.3 }, evidence: { cap: 0.4, recencyTau: 60 } })).toBeUndefined()
  })
})

describe('shares end to end (build)', () => {
  const request = { query: QUERY, instructions: INSTRUCTIONS, history: history(300, NOW), packets: evidence(1000) }
  const run = async (types: object) => {
    const r = await build(request, { tokenizer: gpt4o, now: NOW, config: { maxTokens: 8000, maxHistoryMessages: Infinity, types } })()
    if (E.isLeft(r)) throw new Error(r.left.message)
    const shown = new Set(r.right.included)
    return { r: r.right, turns: r.right.packets.filter((p) => p.type === 'history' && shown.has(p.id)).map((p) => p.id) }
  }

  it('1,000 relevant passages keep no turn without shares, and the newest turns with a history floor', async () => {
    const none = await run({})
    expect(none.turns).toEqual([])
    const floored = await run({ history: { floor: 0.3 } })
    expect(floored.turns.length).toBeGreaterThan(20)
    // the newest turns, with no hole
    expect(floored.turns).toEqual(Array.from({ length: floored.turns.length }, (_, i) => `history:${300 - floored.turns.length + i}`))
    expect(floored.r.tokenCount).toBe(gpt4o.count(floored.r.output))
    expect(floored.r.tokenCount).toBeLessThanOrEqual(6800)
    expect(floored.r.excluded.some((x) => x.reason === 'type_floor' && /the floor of history \(30%\) holds \d+/.test(x.detail ?? ''))).toBe(true)
  })

  it('an evidence cap reports the passages it left out as type_cap', async () => {
    const capped = await run({ evidence: { cap: 0.4 } })
    expect(capped.turns.length).toBeGreaterThan(40)
    expect(capped.r.packets.filter((p) => p.reason === 'type_cap').length).toBeGreaterThan(100)
  })
})
