import { describe, expect, it } from 'vitest'
import type { Config } from '../../src/config.js'
import type { PacketInput } from '../../src/packet.js'
import type { Selected, SimpleMessage } from '../../src/phase.js'
import { defaultSelector } from '../../src/select/selector.js'
import { MINUTE, NOW } from '../helpers.js'
import { gathered } from './fixtures.js'

const QUERY = 'why does the build fail after the compile script rename'
/** Relevant passages of about 24 tokens each, all above the relevance gate. */
const passages = (n: number): PacketInput[] =>
  Array.from({ length: n }, (_, i) => ({ id: `doc:${i}`, type: 'evidence', content: `passage ${i}: the build fails because the compile script rename broke the pipeline step ${i}` }))
const turns = (n: number): SimpleMessage[] =>
  Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}: we looked at the deploy logs and the staging certificate again`, timestamp: NOW - (n - i) * MINUTE }))

const BUDGET: Partial<Config> = { maxTokens: 1000, reserveRatio: 0, maxHistoryMessages: Infinity }
const select = async (config: Partial<Config>, nPassages = 100, nTurns = 40): Promise<Selected> =>
  defaultSelector()(await gathered({ query: QUERY, history: turns(nTurns), packets: passages(nPassages) }, { ...BUDGET, ...config }))

const tokensOf = (s: Selected, type: string) => s.selected.filter((x) => x.packet.type === type).reduce((n, x) => n + x.tokens, 0)
const count = (s: Selected, type: string) => s.selected.filter((x) => x.packet.type === type).length
const room = (s: Selected) => s.env.available - s.selected.filter((x) => x.packet.type === 'task').reduce((n, x) => n + x.tokens, 0)

describe('fill with per-type shares', () => {
  it('without shares, relevant passages push out the whole conversation', async () => {
    const s = await select({})
    expect(count(s, 'history')).toBe(0)
    expect(s.excluded.find((e) => e.id === 'history:39')).toMatchObject({ reason: 'over_budget' })
  })

  it('a history floor keeps the newest turns, a contiguous window, and says it decided', async () => {
    const s = await select({ types: { history: { floor: 0.3 } } })
    const kept = s.selected.filter((x) => x.packet.type === 'history').map((x) => x.packet.id)
    expect(kept.length).toBeGreaterThan(5)
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => `history:${39 - i}`))
    expect(tokensOf(s, 'history')).toBeLessThanOrEqual(Math.floor(0.3 * room(s)))
    // the next turn would not fit the floor: history took no more than a fill of its floor alone
    expect(tokensOf(s, 'history') + s.env.meter.packet(s.packets.find((p) => p.id === `history:${39 - kept.length}`)!)).toBeGreaterThan(Math.floor(0.3 * room(s)))
    const floorDecided = s.excluded.filter((e) => e.reason === 'type_floor')
    expect(floorDecided.length).toBeGreaterThan(0)
    expect(floorDecided[0]!.detail).toMatch(/the floor of history \(30%\) holds \d+$/)
    expect(s.selected.reduce((n, x) => n + x.tokens, 0)).toBeLessThanOrEqual(s.env.available)
  })

  it('an evidence cap leaves the rest to history, and reports type_cap', async () => {
    const s = await select({ types: { evidence: { cap: 0.4 } } })
    expect(tokensOf(s, 'evidence')).toBeLessThanOrEqual(Math.floor(0.4 * room(s)))
    expect(count(s, 'history')).toBeGreaterThan(10)
    const capped = s.excluded.find((e) => e.reason === 'type_cap')
    expect(capped?.detail).toMatch(/^evidence is capped at 40% of the selectable room \(\d+ tokens\) and has \d+; this needs (at least )?\d+$/)
  })

  it('a floor its type cannot fill gives the room back', async () => {
    const s = await select({ types: { history: { floor: 0.8 } } }, 100, 2)
    expect(count(s, 'history')).toBe(2)
    // the 78% history does not use goes to evidence
    expect(tokensOf(s, 'evidence')).toBeGreaterThan(0.6 * room(s))
    // what the floor holds is what history had, not its 80%
    for (const e of s.excluded.filter((x) => x.reason === 'type_floor')) expect(e.detail).toMatch(new RegExp(`holds ${tokensOf(s, 'history')}$`))
  })

  it('changes nothing when no type has settings', async () => {
    const a = await select({})
    const b = await select({ types: { custom: { cap: 1 } } })
    expect(b.selected.map((x) => x.packet.id)).toEqual(a.selected.map((x) => x.packet.id))
  })

  it('scores each type with its own recency decay and weights', async () => {
    const packets: PacketInput[] = [
      { id: 'old', type: 'evidence', content: 'the build fails: compile script rename', relevance: 0.9, timestamp: NOW - 60 * MINUTE },
      { id: 'new', type: 'evidence', content: 'the build fails: compile script', relevance: 0.6, timestamp: NOW },
    ]
    const order = async (config: Partial<Config>) => defaultSelector()(await gathered({ query: QUERY, packets }, config)).selected.map((x) => x.packet.id)
    expect(await order({})).toEqual(['task', 'old', 'new'])
    // a fast decay and recency weighted up: the fresh passage ranks first
    expect(await order({ types: { evidence: { recencyTau: 60, recencyWeight: 1, relevanceWeight: 0.2 } } })).toEqual(['task', 'new', 'old'])
    const g = await gathered({ query: QUERY, packets }, { types: { evidence: { recencyTau: 60 } } })
    expect(defaultSelector()(g).scores.get('old')!.recency).toBeCloseTo(Math.exp(-60), 10)
  })
})
