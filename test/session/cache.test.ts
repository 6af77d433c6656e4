import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSessionCache } from '../../src/session/cache.js'
import { fixture, right, tempDir, tokenizer } from './helpers.js'

const setup = () => {
  const dir = tempDir()
  const file = join(dir, 's.jsonl')
  const lines = readFileSync(fixture('pi-v3-branches.jsonl'), 'utf8').trimEnd().split('\n')
  writeFileSync(file, lines.slice(0, 20).join('\n') + '\n')
  let now = 1_000
  const clock = () => now
  return { dir, file, lines, clock, advance: (ms: number) => (now += ms) }
}

describe('createSessionCache', () => {
  it('reuses a build within the TTL (unchanged, then incremental) and reads in full after it', async () => {
    const { file, lines, clock, advance } = setup()
    const cache = createSessionCache({ ttlMs: 60_000, clock })
    const first = right(await cache.build(file, { tokenizer })())
    expect(first.stats.mode).toBe('full')
    expect(right(await cache.build(file, { tokenizer })()).stats.mode).toBe('unchanged')
    appendFileSync(file, lines[20] + '\n')
    advance(30_000)
    expect(right(await cache.build(file, { tokenizer })()).stats.mode).toBe('incremental')
    // the TTL runs from the last full read, not from the last use
    advance(30_000)
    expect(right(await cache.build(file, { tokenizer })()).stats.mode).toBe('full')
    expect(right(await cache.build(file, { tokenizer })()).stats.mode).toBe('unchanged')
  })

  it('keys builds by leaf and options, evicts the oldest, and forgets a file on request', async () => {
    const { file, clock } = setup()
    const cache = createSessionCache({ ttlMs: 60_000, clock, maxEntries: 2 })
    const a = right(await cache.build(file, { tokenizer, leaf: 'a0000006' })())
    const b = right(await cache.build(file, { tokenizer })())
    expect(a.context.leafId).toBe('a0000006')
    expect(b.context.leafId).not.toBe('a0000006')
    expect(cache.size()).toBe(2)
    expect(right(await cache.build(file, { tokenizer, leaf: 'a0000006' })()).stats.mode).toBe('unchanged')
    await cache.build(file, { tokenizer, target: { model: 'gpt-5' } })()
    expect(cache.size()).toBe(2)
    // the default-leaf build was the least recently used
    expect(right(await cache.build(file, { tokenizer })()).stats.mode).toBe('full')
    cache.invalidate(file)
    expect(cache.size()).toBe(0)
  })

  it('does not keep failures', async () => {
    const { dir, clock } = setup()
    const cache = createSessionCache({ ttlMs: 60_000, clock })
    const r = await cache.build(join(dir, 'missing.jsonl'), { tokenizer })()
    expect(r._tag).toBe('Left')
    expect(cache.size()).toBe(0)
  })
})
