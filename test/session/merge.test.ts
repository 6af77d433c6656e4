import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { mergeBranches } from '../../src/session/merge.js'
import { load } from './helpers.js'

describe('mergeBranches', () => {
  it('keeps the shared prefix once, then each branch’s own part after a marker', async () => {
    const s = await load('seed.jsonl')
    const r = mergeBranches(['5', '7'])(s)
    if (E.isLeft(r)) throw new Error(r.left.message)
    expect(r.right.messages.map((m) => [m.entryId, m.kind])).toEqual([
      ['1', 'message'],
      ['2', 'message'],
      ['4', 'message'],
      ['5', 'message'],
      ['branch:7', 'branchSummary'],
      ['6', 'message'],
      ['7', 'message'],
    ])
    expect(r.right.branches).toEqual([
      { leafId: '5', shared: 0, own: 4 },
      { leafId: '7', shared: 2, own: 2 },
    ])
    expect(r.right.messages[4]!.message.parts[0]).toMatchObject({ _tag: 'Text', text: expect.stringContaining('ending at entry 7') })
  })

  it('adds nothing for a branch already included, and can leave markers out', async () => {
    const s = await load('pi-v3-branches.jsonl')
    const r = mergeBranches(['a000000f', 'a0000009'], { marker: false })(s)
    if (E.isLeft(r)) throw new Error(r.left.message)
    expect(r.right.branches[1]).toEqual({ leafId: 'a0000009', shared: 2, own: 1 })
    // the branch summary is on a0000009's branch only: its compaction hid it on the other
    expect(r.right.messages.map((m) => m.entryId).slice(-1)).toEqual(['a0000007'])
    expect(r.right.messages.some((m) => m.entryId.startsWith('branch:'))).toBe(false)
  })

  it('fails on an unknown leaf', async () => {
    const r = mergeBranches(['1', 'zz'])(await load('seed.jsonl'))
    expect(E.isLeft(r) && r.left.message).toMatch(/leaf "zz" is not an entry id/)
  })
})
