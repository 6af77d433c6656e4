import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseObject, readLines, type RawLine } from '../../src/session/lines.js'
import { tempDir } from './helpers.js'

const all = async (file: string, from = {}): Promise<RawLine[]> => {
  const out: RawLine[] = []
  for await (const batch of readLines(file, from)) out.push(...batch)
  return out
}

describe('readLines', () => {
  const lines = ['{"a":"héllo wörld 🎉"}', '', 'x'.repeat(50), '{"b":1}\r', 'tail without newline']
  const file = join(tempDir(), 'lines.jsonl')
  writeFileSync(file, lines.join('\n'))

  it.each([3, 7, 64, 1 << 20])('splits lines and tracks byte offsets with %i-byte chunks', async (chunkSize) => {
    const got = await all(file, { chunkSize })
    expect(got.map((l) => l.text)).toEqual(['{"a":"héllo wörld 🎉"}', '', 'x'.repeat(50), '{"b":1}', 'tail without newline'])
    expect(got.map((l) => l.line)).toEqual([1, 2, 3, 4, 5])
    let offset = 0
    got.forEach((l, i) => {
      offset += Buffer.byteLength(lines[i]!) + (i < lines.length - 1 ? 1 : 0)
      expect(l.end).toBe(offset)
    })
    expect(got.map((l) => l.terminated)).toEqual([true, true, true, true, false])
  })

  it('resumes at a byte offset with the right line numbers', async () => {
    const first = await all(file)
    const rest = await all(file, { start: first[1]!.end, firstLine: 3, chunkSize: 5 })
    expect(rest.map((l) => [l.line, l.text])).toEqual([
      [3, 'x'.repeat(50)],
      [4, '{"b":1}'],
      [5, 'tail without newline'],
    ])
  })

  it('rejects through the iterator when the file is missing', async () => {
    await expect(all(join(tempDir(), 'nope.jsonl'))).rejects.toThrow(/ENOENT/)
  })
})

describe('parseObject', () => {
  it('accepts objects and names what anything else is', () => {
    expect(parseObject('{"type":"x"}')).toEqual({ value: { type: 'x' } })
    expect(parseObject('42')).toEqual({ reason: 'not a JSON object (got number)' })
    expect(parseObject('[1]')).toEqual({ reason: 'not a JSON object (got an array)' })
    expect(parseObject('"x"')).toEqual({ reason: 'not a JSON object (got string)' })
    expect(parseObject('null')).toEqual({ reason: 'not a JSON object (got null)' })
    expect(parseObject('{"a":')).toMatchObject({ reason: expect.stringMatching(/^invalid JSON \(/) })
  })
})
