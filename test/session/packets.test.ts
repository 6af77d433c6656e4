import { describe, expect, it } from 'vitest'
import { packet } from '../../src/packet.js'
import { toHistory } from '../../src/session/history.js'
import { buildSession } from '../../src/session/build.js'
import { historyPackets, sessionSource } from '../../src/session/packets.js'
import { contextOf, fixture, right, tokenizer } from './helpers.js'

describe('historyPackets', () => {
  it('makes history packets with the message, its text, tokens, timestamp and a shared group for a tool turn', async () => {
    const c = await contextOf('pi-v3-branches.jsonl', { leaf: 'a0000010' })
    const items = toHistory({ tokenizer })(c.messages).items
    const source = 'pi:test/fixtures/session/pi-v3-branches.jsonl'
    const packets = historyPackets({ source, metadata: { leaf: 'a0000010' } })(items)
    expect(packets.map((p) => [p.id, p.type, p.group ?? null])).toEqual([
      [`${source}#a0000003`, 'history', null],
      [`${source}#a0000004`, 'history', `${source}#turn:a0000004`],
      [`${source}#a0000005`, 'history', `${source}#turn:a0000004`],
      [`${source}#a0000006`, 'history', null],
    ])
    const first = packets[0]!
    expect(first.content).toBe('Why does the build fail? Screenshot attached.\n[image]')
    expect(first.message).toBe(items[0]!.message)
    expect(first.timestamp).toBe(1768035605000)
    expect(first.tokens).toBe(items[0]!.tokens)
    expect(first.metadata).toEqual({ leaf: 'a0000010', itemId: 'a0000003', kind: 'message', entryId: 'a0000003' })
    // they complete into pipeline packets at history priority
    expect(packet(first, 0)).toMatchObject({ id: `${source}#a0000003`, priority: 3, source })
  })

  it('names a built session’s packets after its format and file', async () => {
    const build = right(await buildSession(fixture('seed.jsonl'), { tokenizer })())
    const [p] = historyPackets(sessionSource(build))(build.history.items)
    expect(p).toMatchObject({ id: `seed:${fixture('seed.jsonl')}#1`, source: `seed:${fixture('seed.jsonl')}`, metadata: { file: fixture('seed.jsonl'), format: 'seed', leafId: '7', entryId: '1' } })
  })

  it('copies the source metadata as plain keys, field order kept, a "__proto__" key included', async () => {
    const build = right(await buildSession(fixture('seed.jsonl'), { tokenizer })())
    const [p] = historyPackets({ source: 's', metadata: { file: 'f', z: 1 } })(build.history.items)
    expect(JSON.stringify(p)).toBe(JSON.stringify({ id: 's#1', type: 'history', content: p!.content, message: p!.message, timestamp: p!.timestamp, source: 's', metadata: { file: 'f', z: 1, itemId: '1', kind: 'message', entryId: '1' }, tokens: p!.tokens }))
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>
    const [q] = historyPackets({ source: 's', metadata: hostile })(build.history.items)
    expect(Object.getPrototypeOf(q!.metadata)).toBe(Object.prototype)
    expect(Object.keys(q!.metadata!)).toEqual(['__proto__', 'a', 'itemId', 'kind', 'entryId'])
    expect((q!.metadata as { polluted?: boolean }).polluted).toBeUndefined()
  })
})
