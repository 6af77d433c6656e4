import * as E from 'fp-ts/lib/Either.js'
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sessionBenchmark } from '../../src/session/bench.js'
import { buildSession, type SessionBuild, type SessionBuildOptions } from '../../src/session/build.js'
import { rebuildSession } from '../../src/session/incremental.js'
import { fixture, right, tempDir, tokenizer } from './helpers.js'

const comparable = (b: SessionBuild) => ({ format: b.format, context: b.context, history: b.history, diagnostics: b.diagnostics })

/** Writes the first `start` lines of a fixture, then appends the rest one line at a time, checking each rebuild against a full build. */
const replay = async (name: string, start: number, options: Omit<SessionBuildOptions, 'tokenizer'> = {}) => {
  const lines = readFileSync(fixture(name), 'utf8').trimEnd().split('\n')
  const file = join(tempDir(), name)
  writeFileSync(file, lines.slice(0, start).join('\n') + '\n')
  const o = { tokenizer, ...options }
  let build = right(await buildSession(file, o)())
  const steps: Array<{ line: number; mode: string; fallback?: string; converted: number }> = []
  for (let i = start; i < lines.length; i++) {
    appendFileSync(file, lines[i] + '\n')
    const before = JSON.stringify(comparable(build))
    const next = right(await rebuildSession(file, o, build)())
    expect(JSON.stringify(comparable(build)), 'the previous build is left as it was').toBe(before)
    expect(comparable(next), `after line ${i + 1}`).toEqual(comparable(right(await buildSession(file, o)())))
    steps.push({ line: i + 1, mode: next.stats.mode, ...(next.stats.fallback === undefined ? {} : { fallback: next.stats.fallback }), converted: next.stats.messagesConverted })
    build = next
  }
  return { steps, file, build }
}

describe('rebuildSession', () => {
  it('pi: reads only appended lines while the branch grows, and reloads on a branch switch or a compaction', async () => {
    const { steps } = await replay('pi-v3-branches.jsonl', 3)
    expect(steps.map((s) => [s.line, s.mode, s.fallback ?? ''])).toEqual([
      [4, 'incremental', ''],
      [5, 'incremental', ''],
      [6, 'incremental', ''],
      [7, 'incremental', ''],
      [8, 'incremental', ''],
      [9, 'full', 'the new leaf "a0000007" is not below the previous leaf "a0000010"'],
      [10, 'incremental', ''],
      [11, 'incremental', ''],
      [12, 'incremental', ''],
      [13, 'incremental', ''],
      [14, 'incremental', ''],
      [15, 'incremental', ''],
      [16, 'incremental', ''],
      [17, 'incremental', ''],
      [18, 'full', 'a compaction was appended'],
      [19, 'incremental', ''],
      [20, 'incremental', ''],
      [21, 'incremental', ''],
      [22, 'incremental', ''],
      [23, 'incremental', ''],
    ])
    // one message per appended message line, nothing for settings and labels
    expect(steps.filter((s) => s.mode === 'incremental').map((s) => s.converted)).toEqual([1, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0, 1, 0, 0, 1])
  })

  it('Claude Code: a transcript that grew is loaded again (its branches come from the whole file), and matches a full build at every line', async () => {
    const { steps } = await replay('claude-code.jsonl', 5)
    expect(steps.every((s) => s.mode === 'full' && s.fallback === 'a Claude Code transcript grew: its branches are rebuilt from the whole file')).toBe(true)
  })

  it('seed format: a tool call appended joins the assistant turn before it', async () => {
    const { steps } = await replay('seed.jsonl', 2)
    expect(steps.map((s) => s.mode)).toEqual(['incremental', 'incremental', 'incremental', 'full', 'incremental'])
  })

  it('reads nothing when nothing changed', async () => {
    const file = join(tempDir(), 's.jsonl')
    writeFileSync(file, readFileSync(fixture('pi-v3-branches.jsonl')))
    const first = right(await buildSession(file, { tokenizer })())
    const again = right(await rebuildSession(file, { tokenizer }, first)())
    expect(again.stats).toEqual({ mode: 'unchanged', linesRead: 0, messagesConverted: 0 })
    expect(again.context).toBe(first.context)
  })

  it('reloads when the file was truncated, rewritten, replaced, or built with other options', async () => {
    const dir = tempDir()
    const file = join(dir, 's.jsonl')
    const text = readFileSync(fixture('pi-v3-branches.jsonl'), 'utf8')
    writeFileSync(file, text)
    const first = right(await buildSession(file, { tokenizer })())
    writeFileSync(file, text.replace('Why does the build fail?', 'Why does the test fail?') + readFileSync(fixture('pi-v2.jsonl'), 'utf8').split('\n')[1] + '\n')
    expect(right(await rebuildSession(file, { tokenizer }, first)()).stats.fallback).toBe('the bytes read before have changed (the file was rewritten)')
    writeFileSync(file, text.slice(0, 2000))
    expect(right(await rebuildSession(file, { tokenizer }, first)()).stats.fallback).toMatch(/^the file shrank/)
    const target = { tokenizer, target: { model: 'claude-sonnet-4-5' } }
    writeFileSync(file, text)
    expect(right(await rebuildSession(file, target, right(await buildSession(file, { tokenizer })()))()).stats.fallback).toBe('the options changed')
  })

  it('reloads after a file that ended mid-line, and then sees the completed line', async () => {
    const file = join(tempDir(), 's.jsonl')
    const lines = readFileSync(fixture('pi-v3-branches.jsonl'), 'utf8').trimEnd().split('\n')
    const last = lines[lines.length - 1]!
    writeFileSync(file, lines.slice(0, -1).join('\n') + '\n' + last.slice(0, 40))
    const partial = right(await buildSession(file, { tokenizer })())
    expect(partial.diagnostics.map((d) => d.line)).toEqual([23])
    appendFileSync(file, last.slice(40) + '\n')
    const done = right(await rebuildSession(file, { tokenizer }, partial)())
    expect(done.stats.fallback).toBe('the file ended mid-line when last read')
    expect(done.diagnostics).toEqual([])
    expect(done.context.leafId).toBe('a000000f')
  })

  it('reloads when an appended line reuses a known id', async () => {
    const file = join(tempDir(), 's.jsonl')
    writeFileSync(file, readFileSync(fixture('pi-v2.jsonl')))
    const first = right(await buildSession(file, { tokenizer })())
    appendFileSync(file, '{"type":"message","id":"b2","parentId":"b3","timestamp":"2025-12-01T08:00:04.000Z","message":{"role":"user","content":"again","timestamp":1}}\n')
    const next = right(await rebuildSession(file, { tokenizer }, first)())
    expect(next.stats.fallback).toBe('an appended line reuses the id "b2"')
    expect(next.diagnostics.map((d) => d.reason)).toEqual(['duplicate id "b2" (first on line 3); this line is ignored'])
  })

  it('reports a missing parent and a cycle among appended lines that are off the branch, as a full build does (a cycle is cut by a full load)', async () => {
    const file = join(tempDir(), 's.jsonl')
    writeFileSync(file, readFileSync(fixture('pi-v2.jsonl')))
    const first = right(await buildSession(file, { tokenizer })())
    const line = (id: string, parent: string, text: string) =>
      `{"type":"message","id":"${id}","parentId":"${parent}","timestamp":"2025-12-01T08:00:09.000Z","message":{"role":"user","content":"${text}","timestamp":9}}`
    appendFileSync(file, [line('x1', 'ghost', 'lost'), line('y1', 'y2', 'loop a'), line('y2', 'y1', 'loop b'), line('b4', 'b3', 'carry on')].join('\n') + '\n')
    const next = right(await rebuildSession(file, { tokenizer }, first)())
    expect(next.stats.fallback).toBe('an appended line closes a parent cycle')
    expect(next.diagnostics.map((d) => d.line)).toEqual([5, 7])
    expect(comparable(next)).toEqual(comparable(right(await buildSession(file, { tokenizer })())))
  })

  it('keeps an explicit leaf’s context as lines are appended after it', async () => {
    const { steps, build } = await replay('pi-v3-branches.jsonl', 8, { leaf: 'a0000006' })
    expect(steps.every((s) => s.mode === 'incremental' && s.converted === 0)).toBe(true)
    expect(build.context.leafId).toBe('a0000006')
  })

  it('fails like a full build on a missing file', async () => {
    const file = join(tempDir(), 's.jsonl')
    writeFileSync(file, readFileSync(fixture('pi-v2.jsonl')))
    const first = right(await buildSession(file, { tokenizer })())
    const gone = await rebuildSession(join(tempDir(), 'gone.jsonl'), { tokenizer }, first)()
    expect(E.isLeft(gone) && gone.left.message).toMatch(/gone\.jsonl: cannot read the file/)
  })
})

describe('sessionBenchmark', () => {
  it('builds cold, then converts only the appended message', async () => {
    const r = await sessionBenchmark({ messages: 400, tokenizer })
    expect(r.cold).toEqual({ mode: 'full', linesRead: 402, messagesConverted: 400 })
    expect(r.append).toEqual({ mode: 'incremental', linesRead: 1, messagesConverted: 1 })
    expect(r.historyItems).toBe(401)
    expect(r.bytes).toBeGreaterThan(0)
  })
})
