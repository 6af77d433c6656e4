import * as E from 'fp-ts/lib/Either.js'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadSession } from '../../src/session/load.js'
import { contextOf, fixture, load, right, tempDir, writeSession } from './helpers.js'
import { assistant, text, user } from './claude/lines.js'

describe('loadSession: format detection', () => {
  it.each([
    ['pi-v3-branches.jsonl', 'pi', 3],
    ['pi-v2.jsonl', 'pi', 2],
    ['pi-v1.jsonl', 'pi', 1],
    ['claude-code.jsonl', 'claude-code', undefined],
    ['claude-broken.jsonl', 'claude-code', undefined],
    ['seed.jsonl', 'seed', undefined],
  ])('reads %s as %s', async (name, format, version) => {
    const s = await load(name)
    expect(s.format).toBe(format)
    expect(s.version).toBe(version)
    expect(s.entries.length).toBe(s.byId.size)
  })

  it('can be told the format', async () => {
    const s = await load('seed.jsonl', { format: 'seed' })
    expect(s.entries.map((e) => e.id)).toEqual(['1', '2', '3', '4', '5', '6', '7'])
  })
})

describe('loadSession: broken files', () => {
  it('reports every bad line with its number and reason, and keeps the good ones', async () => {
    const s = await load('broken.jsonl')
    // JSON.parse's own wording varies across Node versions: compare up to it
    expect(s.diagnostics.map((d) => [d.line, d.reason.replace(/invalid JSON \(.*\)$/, 'invalid JSON')])).toEqual([
      [4, 'invalid JSON'],
      [5, 'not a JSON object (got number)'],
      [6, 'not a JSON object (got an array)'],
      [7, 'not a JSON object (got string)'],
      [8, 'not a JSON object (got null)'],
      [10, 'duplicate id "c2" (first on line 3); this line is ignored'],
      [11, 'parent "zz-missing" of entry "c4" is not in the file; "c4" is treated as a root'],
      [13, 'parent cycle: entry "c6" points back to "c5"; "c6" is treated as a root'],
      [15, 'unknown entry type "mystery"; kept in the tree, contributes nothing'],
      [16, 'truncated last line (no newline at end of file): invalid JSON'],
    ])
    expect(s.diagnostics.every((d) => d.file === fixture('broken.jsonl'))).toBe(true)
    expect(s.entries.map((e) => e.id)).toEqual(['c1', 'c2', 'c4', 'c5', 'c6', 'c7', 'c8'])
    // the first line with an id wins
    const c2 = s.byId.get('c2')!
    expect(c2.line).toBe(3)
    expect(s.defaultLeaf).toBe('c8')
  })

  it('in strict mode fails on the first problem, naming the file and line', async () => {
    const r = await loadSession(fixture('broken.jsonl'), { strict: true })()
    expect(E.isLeft(r) && r.left).toMatchObject({ _tag: 'InputError', input: fixture('broken.jsonl'), line: 4 })
    expect(E.isLeft(r) && r.left.message).toMatch(/^test\/fixtures\/session\/broken\.jsonl:4: invalid JSON/)
  })

  it('in strict mode also fails on tree problems found after reading', async () => {
    const file = writeSession('dangling.jsonl', [
        '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}',
        '{"type":"message","id":"a","parentId":"ghost","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}',
      ])
    const r = await loadSession(file, { strict: true })()
    expect(E.isLeft(r) && r.left.message).toBe(`${file}:2: parent "ghost" of entry "a" is not in the file; "a" is treated as a root`)
    expect(E.isRight(await loadSession(file)())).toBe(true)
  })

  it('Claude Code: skips non-object lines, keeps the first of duplicate uuids, treats a dangling parent as a root', async () => {
    const s = await load('claude-broken.jsonl')
    expect(s.diagnostics.map((d) => d.line)).toEqual([2, 3, 4, 6, 7, 8, 9])
    expect(s.diagnostics[4]!.reason).toBe('content block "server_tool_use" not supported; dropped')
    expect(s.entries.length).toBe(3)
    expect(s.defaultLeaf).toBe('77777777-0000-4000-8000-000000000003')
  })

  it('fails clearly on a missing, an empty, or an unrecognizable file', async () => {
    const dir = tempDir()
    const missing = await loadSession(join(dir, 'missing.jsonl'))()
    expect(E.isLeft(missing) && missing.left.message).toMatch(/missing\.jsonl: cannot read the file: .*ENOENT/)
    writeFileSync(join(dir, 'empty.jsonl'), '\n\n')
    const empty = await loadSession(join(dir, 'empty.jsonl'))()
    expect(E.isLeft(empty) && empty.left.message).toBe(`${join(dir, 'empty.jsonl')}: the file holds no session lines (it is empty)`)
    writeFileSync(join(dir, 'other.jsonl'), '{"hello":"world"}\n')
    const other = await loadSession(join(dir, 'other.jsonl'))()
    expect(E.isLeft(other) && other.left.message).toMatch(/not a session file gssc knows/)
    writeFileSync(join(dir, 'garbage.jsonl'), 'not json\n')
    const garbage = await loadSession(join(dir, 'garbage.jsonl'))()
    expect(E.isLeft(garbage) && garbage.left.message).toMatch(/no readable session line \(1 bad; the first, on line 1: invalid JSON/)
  })

  it('never loops on a file that is one parent cycle', async () => {
    const file = writeSession('cycle.jsonl', ['{"id":"a","parentId":"b","type":"user","content":"A"}', '{"id":"b","parentId":"a","type":"assistant","content":"B"}'])
    const s = right(await loadSession(file)())
    expect(s.diagnostics.map((d) => d.reason)).toEqual(['parent cycle: entry "b" points back to "a"; "b" is treated as a root'])
    expect(s.defaultLeaf).toBe('b')
  })
})

describe('loadSession: nothing lost without a word', () => {
  it('cuts a Claude Code parent cycle where the diagnostic says, and keeps the turns', async () => {
    const lines = [user('u1', 'a2', 0, 'first'), assistant('a1', 'u1', 1, 'm1', [text('one')]), user('u2', 'a1', 2, 'second'), assistant('a2', 'u2', 3, 'm2', [text('two')])]
    const file = writeSession('cycle.jsonl', lines)
    const s = right(await loadSession(file)())
    expect(s.diagnostics.map((d) => [d.line, d.reason])).toEqual([[2, 'parent cycle: entry "a1" points back to "u1"; "a1" is treated as a root']])
    const c = await contextOf(file)
    expect(c.messages.map((m) => m.entryId)).toEqual(['a1', 'u2', 'a2'])
    expect(c.diagnostics).toEqual([])
    expect((await contextOf(file, { leaf: 'u1' })).messages.map((m) => m.entryId)).toEqual(['a1', 'u2', 'a2', 'u1'])
  })

  it('reports lines of another format, and of a type the format does not have, with their line numbers', async () => {
    const pi = '{"type":"message","id":"p1","parentId":null,"timestamp":"2026-01-10T09:00:05.000Z","message":{"role":"user","content":"hi"}}'
    const claudeFile = writeSession('c.jsonl', [user('u1', null, 0, 'hi'), pi, '{"type":"hologram","uuid":"h1"}', '{"type":"user"}'])
    expect(right(await loadSession(claudeFile)()).diagnostics.map((d) => [d.line, d.reason])).toEqual([
      [2, 'a pi line in a claude-code file; skipped'],
      [3, 'unknown line type "hologram" (not one Claude Code writes); skipped'],
      [4, 'user line has no "uuid"; skipped'],
    ])
    const piFile = writeSession('p.jsonl', ['{"type":"session","version":3,"id":"s","timestamp":"2026-01-10T09:00:00.000Z","cwd":"/"}', pi, user('u1', null, 0, 'hi')])
    expect(right(await loadSession(piFile)()).diagnostics.map((d) => [d.line, d.reason])).toEqual([[3, 'a claude-code line in a pi file; skipped']])
  })

  it('reports a pi format version it does not know, and reads the file as the newest it knows', async () => {
    const file = writeSession('v99.jsonl', ['{"type":"session","version":99,"id":"s","timestamp":"2026-01-10T09:00:00.000Z","cwd":"/"}', '{"type":"message","id":"p1","parentId":null,"timestamp":"2026-01-10T09:00:05.000Z","message":{"role":"user","content":"hi"}}'])
    const s = right(await loadSession(file)())
    expect(s.diagnostics.map((d) => [d.line, d.reason])).toEqual([[1, 'unknown pi session version 99 (gssc reads versions 1 to 3); read as version 3']])
    expect(s.version).toBe(3)
    expect(s.entries.length).toBe(1)
  })
})
