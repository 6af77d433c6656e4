import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import { buildSession, type SessionBuild, type SessionBuildOptions } from '../../src/session/build.js'
import { rebuildSession } from '../../src/session/incremental.js'
import { loadWithScan } from '../../src/session/load.js'
import { sessionSource } from '../../src/session/packets.js'
import { entryReader, isStub } from '../../src/session/stub.js'
import { syntheticPiSession, syntheticUserLine } from '../../src/session/synthetic.js'
import { windowed } from '../../src/session/window.js'
import { gpt4o } from '../helpers.js'
import { fixture } from '../shared.js'

const local = (name: string): string => `test/fixtures/session/${name}`

const built = async (file: string, options: Omit<SessionBuildOptions, 'tokenizer'> = {}): Promise<SessionBuild> => {
  const r = await buildSession(file, { tokenizer: gpt4o, ...options })()
  if (E.isLeft(r)) throw new Error(r.left.message)
  return r.right
}

const windowOf = (b: SessionBuild, budget: number, cap: number | undefined) =>
  windowed(sessionSource(b), b.history.items, { budget, tokenizer: gpt4o, ...(cap === undefined ? {} : { cap }), ...(b.unread === undefined ? {} : { unread: b.unread }) })

/** A reached build gives the window, diagnostics and settings a whole build gives. */
const expectSameWindow = async (file: string, budget: number, cap: number | undefined, leaf?: string, given?: SessionBuild): Promise<SessionBuild> => {
  const at = leaf === undefined ? {} : { leaf }
  const whole = given ?? (await built(file, at))
  const reached = await built(file, { ...at, reach: { budget, ...(cap === undefined ? {} : { cap }) } })
  const [w, r] = [windowOf(whole, budget, cap), windowOf(reached, budget, cap)]
  expect(r.packets).toEqual(w.packets)
  expect(r.excluded.map((x) => [x.id, x.reason])).toEqual(w.excluded.map((x) => [x.id, x.reason]))
  expect(reached.diagnostics).toEqual(whole.diagnostics)
  const { messages: _m, ...settings } = reached.context
  const { messages: _w, ...wholeSettings } = whole.context
  expect(settings).toEqual(wholeSettings)
  // the turns converted are the newest of the whole history, exactly
  expect(reached.history.items).toEqual(whole.history.items.slice(whole.history.items.length - reached.history.items.length))
  if (reached.unread === undefined) expect(reached.history).toEqual(whole.history)
  return reached
}

const SMALL = [local('pi-v1.jsonl'), local('pi-v2.jsonl'), local('pi-v3-branches.jsonl'), local('broken.jsonl'), local('seed.jsonl')]
const LARGE = [fixture('pi', 'large-session.jsonl'), fixture('pi', 'before-compaction.jsonl')]

describe('buildSession with reach', () => {
  it.each(SMALL)('%s: the window, report and settings of a whole build, at every budget', async (file) => {
    const whole = await built(file)
    for (const budget of [0, 40, 1500, 10_000_000]) for (const cap of [undefined, 120]) await expectSameWindow(file, budget, cap, undefined, whole)
  })

  it.each(LARGE)('%s (real, 1,000 lines): the same window and report at a few budgets', async (file) => {
    const whole = await built(file)
    for (const [budget, cap] of [[60, undefined], [1500, 120], [9000, undefined]] as const) await expectSameWindow(file, budget, cap, undefined, whole)
  })

  it('reads only the end of a long session, and says what it left', async () => {
    const reached = await expectSameWindow(fixture('pi', 'large-session.jsonl'), 3400, 2000)
    expect(reached.history.items.length).toBeLessThan(100)
    const u = reached.unread!
    expect(u.entries).toBeGreaterThan(900)
    expect([u.firstId, u.firstLine]).toEqual(['v1-1', 2])
    expect(u.bytes).toBeGreaterThan(800_000)
    const over = windowOf(reached, 3400, 2000).excluded[0]!
    expect(over.detail).toContain(`before them ${u.entries} older entries (lines 2-${u.lastLine}, ${u.bytes} bytes) were never converted or counted`)
  })

  it('every branch of a branched pi file (compaction, branch summary, labels): the same window', async () => {
    const loaded = await loadWithScan(local('pi-v3-branches.jsonl'))()
    if (E.isLeft(loaded)) throw new Error(loaded.left.message)
    for (const e of loaded.right.session.entries) for (const budget of [30, 200]) await expectSameWindow(local('pi-v3-branches.jsonl'), budget, undefined, e.id)
  })

  it('a compaction: the summary is left unread with the turns before the window', async () => {
    const reached = await expectSameWindow(fixture('pi', 'before-compaction.jsonl'), 300, undefined)
    expect(reached.unread).toBeDefined()
    expect(reached.context.compaction).toBeDefined()
  })

  it('Claude Code transcripts are converted whole (Claude Code rebuilds a branch from the whole file)', async () => {
    for (const file of [local('claude-code.jsonl'), fixture('claude-code', 'tool_heavy.jsonl')]) {
      const reached = await expectSameWindow(file, 100, undefined)
      expect(reached.unread).toBeUndefined()
    }
  })

  it('an unknown leaf is the same error as without reach', async () => {
    const r = await buildSession(local('pi-v2.jsonl'), { tokenizer: gpt4o, leaf: 'nope', reach: { budget: 10 } })()
    expect(E.isLeft(r) && r.left.message).toMatch(/leaf "nope" is not an entry id in this file/)
  })
})

describe('a reached build, rebuilt', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gssc-reach-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('after an appended line reads only that line and gives the window of a cold reached build', async () => {
    const file = join(dir, 'grow.jsonl')
    writeFileSync(file, `${syntheticPiSession({ messages: 400 }).join('\n')}\n`)
    const options = { tokenizer: gpt4o, reach: { budget: 1200, cap: 300 } }
    const first = await buildSession(file, options)()
    if (E.isLeft(first)) throw new Error(first.left.message)
    expect(first.right.unread).toBeDefined()
    appendFileSync(file, `${syntheticUserLine(400, 'And the docs too.')}\n`)
    const next = await rebuildSession(file, options, first.right)()
    const cold = await buildSession(file, options)()
    if (E.isLeft(next) || E.isLeft(cold)) throw new Error('build failed')
    expect(next.right.stats.mode).toBe('incremental')
    expect(windowOf(next.right, 1200, 300)).toEqual(windowOf(cold.right, 1200, 300))
    // another budget is another build
    const other = await rebuildSession(file, { ...options, reach: { budget: 5000 } }, next.right)()
    expect(E.isRight(other) && other.right.stats).toMatchObject({ mode: 'full', fallback: 'the options changed' })
  })
})

describe('entryReader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gssc-stub-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('reads stubs back as the whole load has them, and names the line when the file was rewritten meanwhile', async () => {
    const file = join(dir, 'pi.jsonl')
    copyFileSync(local('pi-v2.jsonl'), file)
    const whole = await loadWithScan(file)()
    const stubbed = await loadWithScan(file, {}, true)()
    if (E.isLeft(whole) || E.isLeft(stubbed)) throw new Error('load failed')
    const stubs = stubbed.right.session.entries
    expect(stubs.some(isStub)).toBe(true)
    // a stub holds no messages
    expect(stubs.filter(isStub).every((e) => e.body._tag === 'Message' && e.body.messages.length === 0)).toBe(true)
    const read = entryReader({ file, format: 'pi', state: stubbed.right.scan.state, options: { includeMeta: true } })
    const again = await read(stubs)
    expect(E.isRight(again) && again.right).toEqual(whole.right.session.entries)
    // the same length, other bytes: the line no longer says what the stub was read from
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"id":"b/g, '"id":"x'))
    const last = stubs.filter(isStub).at(-1)!
    expect(await read([last])).toEqual(E.left(expect.objectContaining({ message: expect.stringContaining('this line changed since gssc first read it'), line: last.line })))
  })
})
