import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { branchContext } from '../../src/session/context.js'
import { load } from './helpers.js'

describe('branchContext', () => {
  it('gives pi’s empty context for a null leaf', async () => {
    const c = branchContext({ leaf: null })(await load('pi-v3-branches.jsonl'))
    expect(E.isRight(c) && c.right).toMatchObject({ leafId: null, path: [], messages: [], thinkingLevel: 'off', model: null })
  })

  it('fails, naming the file, for a leaf that is not in it', async () => {
    const c = branchContext({ leaf: 'nope' })(await load('pi-v3-branches.jsonl'))
    expect(E.isLeft(c) && c.left.message).toBe('test/fixtures/session/pi-v3-branches.jsonl: leaf "nope" is not an entry id in this file')
  })

  it('stops a walk at a parent cycle and at a missing parent, saying so', async () => {
    const s = await load('broken.jsonl')
    const cycle = branchContext({ leaf: 'c6' })(s)
    expect(E.isRight(cycle) && cycle.right.path).toEqual(['c5', 'c6'])
    expect(E.isRight(cycle) && cycle.right.diagnostics.map((d) => [d.line, d.reason])).toEqual([
      [12, 'parent cycle: entry "c5" points back to "c6"; "c5" is treated as a root'],
    ])
    const orphan = branchContext({ leaf: 'c4' })(s)
    expect(E.isRight(orphan) && orphan.right.messages.map((m) => m.entryId)).toEqual(['c4'])
    expect(E.isRight(orphan) && orphan.right.diagnostics.length).toBe(1)
    const strict = branchContext({ leaf: 'c6', strict: true })(s)
    expect(E.isLeft(strict) && strict.left.message).toMatch(/broken\.jsonl:12: parent cycle/)
  })

  it('keeps nothing before a compaction whose firstKeptEntryId is not on the branch', async () => {
    const s = await load('pi-v3-branches.jsonl')
    // same file, but the compaction points into the abandoned branch
    const moved = new Map(s.byId)
    const compaction = s.byId.get('a000000a')!
    moved.set('a000000a', { ...compaction, body: { _tag: 'Compaction', summary: 'S', firstKeptEntryId: 'a0000004', tokensBefore: 1 } })
    const c = branchContext()({ ...s, byId: moved })
    expect(E.isRight(c) && c.right.compaction?.firstKeptFound).toBe(false)
    expect(E.isRight(c) && c.right.messages.map((m) => m.entryId)).toEqual(['a000000a', 'a000000c', 'a000000f'])
  })

  it('does not change the session it reads', async () => {
    const s = await load('claude-code.jsonl')
    const before = JSON.stringify([...s.byId.values()])
    branchContext({ leaf: '6f1b2c3d-0000-4000-8000-000000000011' })(s)
    expect(JSON.stringify([...s.byId.values()])).toBe(before)
  })
})
