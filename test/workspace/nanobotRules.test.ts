/**
 * nanobot's rules on workspaces other than its templates: what each version reads, skips and
 * how it parses a SKILL.md. Each case follows nanobot's source at that release.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadWorkspace, type LoadOptions } from '../../src/workspace/load.js'
import { buildSystemPrompt } from '../../src/workspace/prompt.js'
import { readSkillAs } from '../../src/workspace/skillRules.js'
import type { NanobotVersion } from '../../src/workspace/version.js'
import { fixture } from '../shared.js'
import { NANOBOT_HOST, NANOBOT_NOW, NANOBOT_RUNTIME, right, tokenizer, withTempDir } from './helpers.js'

const write = async (root: string, files: Readonly<Record<string, string>>) => {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, name)), { recursive: true })
    await writeFile(join(root, name), text)
  }
}

const prompt = async (root: string, version: NanobotVersion, load: Partial<LoadOptions> = {}, extra = {}) => {
  const ws = right(await loadWorkspace(root, { now: () => NANOBOT_NOW, timeZone: 'Asia/Shanghai', timeZoneLabel: 'CST', host: NANOBOT_HOST, nanobotVersion: version, ...load })())
  return { ws, built: right(buildSystemPrompt(ws, { tokenizer, runtime: NANOBOT_RUNTIME, ...extra })) }
}

describe('memory by version', () => {
  it("0.1.3 shows today's note; 0.1.4 and HEAD do not read daily notes, and say so", () =>
    withTempDir(async (dir) => {
      await write(dir, { 'memory/MEMORY.md': 'Likes tea.\n', 'memory/2026-11-22.md': '# 2026-11-22\n\n- Dentist at 10.\n' })
      const old = await prompt(dir, '0.1.3')
      expect(old.built.prompt).toContain("# Memory\n\n## Long-term Memory\nLikes tea.\n\n\n## Today's Notes\n# 2026-11-22\n\n- Dentist at 10.\n")
      for (const version of ['0.1.4', 'HEAD'] as const) {
        const { built } = await prompt(dir, version)
        expect(built.prompt).not.toContain('Dentist')
        expect(built.parts.find((p) => p.id === 'notes')).toMatchObject({ reason: 'ignored', dropped: true, detail: `nanobot ${version} does not read daily notes` })
      }
    }))

  it('0.1.x show a whitespace-only MEMORY.md (nanobot tests the text, not its strip), and never a history log', () =>
    withTempDir(async (dir) => {
      await write(dir, { 'memory/MEMORY.md': '\n', 'memory/HISTORY.md': '[2026-11-21 10:00] Asked about trains.\n' })
      const { built } = await prompt(dir, '0.1.4')
      expect(built.prompt.endsWith('---\n\n# Memory\n\n## Long-term Memory\n\n')).toBe(true)
      expect(built.prompt).not.toContain('Asked about trains')
      expect(built.parts.find((p) => p.id === 'history')).toMatchObject({ reason: 'ignored', detail: 'nanobot 0.1.4 does not show the history log in its prompt' })
    }))

  it('HEAD: history.jsonl entries with a cursor past .dream_cursor; a session key keeps only its own', () =>
    withTempDir(async (dir) => {
      const line = (o: object) => JSON.stringify(o)
      await write(dir, {
        'memory/.dream_cursor': '1\n',
        'memory/history.jsonl': [
          line({ cursor: 1, timestamp: '2026-11-21 09:00', content: 'Processed by Dream.' }),
          line({ cursor: 2, timestamp: '2026-11-21 10:00', content: 'Booked trains.', session_key: 'cli:direct' }),
          line({ timestamp: '2026-11-21 11:00', content: 'No cursor: nanobot drops it.' }),
          line({ cursor: 3, timestamp: '2026-11-21 12:00', content: 'Global note.' }),
        ].join('\n'),
      })
      const all = await prompt(dir, 'HEAD')
      expect(all.built.prompt.endsWith('---\n\n# Recent History\n\n- [2026-11-21 10:00] Booked trains.\n- [2026-11-21 12:00] Global note.')).toBe(true)
      const cli = await prompt(dir, 'HEAD', { sessionKey: 'cli:direct' })
      expect(cli.built.prompt.endsWith('# Recent History\n\n- [2026-11-21 10:00] Booked trains.')).toBe(true)
      expect((await prompt(dir, 'HEAD', {}, { includeHistory: false })).built.prompt).not.toContain('# Recent History')
    }))

  it('HEAD: a HISTORY.md alone is not shown (nanobot migrates it and marks it processed), and the report says so', () =>
    withTempDir(async (dir) => {
      await write(dir, { 'memory/HISTORY.md': '[2026-11-21 10:00] Asked about trains.\n' })
      const { built } = await prompt(dir, 'HEAD')
      expect(built.prompt).not.toContain('trains')
      expect(built.parts.find((p) => p.id === 'history')?.detail).toBe('nanobot HEAD migrates HISTORY.md into history.jsonl and marks every entry as processed')
    }))
})

describe('HEAD: template files', () => {
  it('skips AGENTS.md, USER.md and MEMORY.md equal to their templates, keeps edited ones, and shows a legacy SOUL.md as the current template', () =>
    withTempDir(async (dir) => {
      const head = fixture('nanobot', 'HEAD-template-workspace')
      const { readFile } = await import('node:fs/promises')
      const agents = await readFile(join(head, 'AGENTS.md'), 'utf8')
      const soul = await readFile(join(head, 'SOUL.md'), 'utf8')
      // the legacy template: today's plus the execution rules nanobot since removed
      const legacySoul = `${soul}\n## Execution Rules\n\n- Act immediately on single-step tasks — never end a turn with just a plan or promise.\n- For multi-step tasks, outline the plan first and wait for user confirmation before executing.\n- Read before you write — do not assume a file exists or contains what you expect.\n- When information is missing, look it up with tools first. Only ask the user when tools cannot answer.\n`
      await write(dir, { 'AGENTS.md': `\n${agents}\n\n`, 'SOUL.md': legacySoul, 'USER.md': '   \n', 'memory/MEMORY.md': await readFile(join(head, 'memory/MEMORY.md'), 'utf8') })
      const { built } = await prompt(dir, 'HEAD')
      expect(built.prompt).toContain(`---\n\n## SOUL.md\n\n${soul}\n\n---\n\n# Tool Usage Notes`)
      expect(built.prompt).not.toContain('## AGENTS.md')
      expect(built.prompt).not.toContain('Execution Rules')
      expect(built.prompt).not.toContain('# Memory')
      expect(built.parts.filter((p) => p.reason === 'ignored').map((p) => [p.id, p.detail])).toEqual([
        ['bootstrap:AGENTS.md', 'nanobot HEAD leaves out a file equal to its template'],
        ['bootstrap:USER.md', 'nanobot HEAD leaves out an empty file'],
        ['memory', 'nanobot HEAD leaves out a MEMORY.md equal to its template'],
      ])
      await write(dir, { 'AGENTS.md': `${agents}\n- Also: answer in French.\n` })
      expect((await prompt(dir, 'HEAD')).built.prompt).toContain('## AGENTS.md\n\n')
    }))
})

describe('skills by version', () => {
  const doc = '---\nname: "Fancy: name"\ndescription: \'Quoted, with: colons\'\nalways: false\nmetadata:\n  nanobot:\n    requires: {bins: [gh]}\n---\n\n  Body.  \n'

  it('0.1.x read frontmatter lines by hand: quotes stripped, `always: false` is on, a YAML mapping gives no requirements', () => {
    expect(readSkillAs('0.1.4', 'fancy', doc)).toEqual({ description: 'Quoted, with: colons', always: true, requires: { bins: [], env: [] }, body: 'Body.', metadataIgnored: true })
    expect(readSkillAs('0.1.3', 'x', '---\nmetadata: {"openclaw":{"requires":{"bins":["gh"]}}}\n---\nB')).toMatchObject({ requires: { bins: [], env: [] } })
    expect(readSkillAs('0.1.4', 'x', '---\nmetadata: {"openclaw":{"requires":{"bins":["gh"]}}}\n---\nB')).toMatchObject({ requires: { bins: ['gh'], env: [] } })
    // no frontmatter: the body is the file as it is, not stripped
    expect(readSkillAs('0.1.4', 'x', '\n# X\n')).toEqual({ description: 'x', always: false, requires: { bins: [], env: [] }, body: '\n# X\n', metadataIgnored: false })
  })

  it('HEAD reads YAML 1.1 as PyYAML does: `always: no` is off, a mapping gives requirements, blank names are dropped', () => {
    expect(readSkillAs('HEAD', 'fancy', doc)).toEqual({ description: 'Quoted, with: colons', always: false, requires: { bins: ['gh'], env: [] }, body: 'Body.', metadataIgnored: false })
    expect(readSkillAs('HEAD', 'x', '---\nalways: yes\nmetadata: {"nanobot":{"requires":{"bins":["", "rg", 3]}}}\n---\nB').always).toBe(true)
    expect(readSkillAs('HEAD', 'x', '---\nalways: no\n---\nB').always).toBe(false)
    expect(readSkillAs('HEAD', 'x', '---\nmetadata: {"nanobot":{"requires":{"bins":["", "rg", 3]}}}\n---\nB').requires.bins).toEqual(['rg'])
  })

  it('reports a metadata field the version cannot read, and keeps the skill as nanobot does', () =>
    withTempDir(async (dir) => {
      await write(dir, { 'skills/fancy/SKILL.md': doc })
      const old = await prompt(dir, '0.1.4')
      expect(old.ws.skills.map((k) => [k.dir, k.available, k.always])).toEqual([['fancy', true, true]])
      expect(old.ws.problems.map((p) => p.message)).toEqual([
        'skills/fancy/SKILL.md:5: field "metadata": nanobot 0.1.4 cannot read it (JSON on one line), so it ignores its requirements and "always", as gssc does here',
      ])
      const head = await prompt(dir, 'HEAD')
      expect(head.ws.problems).toEqual([])
      expect(head.ws.skills.map((k) => [k.dir, k.available, k.always])).toEqual([['fancy', false, false]])
    }))

  it('HEAD groups workspace and bundled skills, leaves active ones out of the summary, and reports a shadowed bundled skill', () =>
    withTempDir(async (dir) => {
      await write(dir, {
        'skills/notes/SKILL.md': '---\nname: notes\ndescription: Keep notes.\nalways: true\n---\n# Notes\n',
        'skills/cron/SKILL.md': '---\nname: cron\ndescription: My own cron.\n---\n# Cron\n',
      })
      const builtin = fixture('nanobot', 'HEAD-builtin-skills')
      const { ws, built } = await prompt(dir, 'HEAD', { builtinSkills: builtin })
      expect(built.prompt).toContain('# Active Skills\n\n### Skill: notes\n\n# Notes\n\n---\n\n# Skills\n\n')
      expect(built.prompt).toContain('### Workspace skills (`skills`)\n- **cron** — My own cron.  `cron/SKILL.md`\n\n### Built-in skills (`skills`)\n- **')
      expect(built.prompt).not.toContain('- **notes**')
      expect(built.prompt).not.toContain('Schedule reminders')
      expect(ws.shadowed).toEqual([`${ws.skills.find((k) => k.origin === 'builtin')!.file.name.replace(/[^/]+\/SKILL\.md$/, '')}cron/SKILL.md`])
      expect(built.parts.find((p) => p.reason === 'shadowed')?.detail).toBe('a bundled skill hidden by the workspace skill of the same folder name')
    }))

  it('0.1.4 lists workspace skills first, by their folder name, at their path in the workspace', () =>
    withTempDir(async (dir) => {
      await write(dir, { 'skills/mine/SKILL.md': '---\nname: Shown name\ndescription: Mine.\n---\n# Mine\n' })
      const { ws, built } = await prompt(dir, '0.1.4', { builtinSkills: fixture('nanobot', 'v0.1.4-builtin-skills') })
      expect(built.prompt).toContain(`<skills>\n  <skill available="true">\n    <name>mine</name>\n    <description>Mine.</description>\n    <location>${ws.root}/skills/mine/SKILL.md</location>\n  </skill>\n`)
      expect(built.prompt).toContain('# Active Skills\n\n### Skill: memory\n\n# Memory\n')
    }))

  it('HEAD names the channel in a format hint and 0.1.4 appends the session', () =>
    withTempDir(async (dir) => {
      await write(dir, { 'AGENTS.md': 'Rules.\n' })
      expect((await prompt(dir, 'HEAD', {}, { channel: 'telegram' })).built.prompt).toContain(
        '- Use file tools when they are simpler or more reliable than shell commands.\n\n## Format Hint\nThis conversation is on a messaging app.',
      )
      expect((await prompt(dir, 'HEAD', {}, { platform: 'windows' })).built.prompt).toContain('## Platform Policy (Windows)\n')
      expect((await prompt(dir, '0.1.4', {}, { channel: 'cli', chatId: 'direct' })).built.prompt.endsWith('\n\n## Current Session\nChannel: cli\nChat ID: direct')).toBe(true)
    }))

  it('takes the tool list, the runtime line and the tool notes from the caller', () =>
    withTempDir(async (dir) => {
      const legacy = (await prompt(dir, '0.1.4', {}, { tools: ['Read files'], runtime: 'Darwin arm64, Python 3.12.1' })).built.prompt
      expect(legacy).toContain('You are nanobot, a helpful AI assistant. You have access to tools that allow you to:\n- Read files\n\n## Current Time\n')
      expect(legacy).toContain('## Runtime\nDarwin arm64, Python 3.12.1\n')
      expect((await prompt(dir, '0.1.3', {}, { tools: [] })).built.prompt).toContain('You are nanobot, a helpful AI assistant.\n\n## Current Time\n2026-11-22 09:15 (Sunday)\n\n## Workspace')
      expect((await prompt(dir, 'HEAD', {}, { toolNotes: '# Tool Usage Notes\n\nBe careful.' })).built.prompt.endsWith('---\n\n# Tool Usage Notes\n\nBe careful.')).toBe(true)
    }))
})
