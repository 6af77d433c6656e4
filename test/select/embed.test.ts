import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { additional, history, instructions, task } from '../../src/gather/builtins.js'
import type { PacketInput } from '../../src/packet.js'
import type { Request } from '../../src/phase.js'
import { build, gather } from '../../src/pipeline.js'
import { cosine, type Embed } from '../../src/select/embed.js'
import { defaultSelector } from '../../src/select/selector.js'
import { gpt4o, NOW, run } from '../helpers.js'

/** An embedder by table: each text's vector is looked up by its first word (the query's is `q`). */
const byTable =
  (table: Readonly<Record<string, ReadonlyArray<number>>>, calls: Array<ReadonlyArray<string>> = []): Embed =>
  async (texts) => {
    calls.push(texts)
    return texts.map((t) => table[t.split(' ')[0]!] ?? table['q']!)
  }

const gatherWith = (request: Request, embed: Embed, config = {}) =>
  gather([instructions(), task(), history(), additional()], { tokenizer: gpt4o, now: NOW, config, embed })(request)

const packets: PacketInput[] = [
  { id: 'a', type: 'evidence', content: 'alpha text about renewals' },
  { id: 'b', type: 'evidence', content: 'beta text, unrelated words' },
  { id: 's', type: 'task_state', content: 'gamma state' },
]
const TABLE = { q: [1, 0, 0], alpha: [0.9, 0.1, 0], beta: [0, 1, 0], gamma: [0.5, 0.5, 0] }

describe('embed: semantic relevance', () => {
  it('awaits the embeddings once, with the query and every ranked candidate (no history, no P0) in one batch', async () => {
    const calls: Array<ReadonlyArray<string>> = []
    const g = await run(gatherWith({ query: 'q', instructions: 'Be brief.', history: [{ role: 'user', content: 'earlier turn' }], packets }, byTable(TABLE, calls)))
    expect(calls).toEqual([['q', 'alpha text about renewals', 'beta text, unrelated words', 'gamma state']])
    expect([...g.vectors!.byId.keys()]).toEqual(['a', 'b', 's'])
  })

  it('scores relevance as cosine similarity to the query, and judges a query without keywords', async () => {
    const g = await run(gatherWith({ query: 'and why?', packets }, byTable({ ...TABLE, and: [1, 0, 0] })))
    const s = defaultSelector()(g)
    expect(s.scores.get('a')!.relevance).toBeCloseTo(cosine([1, 0, 0], [0.9, 0.1, 0]), 10)
    expect(s.scores.get('b')!.relevance).toBe(0)
    expect(s.excluded).toContainEqual(expect.objectContaining({ id: 'b', reason: 'below_min_relevance' }))
    expect(s.warnings.some((w) => w._tag === 'NoQueryKeywords')).toBe(false)
  })

  it("keeps a retriever's own relevance, and history unscored", async () => {
    const g = await run(gatherWith({ query: 'q', history: [{ role: 'user', content: 'hello' }], packets: [{ ...packets[1]!, relevance: 0.77 }] }, byTable(TABLE)))
    const s = defaultSelector()(g)
    expect(s.scores.get('b')!.relevance).toBe(0.77)
    expect(s.scores.get('history:0')!.relevance).toBeUndefined()
  })

  it('MMR compares the same vectors: a semantic near-duplicate gives way to a different passage', async () => {
    // dup and orig share no keyword but the same direction; other is less relevant but different
    const table = { q: [1, 1, 0], orig: [1, 1, 0.1], dup: [1, 1, 0.12], other: [1, 0.2, 1] }
    const ps: PacketInput[] = [
      { id: 'orig', type: 'evidence', content: 'orig renewal of the chain' },
      { id: 'dup', type: 'evidence', content: 'dup swapping certificates' },
      { id: 'other', type: 'evidence', content: 'other balancer settings' },
    ]
    // room for the task and two passages
    const [orig, dup, other] = ps.map((p) => gpt4o.count(p.content))
    const config = { maxTokens: gpt4o.count('q') + orig! + Math.max(dup!, other!), reserveRatio: 0, minRelevance: 0, enableMMR: true, mmrLambda: 0.5 }
    const s = defaultSelector()(await run(gatherWith({ query: 'q', packets: ps }, byTable(table), config)))
    expect(s.selected.map((x) => x.packet.id)).toEqual(['task', 'orig', 'other'])
    const plain = defaultSelector()(await run(gatherWith({ query: 'q', packets: ps }, byTable(table), { ...config, enableMMR: false })))
    expect(plain.selected.map((x) => x.packet.id)).toEqual(['task', 'orig', 'dup'])
  })

  it('a failing or malformed embeddings answer is an error naming embed and the text at fault', async () => {
    const fail = async (embed: Embed) => {
      const r = await build({ query: 'q', packets }, { tokenizer: gpt4o, now: NOW, embed })()
      if (E.isRight(r)) throw new Error('expected a failure')
      return r.left
    }
    expect(await fail(async () => Promise.reject(new Error('quota exceeded')))).toMatchObject({ _tag: 'InputError', input: 'embed', message: 'embed: the embeddings function failed: quota exceeded' })
    expect((await fail(() => { throw new Error('sync') })).message).toBe('embed: the embeddings function failed: sync')
    expect((await fail(async () => [[1]])).message).toBe('embed: returned 1 vector(s) for 4 text(s) (the query and 3 packet(s))')
    expect((await fail(async (t) => t.map((_, i) => (i === 2 ? [1, Number.NaN] : [1, 0])))).message).toBe('embed: result[2] (packet "b")[1]: must be a finite number (got NaN)')
    expect((await fail(async (t) => t.map((_, i) => (i === 3 ? [1, 0, 0] : [1, 0])))).message).toBe(`embed: result[3] (packet "s"): has 3 dimensions, the query's vector has 2`)
    expect((await fail(async () => 'nope' as never)).message).toBe('embed: must resolve to an array of vectors, one per text (got "nope")')
  })

  it('without embed nothing is embedded and relevance stays keyword overlap', async () => {
    const g = await run(gather([task(), additional()], { tokenizer: gpt4o, now: NOW })({ query: 'alpha renewals', packets }))
    expect(g.vectors).toBeUndefined()
    expect(defaultSelector()(g).scores.get('a')!.relevance).toBe(1)
  })

  it('cosine: direction only, zero vectors similar to nothing', () => {
    expect(cosine([2, 0], [5, 0])).toBe(1)
    expect(cosine([1, 0], [0, 3])).toBe(0)
    expect(cosine([0, 0], [1, 1])).toBe(0)
  })
})
