import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../src/workspace/load.js'
import { BASIC, FIXTURES, HOST, LOAD, left, NOW, right } from './helpers.js'

const load = async (dir = BASIC, options = LOAD) => right(await loadWorkspace(dir, options)())

describe('loadWorkspace: bootstrap files', () => {
  it('reads the files that exist, in the configured order, and lists the missing ones', async () => {
    const ws = await load()
    expect(ws.bootstrap.map((f) => f.name)).toEqual(['AGENTS.md', 'SOUL.md', 'USER.md', 'TOOLS.md'])
    expect(ws.missing).toEqual(['IDENTITY.md'])
    expect(ws.bootstrap[0]!.text).toBe(await readFile(join(BASIC, 'AGENTS.md'), 'utf8'))
    expect(ws.bootstrap[0]!.path).toBe(join(ws.root, 'AGENTS.md'))
    // an empty file is still a bootstrap file (nanobot includes it)
    expect(ws.bootstrap[3]).toMatchObject({ name: 'TOOLS.md', text: '', bytes: 0, partial: false })
  })

  it('takes a custom list and order', async () => {
    const ws = await load(BASIC, { ...LOAD, bootstrapFiles: ['USER.md', 'AGENTS.md', 'HEARTBEAT.md'] })
    expect(ws.bootstrap.map((f) => f.name)).toEqual(['USER.md', 'AGENTS.md'])
    expect(ws.missing).toEqual(['HEARTBEAT.md'])
  })

  it('refuses a bootstrap name that leaves the workspace, and a duplicate', async () => {
    expect(left(await loadWorkspace(BASIC, { ...LOAD, bootstrapFiles: ['../history-md/AGENTS.md'] })()).message).toBe(
      `bootstrap file "../history-md/AGENTS.md": "../history-md/AGENTS.md" is outside the workspace ${BASIC}`,
    )
    // `..` that comes back inside is fine
    expect((await load(BASIC, { ...LOAD, bootstrapFiles: ['../basic/AGENTS.md'] })).bootstrap).toHaveLength(1)
    expect(left(await loadWorkspace(BASIC, { ...LOAD, bootstrapFiles: ['/etc/hostname'] })()).message).toMatch(/"\/etc\/hostname" is outside the workspace/)
    expect(left(await loadWorkspace(BASIC, { ...LOAD, bootstrapFiles: ['A.md', 'A.md'] })()).message).toMatch(/^config\.bootstrapFiles: lists a file twice/)
  })
})

describe('loadWorkspace: memory', () => {
  it("reads MEMORY.md and today's note, picking today from the injected clock and time zone", async () => {
    const ws = await load()
    expect(ws.memory.layout).toBe('daily')
    expect(ws.memory.longTerm?.name).toBe('memory/MEMORY.md')
    expect(ws.memory.today?.name).toBe('memory/2026-07-02.md')
    expect(ws.memory.today?.text).toBe('# 2026-07-02\n\n- Booked the dentist for Friday 10:00.\n')
    expect(ws.memory.history).toEqual([])
    // 01:15 UTC is still July 1st in New York
    const ny = await load(BASIC, { ...LOAD, timeZone: 'America/New_York' })
    expect(ny.memory.today?.name).toBe('memory/2026-07-01.md')
    expect(ny.clock).toEqual({ now: NOW, timeZone: 'America/New_York' })
  })

  it('reads a HISTORY.md log as entries (era B)', async () => {
    const ws = await load(join(FIXTURES, 'history-md'))
    expect(ws.memory.layout).toBe('history-md')
    expect(ws.memory.historyFile).toBe('memory/HISTORY.md')
    expect(ws.memory.history).toEqual([
      { timestamp: '2026-06-30 21:10', content: 'User asked for a packing list for the Hangzhou trip; saved it to trip.md.', line: 1 },
      { timestamp: '2026-07-01 08:45', content: 'Reminded the user about the 09:30 train.\nSecond line of the same entry.', line: 3 },
      { timestamp: '2026-07-02 09:05', content: 'User switched the weekly report to Mondays.', line: 6 },
    ])
  })

  it('reads history.jsonl after the Dream cursor, filters by session, and reports a bad line (era C)', async () => {
    const dir = join(FIXTURES, 'history-jsonl')
    const all = await load(dir)
    expect(all.memory.layout).toBe('history-jsonl')
    // cursor 1 is at or before .dream_cursor (1); line 4 is broken
    expect(all.memory.history.map((e) => e.cursor)).toEqual([2, 3, 5])
    expect(all.problems).toHaveLength(1)
    expect(all.problems[0]).toMatchObject({ input: 'memory/history.jsonl', line: 4 })
    expect(all.problems[0]!.message).toMatch(/^memory\/history\.jsonl:4: not valid JSON/)
    const cli = await load(dir, { ...LOAD, sessionKey: 'cli:direct' })
    expect(cli.memory.history).toEqual([
      { timestamp: '2026-07-02 09:15', content: '- Chose SQLite for the prototype', cursor: 2, sessionKey: 'cli:direct', line: 2 },
      { timestamp: '2026-07-02 12:30', content: '- Global note without a session', cursor: 5, line: 5 },
    ])
    const last = await load(dir, { ...LOAD, maxHistoryEntries: 1 })
    expect(last.memory.history.map((e) => e.cursor)).toEqual([5])
    expect((await load(dir, { ...LOAD, maxHistoryEntries: 0 })).memory.history).toEqual([])
  })
})

describe('loadWorkspace: skills', () => {
  it('reads every skills/<dir>/SKILL.md in name order and passes over folders without one', async () => {
    const ws = await load()
    expect(ws.skills.map((s) => s.dir)).toEqual(['deploy', 'github', 'memory', 'notes', 'plain', 'weather', 'xml-chars'])
  })

  it('parses YAML metadata, JSON-string metadata and openclaw metadata, and checks requirements on the host', async () => {
    const ws = await load()
    const skill = (dir: string) => ws.skills.find((s) => s.dir === dir)!
    expect(skill('weather')).toMatchObject({
      name: 'weather',
      description: 'Get current weather and forecasts (no API key required).',
      requires: { bins: ['curl'], env: [] },
      missing: { bins: [], env: [] },
      available: true,
      always: false,
    })
    expect(skill('weather').frontmatter.homepage).toBe('https://wttr.in')
    expect(skill('github')).toMatchObject({ description: 'Interact with GitHub using the `gh` CLI.', requires: { bins: ['gh'], env: [] }, missing: { bins: ['gh'], env: [] }, available: false })
    expect(skill('deploy')).toMatchObject({ requires: { bins: ['curl'], env: ['DEPLOY_TOKEN'] }, missing: { bins: [], env: ['DEPLOY_TOKEN'] }, available: false })
    const withToken = await load(BASIC, { ...LOAD, host: { ...HOST, env: { DEPLOY_TOKEN: 'secret' } } })
    expect(withToken.skills.find((s) => s.dir === 'deploy')!.available).toBe(true)
    const emptyToken = await load(BASIC, { ...LOAD, host: { ...HOST, env: { DEPLOY_TOKEN: '' } } })
    expect(emptyToken.skills.find((s) => s.dir === 'deploy')!.available).toBe(false)
  })

  it('reads always-on skills from the top level and from metadata, with CRLF frontmatter', async () => {
    const raw = await readFile(join(BASIC, 'skills/memory/SKILL.md'), 'utf8')
    expect(raw).toContain('\r\n') // the fixture must keep its CRLF line endings
    const ws = await load()
    const memory = ws.skills.find((s) => s.dir === 'memory')!
    expect(memory).toMatchObject({ always: true, available: true, description: 'Two-layer memory: MEMORY.md for facts, daily notes for events.' })
    expect(memory.body).toBe("# Memory\n\nWrite lasting facts to memory/MEMORY.md.\nWrite events to today's note.\n")
    expect(ws.skills.find((s) => s.dir === 'notes')).toMatchObject({ always: true, available: false, missing: { bins: ['obsidian-cli'], env: [] } })
  })

  it('falls back to the directory name, and skips a skill whose frontmatter is not valid YAML, naming file and line', async () => {
    const ws = await load()
    expect(ws.skills.find((s) => s.dir === 'plain')).toMatchObject({ name: 'plain', description: 'plain', body: '# Plain\n\nA skill without frontmatter.\n' })
    expect(ws.skills.find((s) => s.dir === 'broken')).toBeUndefined()
    expect(ws.problems.map((p) => p.message)).toEqual([
      'skills/broken/SKILL.md:3: frontmatter is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]; the skill is skipped',
    ])
  })
})

describe('loadWorkspace: errors', () => {
  it('names a missing folder and a file given as the workspace', async () => {
    expect(left(await loadWorkspace(join(FIXTURES, 'nope'), LOAD)()).message).toBe(`${join(FIXTURES, 'nope')}: workspace folder not found`)
    expect(left(await loadWorkspace(join(BASIC, 'AGENTS.md'), LOAD)()).message).toMatch(/AGENTS\.md: is not a directory/)
  })

  it('rejects invalid options by name', async () => {
    expect(left(await loadWorkspace(BASIC, { ...LOAD, timeZone: 'Mars/Olympus' })()).message).toBe(
      'config.timeZone: is not a known IANA time zone (e.g. "Asia/Shanghai", "UTC") (got "Mars/Olympus")',
    )
    expect(left(await loadWorkspace(BASIC, { ...LOAD, readLimitBytes: 0 })()).message).toMatch(/^config\.readLimitBytes: must be a positive integer/)
    expect(left(await loadWorkspace(BASIC, { ...LOAD, maxHistoryEntries: -1 })()).message).toMatch(/^config\.maxHistoryEntries/)
    expect(left(await loadWorkspace(BASIC, { ...LOAD, now: () => new Date('nonsense') })()).message).toMatch(/^config\.now: the clock returned an invalid date/)
  })
})
