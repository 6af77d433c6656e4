import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli } from './run.js'
import { fixture } from '../shared.js'

describe('gssc batch', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gssc-batch-'))
    await copyFile(fixture('pi', 'large-session.jsonl'), join(dir, 'b-large.jsonl'))
    await copyFile(fixture('pi', 'before-compaction.jsonl'), join(dir, 'a-compaction.jsonl'))
    await writeFile(join(dir, 'c-broken.jsonl'), 'not a session\n')
    await writeFile(join(dir, 'notes.txt'), 'not read')
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('prints one JSON line per session file, in name order, each the report gssc build --session --json prints', async () => {
    const batch = await cli(['batch', dir, '--threads', '2', '--max-tokens', '3000', '-q', 'What is left to do?'])
    const lines = batch.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { file: string; ok: boolean; tokenCount?: number; output?: string; error?: string })
    expect(lines.map((l) => l.file)).toEqual(['a-compaction.jsonl', 'b-large.jsonl', 'c-broken.jsonl'].map((f) => join(dir, f)))
    expect(lines.map((l) => l.ok)).toEqual([true, true, false])
    expect(lines[2]!.error).toMatch(/c-broken\.jsonl/)
    // a failed file fails the batch, and nothing is drawn when standard error is not a terminal
    expect(batch.code).toBe(1)
    expect(batch.stderr).toBe('')
    // the same as building the file alone
    const alone = await cli(['build', '--session', join(dir, 'b-large.jsonl'), '--max-tokens', '3000', '-q', 'What is left to do?', '--json'])
    const report = JSON.parse(alone.stdout) as { tokenCount: number; output: string }
    expect(lines[1]!.tokenCount).toBe(report.tokenCount)
    expect(lines[1]!.output).toBe(report.output)
  })

  it('reads the files a glob matches, and says so when none does', async () => {
    const batch = await cli(['batch', join(dir, 'a-*.jsonl'), '--threads', '1'])
    expect(batch.code).toBe(0)
    expect(batch.stdout.trimEnd().split('\n')).toHaveLength(1)
    const none = await cli(['batch', join(dir, 'zzz-*.jsonl')])
    expect(none.code).toBe(1)
    expect(none.stderr).toMatch(/no session files/)
  })
})
