import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { makeConfig } from '../../src/config.js'
import { capPacket, itemCapOf } from '../../src/gather/itemCap.js'
import { build } from '../../src/pipeline.js'
import { buildSession } from '../../src/session/build.js'
import type { HistoryItem } from '../../src/session/items.js'
import { historyPackets, sessionSource } from '../../src/session/packets.js'
import { sessionHistory, windowed, windowStart } from '../../src/session/window.js'
import { message } from '../../src/message.js'
import { gpt4o, NOW } from '../helpers.js'
import { fixture } from '../shared.js'

const item = (id: string, tokens: number, group?: string): HistoryItem => ({ id, kind: 'message', message: message('user', id), tokens, ...(group === undefined ? {} : { group }) })

describe('windowStart', () => {
  it('keeps the newest items whose counts fit, and never opens on a group left behind', () => {
    const items = [item('a', 5), item('b', 5), item('c', 5, 'g'), item('d', 5, 'g'), item('e', 5)]
    expect(windowStart(items, 100)).toBe(0)
    expect(windowStart(items, 15)).toBe(2)
    // c falls out, so d (its group) goes with it
    expect(windowStart(items, 10)).toBe(4)
    expect(windowStart(items, 4)).toBe(5)
  })
})

describe('windowed', () => {
  it('costs a turn over the cap at its capped count, so the window reaches past it', () => {
    const long = 'word '.repeat(4000)
    const items = [item('a', 5), { ...item('b', 0), message: message('user', long), tokens: gpt4o.count(long) }, item('c', 5)]
    const from = { source: 's' }
    // uncapped, the long turn alone passes the budget and closes the window after it
    expect(windowed(from, items, { budget: 1000, tokenizer: gpt4o }).packets.map((p) => p.id)).toEqual(['s#c'])
    const capped = windowed(from, items, { budget: 1000, cap: 200, tokenizer: gpt4o })
    expect(capped.packets.map((p) => p.id)).toEqual(['s#a', 's#b', 's#c'])
    expect(capped.excluded).toEqual([])
    expect(gpt4o.count(capped.packets[1]!.content)).toBeLessThanOrEqual(200)
  })
})

describe('sessionHistory', () => {
  it('builds what every turn as packets builds, from the turns the budget reaches, and reports the rest as one range', async () => {
    const session = await buildSession(fixture('pi', 'large-session.jsonl'), { tokenizer: gpt4o })()
    if (E.isLeft(session)) throw new Error(session.left.message)
    const s = session.right
    const config = { maxTokens: 6000, maxHistoryMessages: Number.POSITIVE_INFINITY }
    const cap = itemCapOf(E.getOrElseW(() => { throw new Error('config') })(makeConfig(config)))
    const packets = historyPackets(sessionSource(s))(s.history.items).map((p) => capPacket(p, cap, gpt4o))
    const all = await build({ query: 'Where are we?', packets }, { tokenizer: gpt4o, now: NOW, config })()
    const windowed = await build({ query: 'Where are we?' }, { tokenizer: gpt4o, now: NOW, config, gatherers: [sessionHistory(s)] })()
    if (E.isLeft(all) || E.isLeft(windowed)) throw new Error('build failed')
    expect(windowed.right.output).toBe(all.right.output)
    expect(windowed.right.tokenCount).toBe(all.right.tokenCount)
    expect(windowed.right.included).toEqual(all.right.included)
    const range = windowed.right.excluded.find((e) => e.id.includes('..'))
    expect(range?.reason).toBe('over_budget')
    expect(windowed.right.packets.length).toBeLessThan(s.history.items.length / 2)
  })
})
