import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../src/workspace/load.js'
import { describeMissing, missingOn, pathHost } from '../../src/workspace/requirements.js'
import { LOAD, right, withTempDir } from './helpers.js'

const skillFile = async (root: string, dir: string, text: string) => {
  await mkdir(join(root, 'skills', dir), { recursive: true })
  await writeFile(join(root, 'skills', dir, 'SKILL.md'), text)
}

describe('pathHost', () => {
  it('finds executables on PATH only, and reads env values', () =>
    withTempDir(async (dir) => {
      const bin = join(dir, 'bin')
      await mkdir(bin)
      await writeFile(join(bin, 'gh'), '#!/bin/sh\n')
      await chmod(join(bin, 'gh'), 0o755)
      await writeFile(join(bin, 'notes'), 'not executable')
      const host = pathHost({ PATH: `${join(dir, 'nowhere')}:${bin}`, TOKEN: 'x', EMPTY: '' }, 'linux')
      expect(await host.hasCommand('gh')).toBe(true)
      expect(await host.hasCommand('notes')).toBe(false)
      expect(await host.hasCommand('bin/gh')).toBe(false)
      expect(await host.hasCommand('git-nonexistent')).toBe(false)
      expect(await missingOn(host, { bins: ['gh', 'jq'], env: ['TOKEN', 'EMPTY', 'UNSET'] })).toEqual({ bins: ['jq'], env: ['EMPTY', 'UNSET'] })
      expect(describeMissing({ bins: ['jq'], env: ['EMPTY', 'UNSET'] })).toBe('CLI: jq, ENV: EMPTY, ENV: UNSET')
    }))
})

describe('skills: odd frontmatter', () => {
  it('reports invalid metadata and requirement fields, naming file, field and line, and keeps the skill', () =>
    withTempDir(async (dir) => {
      await skillFile(dir, 'a', '---\nname: a\ndescription: Bad JSON\nmetadata: \'{"nanobot": {\'\n---\nA\n')
      await skillFile(dir, 'b', '---\nname: b\nmetadata: {"nanobot":{"requires":{"bins":"rg","env":[1]}}}\n---\nB\n')
      await skillFile(dir, 'c', '---\nname: c\nalways: "yes"\nmetadata: {"openclaw":{"always":false}}\n---\nC\n')
      const ws = right(await loadWorkspace(dir, { ...LOAD, host: { env: {}, hasCommand: async (n) => n === 'rg' } })())
      expect(ws.skills.map((s) => [s.name, s.description, s.available, s.always])).toEqual([
        ['a', 'Bad JSON', true, false],
        ['b', 'b', true, false],
        ['c', 'c', true, true],
      ])
      expect(ws.skills[1]!.requires).toEqual({ bins: ['rg'], env: [] })
      expect(ws.problems).toHaveLength(2)
      // the JSON parser's own words vary with the Node version
      expect(ws.problems[0]!.message).toMatch(/^skills\/a\/SKILL\.md:4: field "metadata": metadata is not valid JSON: /)
      expect(ws.problems[1]!.message).toBe('skills/b/SKILL.md:3: field "metadata.requires.env" must be a list of strings (got [1])')
    }))

  it('uses the real PATH lookup by default', () =>
    withTempDir(async (dir) => {
      await skillFile(dir, 'sh', '---\nmetadata: {"nanobot":{"requires":{"bins":["sh"]}}}\n---\n')
      await skillFile(dir, 'none', '---\nmetadata: {"nanobot":{"requires":{"bins":["gssc-no-such-tool"]}}}\n---\n')
      const ws = right(await loadWorkspace(dir, { now: LOAD.now!, timeZone: 'UTC' })())
      expect(ws.skills.map((s) => [s.dir, s.available])).toEqual([
        ['none', false],
        ['sh', true],
      ])
    }))
})
