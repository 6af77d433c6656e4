import { lstat, mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { initWorkspace, STARTER_FILES } from '../../src/workspace/init.js'
import { loadWorkspace } from '../../src/workspace/load.js'
import { LOAD, left, right, withTempDir } from './helpers.js'

describe('initWorkspace', () => {
  it('writes a starter workspace that loads', () =>
    withTempDir(async (dir) => {
      const root = join(dir, 'agent')
      const report = right(await initWorkspace(root)())
      expect(report).toEqual({ root, created: ['AGENTS.md', 'SOUL.md', 'USER.md', 'TOOLS.md', 'memory/MEMORY.md'], skipped: [] })
      expect(await readFile(join(root, 'AGENTS.md'), 'utf8')).toBe(STARTER_FILES['AGENTS.md'])
      expect((await lstat(join(root, 'skills'))).isDirectory()).toBe(true)
      const ws = right(await loadWorkspace(root, LOAD)())
      expect(ws.bootstrap.map((f) => f.name)).toEqual(['AGENTS.md', 'SOUL.md', 'USER.md', 'TOOLS.md'])
      expect(ws.memory.longTerm?.text).toBe(STARTER_FILES['memory/MEMORY.md'])
    }))

  it('never overwrites a file, and reports it as skipped', () =>
    withTempDir(async (dir) => {
      await writeFile(join(dir, 'SOUL.md'), 'My own soul.\n')
      await mkdir(join(dir, 'memory'))
      await writeFile(join(dir, 'memory', 'MEMORY.md'), 'Precious.\n')
      const report = right(await initWorkspace(dir)())
      expect(report.created).toEqual(['AGENTS.md', 'USER.md', 'TOOLS.md'])
      expect(report.skipped).toEqual(['SOUL.md', 'memory/MEMORY.md'])
      expect(await readFile(join(dir, 'SOUL.md'), 'utf8')).toBe('My own soul.\n')
      expect(await readFile(join(dir, 'memory', 'MEMORY.md'), 'utf8')).toBe('Precious.\n')
      // a second run creates nothing
      expect(right(await initWorkspace(dir)()).created).toEqual([])
    }))

  it('does not write through a symlink, dangling or not', () =>
    withTempDir(async (dir) => {
      const ws = join(dir, 'ws')
      await mkdir(ws)
      await symlink(join(dir, 'elsewhere.md'), join(ws, 'USER.md'))
      const report = right(await initWorkspace(ws)())
      expect(report.skipped).toEqual(['USER.md'])
      expect(await readlink(join(ws, 'USER.md'))).toBe(join(dir, 'elsewhere.md'))
      await expect(lstat(join(dir, 'elsewhere.md'))).rejects.toThrow()
    }))

  it('refuses a memory folder that is a symlink out of the workspace', () =>
    withTempDir(async (dir) => {
      const ws = join(dir, 'ws')
      await mkdir(ws)
      await mkdir(join(dir, 'outside'))
      await symlink(join(dir, 'outside'), join(ws, 'memory'))
      expect(left(await initWorkspace(ws)()).message).toBe(
        `${join(ws, 'memory')}: resolves to ${join(dir, 'outside')}, outside the workspace ${ws}; nothing was written there`,
      )
    }))

  it('names a path that cannot be a folder', () =>
    withTempDir(async (dir) => {
      await writeFile(join(dir, 'file'), 'x')
      expect(left(await initWorkspace(join(dir, 'file'))()).message).toMatch(/file: cannot create the workspace/)
    }))
})
