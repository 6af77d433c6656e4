import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Config } from '../../src/config.js'
import type { PacketInput, PacketType } from '../../src/packet.js'
import type { Selected, SimpleMessage } from '../../src/phase.js'
import { build } from '../../src/pipeline.js'
import { fillUnworded } from '../../src/select/fill.js'
import { alwaysKept, defaultSelector, fill, prepare } from '../../src/select/selector.js'
import type { TypeSettings, TypeSettingsByType } from '../../src/select/shares.js'
import { gpt4o, MINUTE, NOW } from '../helpers.js'
import { seeded } from '../prop.js'
import { gathered } from './fixtures.js'

const WORDS = ['build', 'fails', 'compile', 'script', 'the', 'and', '构建', '失败', '🎉', 'x=1;', '{"a":2}', '\n', 'Paris', 'été', '42']
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 40 }).map((ws) => ws.join(' '))
const SHARED: ReadonlyArray<PacketType> = ['task_state', 'evidence', 'history', 'custom']

const packetArb: fc.Arbitrary<PacketInput> = fc.record({
  type: fc.constantFrom<PacketType>('task_state', 'evidence', 'custom'),
  content: text,
  relevance: fc.double({ min: 0, max: 1, noNaN: true }),
  timestamp: fc.integer({ min: NOW - 600 * MINUTE, max: NOW }),
})
const turnArb: fc.Arbitrary<SimpleMessage> = fc.record({ role: fc.constantFrom('user', 'assistant'), content: text })

/** Per-type floors and caps (a floor never above its cap), floors summing to at most 1. */
const typesArb: fc.Arbitrary<TypeSettingsByType> = fc
  .tuple(
    ...SHARED.map(() =>
      fc.record(
        // whole percents: fc.double favours extremes such as 5e-324
        { floor: fc.integer({ min: 0, max: 60 }).map((x) => x / 100), cap: fc.integer({ min: 5, max: 100 }).map((x) => x / 100) },
        { requiredKeys: [] },
      ),
    ),
  )
  .map((settings) =>
    Object.fromEntries(
      SHARED.map((t, i): [PacketType, TypeSettings] => {
        const s = settings[i]!
        return [t, s.floor !== undefined && s.cap !== undefined && s.floor > s.cap ? { floor: s.cap, cap: s.floor } : s]
      }),
    ),
  )
  .filter((types) => Object.values(types).reduce((n, s) => n + (s?.floor ?? 0), 0) <= 1)

const requestArb = fc.record({
  query: text,
  instructions: fc.option(text, { nil: undefined }),
  history: fc.array(turnArb, { maxLength: 25 }),
  packets: fc.array(packetArb, { maxLength: 40 }).map((ps) => ps.map((p, i) => ({ ...p, id: `p${i}` }))),
})

/** What a fill of type `t` alone into `room` keeps, in the selector's order: the oracle of a floor. */
const aloneInto = (s: Selected, t: PacketType, room: number): number => {
  const candidates = s.packets.filter((p) => p.type === t && !alwaysKept(p))
  const ordered =
    t === 'history'
      ? [...candidates].reverse()
      : [...candidates].sort((a, b) => s.scores.get(b.id)!.composite - s.scores.get(a.id)!.composite || s.packets.indexOf(a) - s.packets.indexOf(b))
  let kept = 0
  for (const p of ordered) {
    const cost = s.env.meter.packet(p)
    if (kept + cost <= room) kept += cost
    else if (t === 'history') break
  }
  return kept
}

describe('fill with per-type shares', () => {
  it('a floored type keeps at least what a fill of it alone into its floor keeps; a capped type never exceeds its cap; the budget holds', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, typesArb, fc.integer({ min: 20, max: 500 }), fc.boolean(), async (request, types, maxTokens, enableMMR) => {
        const config: Partial<Config> = { maxTokens, reserveRatio: 0, minRelevance: 0, maxHistoryMessages: Infinity, maxItemShare: 1, enableMMR, types }
        const s = defaultSelector()(await gathered(request, config))
        const always = s.selected.filter((x) => alwaysKept(x.packet)).reduce((n, x) => n + x.tokens, 0)
        const room = Math.max(0, s.env.available - always)
        const keptOf = (t: PacketType) => s.selected.filter((x) => x.packet.type === t && !alwaysKept(x.packet)).reduce((n, x) => n + x.tokens, 0)
        for (const t of SHARED) {
          const own = types[t]
          if (own?.floor !== undefined) expect(keptOf(t)).toBeGreaterThanOrEqual(aloneInto(s, t, Math.floor(own.floor * room)))
          if (own?.cap !== undefined && own.cap < 1) expect(keptOf(t)).toBeLessThanOrEqual(Math.floor(own.cap * room))
        }
        expect(s.selected.reduce((n, x) => n + x.tokens, 0) - always).toBeLessThanOrEqual(room)
      }),
      seeded(150),
    )
  })

  it('a build with shares: the exact count of the output never exceeds the budget, and caps hold in it', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, typesArb, fc.integer({ min: 20, max: 1200 }), async (request, types, maxTokens) => {
        const r = await build(request, { tokenizer: gpt4o, now: NOW, config: { maxTokens, reserveRatio: 0, maxHistoryMessages: Infinity, types } })()
        expect(E.isRight(r)).toBe(true)
        if (E.isLeft(r)) return
        expect(r.right.tokenCount).toBe(gpt4o.count(r.right.output))
        expect(r.right.tokenCount).toBeLessThanOrEqual(r.right.budget.available)
        const shown = new Set(r.right.included)
        for (const t of SHARED) {
          const cap = types[t]?.cap
          if (cap === undefined || cap >= 1) continue
          const content = r.right.packets.filter((p) => p.type === t && shown.has(p.id)).reduce((n, p) => n + (p.tokens ?? 0), 0)
          expect(content).toBeLessThanOrEqual(Math.floor(cap * r.right.budget.available))
        }
      }),
      seeded(100),
    )
  })

  it('a fill worded later selects and says what a fill worded at once does', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, typesArb, fc.integer({ min: 20, max: 800 }), fc.integer({ min: 0, max: 6 }), async (request, types, maxTokens, overhead) => {
        const config: Partial<Config> = { maxTokens, reserveRatio: 0, minRelevance: 0.2, maxHistoryMessages: Infinity, maxItemShare: 1, types }
        const options = { overhead: (p: { readonly type: PacketType }) => (p.type === 'history' ? overhead : 1) }
        // fresh gathers: each has its own meter, so what one fill counted cannot help the other
        const g = await gathered(request, config)
        const reported = fill(g, prepare(g, options), options)
        const h = await gathered(request, config)
        const prepared = prepare(h, options)
        const [trial, left] = fillUnworded(h, prepared, options)
        expect(trial.selected.map((x) => x.packet.id)).toEqual(reported.selected.map((x) => x.packet.id))
        expect(trial.excluded).toEqual([...h.excluded, ...prepared.gatedOut])
        // worded afterwards, after another fill counted more: the words the fill would have said
        fill(h, prepared, { ...options, reserve: 3 })
        expect([...trial.excluded, ...left()]).toEqual(reported.excluded)
        // every 'needs' detail names the unit's cost (exact when counted) and the room left
        for (const e of reported.excluded) {
          const m = /^needs (at least )?(\d+) tokens(?: with the \d+ other packet\(s\) of its group)?, (-?\d+) left/.exec(e.detail ?? '')
          if (m === null) continue
          expect(Number(m[2])).toBeGreaterThan(Number(m[3]))
          const p = g.packets.find((x) => x.id === e.id)!
          const known = g.env.meter.known(p)
          if (m[1] === undefined && p.group === undefined) expect(Number(m[2])).toBe(known! + options.overhead(p))
        }
      }),
      seeded(120),
    )
  })
})
