/**
 * Malformed and hostile input files (test/fixtures/hostile/), each run through the command
 * line and the API: a clear error naming the input and the position, or a correct report;
 * never a crash, a silent loss, or text that changes the output's structure.
 */
import { readFileSync } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { buildChunkContext } from '../src/chunks/build.js'
import { parseMemoryState } from '../src/chunks/parse.js'
import { parseHistory, parsePackets } from '../src/cli/files.js'
import { parseJson } from '../src/json.js'
import { build } from '../src/pipeline.js'
import { template } from '../src/structure/template.js'
import { xml } from '../src/structure/xml.js'
import { cli } from './cli/run.js'
import { gpt4o, NOW, right } from './helpers.js'
import { elements, parseXml } from './xml.js'

const F = 'test/fixtures/hostile'
const text = (name: string): string => readFileSync(`${F}/${name}`, 'utf8')

/** Fixtures that must fail: the flag, and what the message says (file, position, problem). */
const failing: ReadonlyArray<readonly [string, ReadonlyArray<string>, RegExp]> = [
  ['history-cut-after-comma.json', ['--history'], /history-cut-after-comma\.json:3:1: not valid JSON: the text ends too early: a value is expected$/],
  ['history-bad-part.json', ['--history'], /history-bad-part\.json:4: \[2\]\.content\[0\]: must be a part: .* \(got 42\)$/],
  ['history-bad-timestamp.jsonl', ['--history'], /history-bad-timestamp\.jsonl:2: timestamp: must be epoch milliseconds .* \(got "next tuesday"\)$/],
  ['history-impossible-date.jsonl', ['--history'], /history-impossible-date\.jsonl:1: timestamp: .* \(got "2026-02-30T10:00:00Z"\)$/],
  ['packets-bad-priority.jsonl', ['--packets'], /packets-bad-priority\.jsonl:3: priority: must be 0, 1, 2, 3 or 4 \(got 9\)$/],
  ['packets-cut.jsonl', ['--packets'], /packets-cut\.jsonl:2:31: not valid JSON: the text ends too early: a value is expected$/],
  ['chunks-cut.json', ['--chunks'], /chunks-cut\.json:5:1: not valid JSON: the text ends too early/],
  ['chunks-bad-type.json', ['--chunks'], /chunks-bad-type\.json\.chunks\["c1"\]\.type: must be one of .* \(got "AGNET"\)$/],
  ['template-unclosed.txt', ['--structurer', 'template', '--template'], /template-unclosed\.txt: template placeholder \{\{task\}\}: not closed with \}\} \(line 4, column 11\)/],
  ['template-stray.txt', ['--structurer', 'template', '--template'], /template-stray\.txt: template placeholder \{\{"a": 1\}\}: unknown \(line 3, column 15\)/],
]

describe('hostile fixtures through the command line', () => {
  it.each(failing)('%s fails with exit 1 and one line naming the file and where', async (name, flag, message) => {
    const r = await cli(['build', '-q', 'compile', ...flag, `${F}/${name}`])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(r.stderr.trimEnd()).toMatch(message)
  })

  it('accepts a BOM, CRLF lines and ISO timestamps', async () => {
    for (const name of ['history-bom.json', 'history-crlf-bom.jsonl', 'history-iso-timestamps.jsonl']) {
      const r = await cli(['build', '-q', 'compile', '--history', `${F}/${name}`, '--json'])
      expect([name, r.code]).toEqual([name, 0])
      expect(JSON.parse(r.stdout).included.filter((id: string) => id.startsWith('history:')).length).toBeGreaterThan(0)
    }
    const p = JSON.parse((await cli(['build', '-q', 'compile script', '--packets', `${F}/packets-iso-timestamp.jsonl`, '--json'])).stdout)
    expect(p.packets.find((x: { type: string }) => x.type === 'evidence')).toMatchObject({ status: 'kept' })
    // an empty file is an empty JSON Lines history: nothing to report, nothing lost
    const empty = await cli(['build', '-q', 'compile', '--history', `${F}/history-empty.json`, '--json'])
    expect([empty.code, JSON.parse(empty.stdout).excluded]).toEqual([0, []])
    const c = await cli(['build', '--chunks', `${F}/chunks-bom.json`, '--structurer', 'xml'])
    expect([c.code, c.stdout]).toEqual([0, expect.stringContaining('hi')])
  })

  it('reports what it leaves out: turns beyond --max-history, chunks missing from chunkIds', async () => {
    const h = await cli(['build', '-q', 'compile', '--history', `${F}/history-60-turns.jsonl`, '--json'])
    expect(JSON.parse(h.stdout).excluded).toContainEqual(expect.objectContaining({ id: 'history:0..49', reason: 'history_limit' }))
    const c = await cli(['build', '--chunks', `${F}/chunks-unlisted.json`, '--structurer', 'xml', '--json'])
    expect(c.stderr).toContain('chunks-unlisted.json: 1 chunk(s) in chunks but not in chunkIds, left out: "c2"')
    expect(JSON.parse(c.stdout)).toMatchObject({ includedChunkIds: ['c1'], unlistedChunkIds: ['c2'] })
  })

  it('lets no hostile text forge structure in the xml layout; a strict parser reads the output back', async () => {
    for (const name of ['packets-forge.jsonl', 'packets-xml-breakers.jsonl']) {
      const r = await cli(['build', '-q', 'Paris', '--packets', `${F}/${name}`, '--structurer', 'xml', '--history', `${F}/history-terminal-escapes.json`])
      expect([name, r.code]).toEqual([name, 0])
      const names = elements(parseXml(r.stdout, true)).map((e) => e.name)
      expect(names).toEqual(['history', 'evidence', 'task'])
    }
  })

  it('keeps terminal escapes from the input off the terminal', async () => {
    const r = await cli(['build', '-q', 'compile', '--history', `${F}/history-terminal-escapes.json`, '--explain'])
    expect(r.stderr).not.toMatch(/\u001b\]|\u001b\[2J|\u0007/)
  })
})

describe('hostile fixtures through the API', () => {
  const history = (name: string) => parseHistory(name, text(name))

  it('names the file and position of every malformed file', () => {
    expect(E.isLeft(history('history-cut-after-comma.json'))).toBe(true)
    expect(E.isLeft(parsePackets('packets-bad-priority.jsonl', text('packets-bad-priority.jsonl')))).toBe(true)
    expect(right(E.swap(parseJson('chunks-cut.json', text('chunks-cut.json'))))).toMatchObject({ line: 5, column: 1 })
    expect(right(E.swap(E.chain((j) => parseMemoryState(j, 'chunks-bad-type.json'))(parseJson('chunks-bad-type.json', text('chunks-bad-type.json')))))).toMatchObject({
      input: 'chunks-bad-type.json.chunks["c1"].type',
    })
    expect(right(E.swap(template(text('template-unclosed.txt'))))).toMatchObject({ _tag: 'TemplateError', placeholder: 'task' })
  })

  it('builds from the raw turns with the offending part named, never a vanished history', async () => {
    const turns = JSON.parse(text('history-bad-part.json'))
    const r = await build({ query: 'compile', history: turns }, { tokenizer: gpt4o, now: NOW })()
    expect(E.isLeft(r) && r.left.message).toMatch(/^history\[2\]\.content\[0\]: must be a part/)
  })

  it('reports unlisted chunks, and keeps hostile evidence inside its element', async () => {
    const state = right(parseMemoryState(right(parseJson('chunks-unlisted.json', text('chunks-unlisted.json'))), 'chunks-unlisted.json'))
    expect(right(buildChunkContext(state, { tokenizer: gpt4o })).exclusions).toEqual([{ id: 'c2', reason: 'unlisted', detail: 'in chunks but not in chunkIds: not part of the context' }])
    const packets = right(parsePackets('packets-forge.jsonl', text('packets-forge.jsonl')))
    const out = right(await build({ query: 'Paris', packets }, { tokenizer: gpt4o, now: NOW, structurer: xml() })())
    expect(elements(parseXml(out.output, true)).map((e) => e.name)).toEqual(['evidence', 'task'])
  })
})
