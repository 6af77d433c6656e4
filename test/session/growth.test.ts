import { appendFileSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildSession } from '../../src/session/build.js'
import { fingerprint, statOf } from '../../src/session/fingerprint.js'
import { appendedBytes, growth, heldFingerprint } from '../../src/session/growth.js'
import { rebuildSession } from '../../src/session/incremental.js'
import { bufferLines, readLines, type RawLine } from '../../src/session/lines.js'
import { syntheticPiSession, syntheticUserLine } from '../../src/session/synthetic.js'
import { right, tempDir, tokenizer } from './helpers.js'

/** A file of `bytes` bytes of short lines, and its fingerprint read up to its end. */
const fileOf = async (bytes: number) => {
  const file = join(tempDir(), 'g.jsonl')
  const line = (i: number): string => `{"n":${i},"t":"${'x'.repeat(20 + (i % 13))}"}\n`
  let text = ''
  for (let i = 0; text.length < bytes; i++) text += line(i)
  writeFileSync(file, text)
  return { file, text, fp: await fingerprint(file, await statOf(file), text.length) }
}

describe('growth', () => {
  // a file shorter than the 4 KiB windows, one between one and two windows, one longer
  it.each([100, 5000, 20_000])('holds the appended bytes and hashes the next fingerprint as a fresh read would (%i bytes read before)', async (size) => {
    const { file, text, fp } = await fileOf(size)
    const more = '{"more":1}\n{"and":"é 🎉"}\n{"open":'
    appendFileSync(file, more)
    const g = growth(file, fp)
    if (g._tag !== 'Grown' || g.held === undefined) throw new Error(`expected held bytes, got ${g._tag}`)
    expect(Buffer.from(appendedBytes(fp, g.held)).toString()).toBe(more)
    const stat = await statOf(file)
    expect(g.stat).toEqual(stat)
    // every end a scan can stop at: nothing new read, the first line, both lines
    for (const end of [text.length, text.length + 11, text.length + Buffer.byteLength('{"more":1}\n{"and":"é 🎉"}\n')])
      expect(heldFingerprint(fp, g.stat, g.held, end)).toEqual(await fingerprint(file, stat, end))
  })

  it('is Same for a file untouched or only touched, and names what changed otherwise', async () => {
    const { file, text, fp } = await fileOf(9000)
    expect(growth(file, fp)).toEqual({ _tag: 'Same' })
    utimesSync(file, new Date(), new Date(Date.now() + 5000))
    expect(growth(file, fp)).toEqual({ _tag: 'Same' })
    writeFileSync(file, text.slice(0, 100))
    expect(growth(file, fp)).toEqual({ _tag: 'Changed', reason: `the file shrank (100 < ${text.length} bytes read before)` })
    writeFileSync(file, `${text.slice(0, -5)}XXXX\n{"b":2}\n`)
    expect(growth(file, fp)).toEqual({ _tag: 'Changed', reason: 'the bytes read before have changed (the file was rewritten)' })
    writeFileSync(file, `Y${text.slice(1)}{"b":2}\n`)
    expect(growth(file, fp)).toEqual({ _tag: 'Changed', reason: 'the bytes read before have changed (the file was rewritten)' })
    const other = join(tempDir(), 'other.jsonl')
    writeFileSync(other, `${text}{"b":2}\n`)
    renameSync(other, file)
    expect(growth(file, fp)).toEqual({ _tag: 'Changed', reason: 'the file was replaced (new inode)' })
  })

  it('holds nothing when more than the limit was appended', async () => {
    const { file, fp } = await fileOf(5000)
    appendFileSync(file, '{"more":1}\n')
    expect(growth(file, fp, 10)).toMatchObject({ _tag: 'Grown' })
    expect(growth(file, fp, 10)).not.toHaveProperty('held')
  })

  it('throws for a file it cannot open', () => {
    expect(() => growth(join(tempDir(), 'gone.jsonl'), { dev: 0, ino: 0, mtimeMs: 0, end: 0, head: '', tail: '' })).toThrow(/ENOENT/)
  })
})

describe('bufferLines', () => {
  it('splits bytes as readLines splits the file', async () => {
    const { file, text } = await fileOf(3000)
    appendFileSync(file, '\r\n\n{"tail":"no newline"}')
    const streamed: RawLine[] = []
    for await (const batch of readLines(file, { start: 1000, firstLine: 40, chunkSize: 64 })) streamed.push(...batch)
    expect(bufferLines(readFileSync(file).subarray(1000), { start: 1000, firstLine: 40 })).toEqual(streamed)
    expect(streamed.at(-1)).toMatchObject({ text: '{"tail":"no newline"}', terminated: false })
    expect(text.length).toBeGreaterThan(1000)
  })
})

describe('rebuildSession, appended lines read with the check or streamed', () => {
  it('gives what a full build gives, whether a turn appended a line or more than 1 MiB', async () => {
    const file = join(tempDir(), 's.jsonl')
    writeFileSync(file, `${syntheticPiSession({ messages: 200 }).join('\n')}\n`)
    const o = { tokenizer }
    const first = right(await buildSession(file, o)())
    appendFileSync(file, `${syntheticUserLine(200, 'one more line')}\n`)
    const small = right(await rebuildSession(file, o, first)())
    expect(small.stats).toEqual({ mode: 'incremental', linesRead: 1, messagesConverted: 1 })
    expect(small.history).toEqual(right(await buildSession(file, o)()).history)
    expect(small.resume.fingerprint).toEqual(right(await buildSession(file, o)()).resume.fingerprint)
    // a turn longer than what is read along with the check: streamed
    appendFileSync(file, `${syntheticUserLine(201, 'long '.repeat(250_000))}\n`)
    const big = right(await rebuildSession(file, o, small)())
    expect(big.stats).toEqual({ mode: 'incremental', linesRead: 1, messagesConverted: 1 })
    const full = right(await buildSession(file, o)())
    expect(big.history).toEqual(full.history)
    expect(big.resume.fingerprint).toEqual(full.resume.fingerprint)
  })
})
