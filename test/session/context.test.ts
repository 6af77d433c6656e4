import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { branchContext } from '../../src/session/context.js'
import { loadSession } from '../../src/session/load.js'
import { fixture, load } from './helpers.js'

describe('branchContext', () => {
  it('gives pi’s empty context for a null leaf', async () => {
    const c = branchContext({ leaf: null })(await load('pi-v3-branches.jsonl'))
    expect(E.isRight(c) && c.right).toMatchObject({ leafId: null, path: [], messages: [], thinkingLevel: 'off', model: null })
  })

  it('fails, naming the file, for a leaf that is not in it', async () => {
    const c = branchContext({ leaf: 'nope' })(await load('pi-v3-branches.jsonl'))
    expect(E.isLeft(c) && c.left.message).toBe('test/fixtures/session/pi-v3-branches.jsonl: leaf "nope" is not an entry id in this file (gssc sessions lists the leaves)')
  })

  it('cuts a parent cycle where the load diagnostic says, so walks from either entry agree, and stops a walk at a missing parent', async () => {
    const s = await load('broken.jsonl')
    expect(s.diagnostics.find((d) => d.line === 13)?.reason).toBe('parent cycle: entry "c6" points back to "c5"; "c6" is treated as a root')
    const fromC5 = branchContext({ leaf: 'c5' })(s)
    expect(E.isRight(fromC5) && fromC5.right.path).toEqual(['c6', 'c5'])
    expect(E.isRight(fromC5) && fromC5.right.messages.map((m) => m.entryId)).toEqual(['c6', 'c5'])
    const fromC6 = branchContext({ leaf: 'c6' })(s)
    expect(E.isRight(fromC6) && fromC6.right.path).toEqual(['c6'])
    const orphan = branchContext({ leaf: 'c4' })(s)
    expect(E.isRight(orphan) && orphan.right.messages.map((m) => m.entryId)).toEqual(['c4'])
    expect(E.isRight(orphan) && orphan.right.diagnostics.length).toBe(1)
    const strict = await loadSession(fixture('broken.jsonl'), { strict: true })()
    expect(E.isLeft(strict) && strict.left.message).toMatch(/broken\.jsonl:4: invalid JSON/)
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
