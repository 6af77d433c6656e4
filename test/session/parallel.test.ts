import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { describe, expect, it } from 'vitest'
import { buildSessions, mapLimit } from '../../src/session/parallel.js'
import { fixture, tokenizer } from './helpers.js'

describe('mapLimit', () => {
  it('never runs more than the limit at once and keeps input order', async () => {
    let running = 0
    let peak = 0
    const task = (n: number) => async () => {
      running++
      peak = Math.max(peak, running)
      await new Promise((r) => setImmediate(r))
      running--
      return n * 2
    }
    expect(await mapLimit(3, task)([1, 2, 3, 4, 5, 6, 7])()).toEqual([2, 4, 6, 8, 10, 12, 14])
    expect(peak).toBe(3)
    expect(await mapLimit(3, task)([])()).toEqual([])
  })
})

describe('buildSessions', () => {
  it('builds several sessions of different formats, one failure not failing the rest', async () => {
    const results = await buildSessions(
      [{ file: fixture('pi-v3-branches.jsonl') }, { file: fixture('claude-code.jsonl') }, { file: fixture('missing.jsonl') }, { file: fixture('seed.jsonl'), leaf: '5' }],
      { tokenizer },
      2,
    )()
    expect(results.map((r) => (E.isRight(r) ? [r.right.format, r.right.context.leafId] : r.left._tag))).toEqual([
      ['pi', 'a000000f'],
      ['claude-code', '6f1b2c3d-0000-4000-8000-000000000016'],
      'InputError',
      ['seed', '5'],
    ])
  })

  it('goes through the build function it is given', async () => {
    const seen: string[] = []
    const results = await buildSessions([{ file: 'a' }, { file: 'b', leaf: 'x' }], { tokenizer }, 4, (file, o) => {
      seen.push(`${file}:${o.leaf ?? '-'}`)
      return TE.left({ _tag: 'InputError', input: file, message: 'no' })
    })()
    expect(seen).toEqual(['a:-', 'b:x'])
    expect(results.every(E.isLeft)).toBe(true)
  })
})
