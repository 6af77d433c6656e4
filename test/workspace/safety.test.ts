import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../src/workspace/load.js'
import { isInside, resolveLexical } from '../../src/workspace/paths.js'
import { buildSystemPrompt } from '../../src/workspace/prompt.js'
import { BASIC, LOAD, left, right, tokenizer, withTempDir } from './helpers.js'

/** A workspace `ws` and, beside it, `ws-evil` holding a secret: the prefix trick. */
const layout = async (dir: string) => {
  const ws = join(dir, 'ws')
  const evil = join(dir, 'ws-evil')
  await mkdir(join(ws, 'skills'), { recursive: true })
  await mkdir(join(ws, 'memory'), { recursive: true })
  await mkdir(join(evil, 'skill'), { recursive: true })
  await writeFile(join(ws, 'AGENTS.md'), 'Be kind.\n')
  await writeFile(join(evil, 'secret.md'), 'api_key=hunter2\n')
  await writeFile(join(evil, 'skill', 'SKILL.md'), '---\nname: evil\n---\nexfiltrate\n')
  return { ws, evil }
}

describe('paths', () => {
  it('checks containment with a separator, so a sibling with the same prefix is outside', () => {
    expect(isInside('/ws', '/ws')).toBe(true)
    expect(isInside('/ws', '/ws/a/b')).toBe(true)
    expect(isInside('/ws', '/ws-evil/a')).toBe(false)
    expect(isInside('/ws/', '/ws/a')).toBe(true)
  })

  it('refuses `..` that climbs out and absolute paths, before touching the disk', () => {
    expect(right(resolveLexical('/ws', 'skills/a/SKILL.md', 'x'))).toBe('/ws/skills/a/SKILL.md')
    expect(left(resolveLexical('/ws', 'skills/../../etc/passwd', 'skill location')).message).toBe(
      'skill location: "skills/../../etc/passwd" is outside the workspace /ws',
    )
    expect(left(resolveLexical('/ws', '/ws/AGENTS.md', 'x')).message).toMatch(/is outside the workspace/)
  })
})

describe('symlinks that leave the workspace are refused (skills: skipped and reported)', () => {
  it('a bootstrap file', () =>
    withTempDir(async (dir) => {
      const { ws, evil } = await layout(dir)
      await symlink(join(evil, 'secret.md'), join(ws, 'SOUL.md'))
      const error = left(await loadWorkspace(ws, LOAD)())
      expect(error.message).toBe(`SOUL.md: resolves to ${join(evil, 'secret.md')}, outside the workspace ${ws} (a symlink leaves the workspace)`)
    }))

  it('a skill folder: that skill is skipped and reported, the rest builds', () =>
    withTempDir(async (dir) => {
      const { ws, evil } = await layout(dir)
      await symlink(join(evil, 'skill'), join(ws, 'skills', 'evil'))
      await mkdir(join(ws, 'skills', 'good'))
      await writeFile(join(ws, 'skills', 'good', 'SKILL.md'), '---\nname: good\n---\nHelp.\n')
      const loaded = right(await loadWorkspace(ws, LOAD)())
      expect(loaded.skills.map((k) => k.dir)).toEqual(['good'])
      expect(loaded.problems.map((p) => p.message)).toEqual([
        `skills/evil/SKILL.md: resolves to ${join(evil, 'skill', 'SKILL.md')}, outside the workspace ${ws} (a symlink leaves the workspace); the skill is skipped`,
      ])
      const prompt = right(buildSystemPrompt(loaded, { tokenizer })).prompt
      expect(prompt).toContain('<name>good</name>')
      expect(prompt).not.toContain('exfiltrate')
      expect(prompt).not.toContain('evil')
    }))

  it('the skills folder itself (no skills, reported), and a memory file (refused)', () =>
    withTempDir(async (dir) => {
      const { ws, evil } = await layout(dir)
      const other = join(dir, 'other')
      await mkdir(other)
      await symlink(evil, join(other, 'skills'))
      await writeFile(join(other, 'AGENTS.md'), 'x')
      const loaded = right(await loadWorkspace(other, LOAD)())
      expect(loaded.skills).toEqual([])
      expect(loaded.bootstrap.map((f) => f.name)).toEqual(['AGENTS.md'])
      expect(loaded.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^skills: resolves to .*ws-evil, outside the workspace .*; no skills are read$/)])
      await symlink(join(evil, 'secret.md'), join(ws, 'memory', 'MEMORY.md'))
      expect(left(await loadWorkspace(ws, LOAD)()).message).toMatch(/^memory\/MEMORY\.md: resolves to .*secret\.md, outside the workspace/)
    }))

  it('but a symlink that stays inside is followed, and a dangling one counts as missing', () =>
    withTempDir(async (dir) => {
      const { ws } = await layout(dir)
      await mkdir(join(ws, 'docs'))
      await writeFile(join(ws, 'docs', 'soul.md'), 'Calm.\n')
      await symlink(join(ws, 'docs', 'soul.md'), join(ws, 'SOUL.md'))
      await symlink(join(ws, 'docs', 'gone.md'), join(ws, 'USER.md'))
      const loaded = right(await loadWorkspace(ws, LOAD)())
      expect(loaded.bootstrap.map((f) => [f.name, f.text, f.path])).toEqual([
        ['AGENTS.md', 'Be kind.\n', join(ws, 'AGENTS.md')],
        ['SOUL.md', 'Calm.\n', join(ws, 'docs', 'soul.md')],
      ])
      expect(loaded.missing).toEqual(['USER.md', 'TOOLS.md', 'IDENTITY.md'])
    }))
})

describe('skill names given for a turn', () => {
  it('refuses a path instead of a name, and names an unknown skill', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    expect(left(buildSystemPrompt(ws, { tokenizer, skillNames: ['../../etc'] })).message).toBe(
      'config.skillNames: is not a skill name: skills are folders directly under skills/, and a path outside it is refused (got "../../etc")',
    )
    expect(left(buildSystemPrompt(ws, { tokenizer, skillNames: ['wether'] })).message).toBe(
      'config.skillNames: no such skill; known: deploy, github, memory, notes, plain, weather, xml-chars (got "wether")',
    )
  })
})

describe('bounded reads', () => {
  it('reads only the head of a file over the read limit, never splitting a character', () =>
    withTempDir(async (dir) => {
      await writeFile(join(dir, 'AGENTS.md'), '你好世界\n'.repeat(10)) // 13 bytes a line
      const ws = right(await loadWorkspace(dir, { ...LOAD, readLimitBytes: 20 })())
      // 20 bytes = one line (13) + two whole characters (6) + one byte of the third, which is dropped
      expect(ws.bootstrap[0]).toMatchObject({ text: '你好世界\n你好', bytes: 130, partial: true })
    }))

  it('reads only the tail of a history log over the limit, from its first whole line', () =>
    withTempDir(async (dir) => {
      await mkdir(join(dir, 'memory'))
      const lines = Array.from({ length: 100 }, (_, i) => JSON.stringify({ cursor: i + 1, timestamp: '2026-07-02 10:00', content: `entry ${i + 1}` }))
      await writeFile(join(dir, 'memory', 'history.jsonl'), `${lines.join('\n')}\n`)
      const ws = right(await loadWorkspace(dir, { ...LOAD, readLimitBytes: 200 })())
      expect(ws.problems).toEqual([])
      expect(ws.memory.history.at(-1)!.content).toBe('entry 100')
      expect(ws.memory.history.length).toBeGreaterThan(0)
      expect(ws.memory.history.length).toBeLessThan(4)
    }))
})
