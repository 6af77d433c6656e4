import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listBranches } from '../../src/session/branches.js'
import { syntheticPiSession } from '../../src/session/synthetic.js'
import { load, tempDir } from './helpers.js'

describe('listBranches', () => {
  it('lists each leaf with its length, last message, timestamps and label', async () => {
    const branches = listBranches({ previewChars: 30 })(await load('pi-v3-branches.jsonl'))
    expect(branches).toEqual([
      {
        leafId: 'a0000010',
        line: 8,
        length: 7,
        messageEntries: 4,
        lastMessage: { entryId: 'a0000006', role: 'assistant', preview: 'build.sh calls an npm script …' },
        firstTimestamp: Date.parse('2026-01-10T09:00:00.100Z'),
        lastTimestamp: Date.parse('2026-01-10T09:00:20.000Z'),
        label: 'diagnosis',
        isDefault: false,
      },
      {
        leafId: 'a000000f',
        line: 23,
        length: 17,
        messageEntries: 8,
        lastMessage: { entryId: 'a000000f', role: 'user', preview: 'Now run the tests.' },
        firstTimestamp: Date.parse('2026-01-10T09:00:00.100Z'),
        lastTimestamp: Date.parse('2026-01-10T09:31:00.000Z'),
        isDefault: true,
      },
    ])
  })

  it('handles broken trees: a missing parent makes a root, a cycle is cut where its diagnostic says and its entries stay', async () => {
    const branches = listBranches()(await load('broken.jsonl'))
    // "c6 is treated as a root" (line 13): c5 hangs below it
    expect(branches.map((b) => [b.leafId, b.length, b.isDefault])).toEqual([
      ['c4', 1, false],
      ['c5', 2, false],
      ['c8', 4, true],
    ])
  })

  it('counts a deep branch without recursion', async () => {
    const file = join(tempDir(), 'deep.jsonl')
    writeFileSync(file, syntheticPiSession({ messages: 20_000 }).join('\n') + '\n')
    const [only] = listBranches()(await load(file))
    expect(only).toMatchObject({ length: 20_001, messageEntries: 20_000, isDefault: true })
  })
})
