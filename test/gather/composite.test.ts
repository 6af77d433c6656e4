import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { makeConfig } from '../../src/config.js'
import { composite } from '../../src/gather/composite.js'
import { additional, history, instructions, rag, task } from '../../src/gather/builtins.js'
import { gatherer, isImmediate, named, type GatherInput } from '../../src/gather/gatherer.js'
import { gpt4o, NOW, right } from '../helpers.js'

const input = (): GatherInput => ({ request: { query: 'q' }, config: right(makeConfig()), now: NOW, tokenizer: gpt4o, signal: new AbortController().signal })
const ok = (name: string, delay = 0) =>
  gatherer(name, async () => {
    await new Promise((r) => setTimeout(r, delay))
    return [{ id: name, type: 'custom' as const, content: name }]
  })
const failing = (name: string) =>
  gatherer(name, async () => {
    throw new Error(`${name} is down`)
  })
const hanging = (name: string, seen: { aborted: boolean }) =>
  gatherer(name, ({ signal }) => new Promise(() => signal.addEventListener('abort', () => (seen.aborted = true))))

describe('composite', () => {
  it("runs gssc's own gatherers without a time limit, and keeps one for every gatherer that awaits", async () => {
    // the four of a plain build settle at once (no timer, no AbortController); a retriever or a user's gatherer never does
    expect([instructions(), task(), history(), additional()].map(isImmediate)).toEqual([true, true, true, true])
    expect([rag(async () => []), ok('a')].map(isImmediate)).toEqual([false, false])
    // with the limit at 0 ms they still answer, as the timer could never fire first
    const r = right(await composite([instructions(), task(), history(), additional()], { timeoutMs: 0 })({ ...input(), request: { query: 'q', instructions: 'be brief', history: [{ role: 'user', content: 'hi' }] } })())
    expect(r.packets.map((p) => p.id)).toEqual(['instructions', 'task', 'history:0'])
    expect(r.failures).toEqual([])
    // a user's gatherer mixed in still gets its limit (and the others their answers)
    const seen = { aborted: false }
    const mixed = right(await composite([task(), hanging('slow', seen)], { timeoutMs: 20 })(input())())
    expect(mixed.packets.map((p) => p.id)).toEqual(['task'])
    expect(mixed.failures).toEqual([{ gatherer: 'slow', reason: 'timeout', message: 'no answer within 20 ms' }])
    expect(seen.aborted).toBe(true)
  })

  it('collects packets in gatherer order, in parallel', async () => {
    const r = right(await composite([ok('a', 20), ok('b', 0)])(input())())
    expect(r.packets.map((p) => p.id)).toEqual(['a', 'b'])
    expect(r.failures).toEqual([])
  })

  it("reports a failing gatherer and keeps the others' packets", async () => {
    const r = right(await composite([ok('a'), failing('rag')])(input())())
    expect(r.packets.map((p) => p.id)).toEqual(['a'])
    expect(r.failures).toEqual([{ gatherer: 'rag', reason: 'error', message: 'rag is down' }])
  })

  it('times out a hanging gatherer and aborts its signal', async () => {
    const seen = { aborted: false }
    const r = right(await composite([ok('a'), hanging('slow', seen)], { timeoutMs: 30 })(input())())
    expect(r.failures).toEqual([{ gatherer: 'slow', reason: 'timeout', message: 'no answer within 30 ms' }])
    expect(seen.aborted).toBe(true)
  })

  it('fails fast in parallel without waiting for slow gatherers', async () => {
    const started = Date.now()
    const r = await composite([ok('slow', 2000), failing('rag')], { onError: 'fail', timeoutMs: 5000 })(input())()
    expect(E.isLeft(r) && r.left).toEqual({ gatherer: 'rag', reason: 'error', message: 'rag is down' })
    expect(Date.now() - started).toBeLessThan(1500)
  })

  it('fails fast in sequence and does not run later gatherers', async () => {
    let ran = false
    const later = gatherer('later', () => {
      ran = true
      return []
    })
    const r = await composite([failing('first'), later], { onError: 'fail', parallel: false })(input())()
    expect(E.isLeft(r)).toBe(true)
    expect(ran).toBe(false)
  })

  it('nests: failures of inner composites surface', async () => {
    const inner = composite([failing('memory')], { name: 'inner' })
    const r = right(await composite([inner, ok('a')])(input())())
    expect(r.failures.map((f) => f.gatherer)).toEqual(['memory'])
  })

  it('turns a bad packet from any gatherer into a failure naming the gatherer and the index', async () => {
    const bad = gatherer('mine', () => [{ type: 'evidence', content: 'ok' }, { type: 'evidence', content: { text: 'x' } } as never])
    const badType = gatherer('typed', () => [{ type: 'fact', content: 'x' } as never])
    const badPriority = gatherer('prio', () => [{ type: 'custom', content: 'x', priority: 9 } as never])
    const r = right(await composite([ok('a'), bad, badType, badPriority])(input())())
    expect(r.packets.map((p) => p.id)).toEqual(['a'])
    expect(r.failures.map((f) => [f.gatherer, f.message])).toEqual([
      ['mine', 'packets[1].content: must be a string (got {"text":"x"})'],
      ['typed', 'packets[0].type: must be one of instructions, task, task_state, evidence, history, custom (got "fact")'],
      ['prio', 'packets[0].priority: must be 0, 1, 2, 3 or 4 (got 9)'],
    ])
  })

  it('checks hand-written gatherers too: their answer, their packets and their messages', async () => {
    const raw = (name: string, answer: unknown) => named(name, () => async () => answer as never)
    const r = right(
      await composite([
        raw('array', [{ type: 'custom', content: 'x' }]),
        raw('nopackets', E.right({ failures: [] })),
        raw('badmsg', E.right({ packets: [{ id: 'h', type: 'history', content: 'x', message: { role: 'user', parts: [42] } }], failures: [] })),
        raw('thrown', E.left(new Error('boom'))),
        raw('fine', E.right({ packets: [{ id: 'f', type: 'custom', content: 'x' }], failures: [] })),
        null as never,
        named('', () => async () => E.right({ packets: [{ type: 'custom', content: 1 }], failures: [] }) as never),
      ])(input())(),
    )
    expect(r.packets.map((p) => [p.id, p.priority, p.source, p.timestamp])).toEqual([['f', 4, 'custom', NOW]])
    expect(r.failures.map((f) => [f.gatherer, f.message])).toEqual([
      ['array', 'must resolve to an Either of { packets, failures } (got [{"type":"custom","content":"x"}])'],
      ['nopackets', 'must return an array of packets (got undefined)'],
      ['badmsg', "packets[0].message.parts[0]: must be a part: { _tag: 'Text', text } or an Image, Document, Thinking, ToolCall or ToolResult part (got 42)"],
      ['thrown', 'boom'],
      ['composite[5]', 'must be a gatherer function (got null)'],
      ['composite[6]', 'packets[0].content: must be a string (got 1)'],
    ])
  })
})
