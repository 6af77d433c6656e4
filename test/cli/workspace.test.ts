import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { readFileSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixture } from '../shared.js'
import { withTempDir } from '../workspace/helpers.js'
import { cli } from './run.js'

const NANOBOT = fixture('nanobot')
/** The fixtures' clock, zone, label and runtime, as flags. */
const CLOCK = ['--now', '2026-11-22 09:15', '--time-zone', 'Asia/Shanghai', '--tz-label', 'CST', '--runtime', 'Linux x86_64, Python 3.11.7']

describe('gssc workspace prompt', () => {
  it.each([
    ['v0.1.3.post4-template-workspace', '0.1.3.post4', 'v0.1.3.post4-template-workspace.nanobot-v0.1.3.post4.system.txt', undefined],
    ['v0.1.4-template-workspace', 'v0.1.4', 'v0.1.4-template-workspace.nanobot-v0.1.4.system.txt', undefined],
    ['HEAD-template-workspace', 'HEAD', 'HEAD-template-workspace.nanobot-HEAD-3852956a71a9.system.txt', undefined],
    ['v0.1.4-template-workspace', '0.1.4', 'v0.1.4-template-workspace.nanobot-v0.1.4.with-builtin-skills.system.txt', 'v0.1.4-builtin-skills'],
    ['HEAD-template-workspace', 'head', 'HEAD-template-workspace.nanobot-HEAD-3852956a71a9.with-builtin-skills.system.txt', 'HEAD-builtin-skills'],
  ])('prints %s as nanobot %s built it, byte for byte', (ws, version, expected, builtin) =>
    withTempDir(async (bin) => {
      // the commands on PATH decide each skill's availability: curl and tmux, as on the fixtures' machine
      for (const tool of ['curl', 'tmux']) {
        await writeFile(join(bin, tool), '#!/bin/sh\n')
        await chmod(join(bin, tool), 0o755)
      }
      const bundled = builtin === undefined ? [] : ['--builtin-skills', join(NANOBOT, builtin)]
      const r = await cli(['workspace', 'prompt', join(NANOBOT, ws), '--nanobot-version', version, ...CLOCK, ...bundled], { PATH: bin })
      expect(r.code).toBe(0)
      const text = readFileSync(join(NANOBOT, 'expected', expected), 'utf8')
      // paths as nanobot prints them: resolved (the fixtures may sit behind a link)
      expect(r.stdout).toBe(text.replaceAll('{WORKSPACE}', realpathSync(join(NANOBOT, ws))).replaceAll('{BUILTIN_SKILLS}', builtin === undefined ? '' : realpathSync(join(NANOBOT, builtin))))
    }),
  )

  it('--json gives the prompt, its parts and problems; a bad flag value names the flag', async () => {
    const r = await cli(['workspace', 'prompt', join(NANOBOT, 'HEAD-template-workspace'), '--nanobot-version', 'HEAD', ...CLOCK, '--json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.prompt.startsWith('## Runtime\nLinux x86_64, Python 3.11.7\n')).toBe(true)
    expect(j.parts.filter((p: { reason: string }) => p.reason === 'ignored').map((p: { id: string }) => p.id)).toEqual(['bootstrap:AGENTS.md', 'bootstrap:USER.md', 'memory'])
    expect(r.stderr).toContain('gssc: workspace ')
    expect(r.stderr).toContain('AGENTS.md: nanobot HEAD leaves out a file equal to its template')

    const badVersion = await cli(['workspace', 'prompt', '.', '--nanobot-version', '0.2'])
    expect(badVersion.code).toBe(2)
    expect(badVersion.stderr).toContain('"0.2" is not a nanobot version gssc reproduces (0.1.3, 0.1.4, HEAD)')
    const badNow = await cli(['workspace', 'prompt', join(NANOBOT, 'HEAD-template-workspace'), '--now', 'yesterday'])
    expect(badNow.code).toBe(1)
    expect(badNow.stderr).toMatch(/^gssc workspace prompt: --now: must be an ISO 8601 time/)
    const alone = await cli(['workspace', 'prompt', '.', '--chat-id', '42'])
    expect(alone.code).toBe(2)
    expect(alone.stderr).toContain('--chat-id needs --channel')
  })

  it('reads --now as an instant when it has an offset, and the tool list from --tool / --no-tools', async () => {
    const ws = join(NANOBOT, 'v0.1.3.post4-template-workspace')
    const utc = await cli(['workspace', 'prompt', ws, '--nanobot-version', '0.1.3', '--now', '2026-11-22T01:15:00Z', '--time-zone', 'Asia/Shanghai'])
    expect(utc.stdout).toContain('## Current Time\n2026-11-22 09:15 (Sunday)\n')
    const epoch = await cli(['workspace', 'prompt', ws, '--nanobot-version', '0.1.3', '--now', String(Date.UTC(2026, 10, 22, 1, 15)), '--time-zone', 'Asia/Shanghai'])
    expect(epoch.stdout).toContain('## Current Time\n2026-11-22 09:15 (Sunday)\n')
    const tools = await cli(['workspace', 'prompt', ws, '--nanobot-version', '0.1.3', '--tool', 'Read files', '--tool', 'Run commands'])
    expect(tools.stdout).toContain('You have access to tools that allow you to:\n- Read files\n- Run commands\n\n## Current Time')
    const none = await cli(['workspace', 'prompt', ws, '--nanobot-version', '0.1.3', '--no-tools'])
    expect(none.stdout).toContain('You are nanobot, a helpful AI assistant.\n\n## Current Time')
  })

  it('shows control characters of workspace diagnostics as visible symbols', () =>
    withTempDir(async (dir) => {
      const evil = 'evil\u001b]0;pwned\u0007\u001b[2J'
      await mkdir(join(dir, 'skills', evil), { recursive: true })
      await writeFile(join(dir, 'skills', evil, 'SKILL.md'), '---\nname: [oops\n---\nx\n')
      await writeFile(join(dir, 'AGENTS.md'), 'Rules.\n')
      for (const argv of [['workspace', 'prompt', dir], ['build', '--workspace', dir, '-q', 'hi']]) {
        const r = await cli(argv)
        expect(r.code).toBe(0)
        expect(r.stderr).toContain('skills/evil␛]0;pwned␇␛[2J/SKILL.md:2: frontmatter is not valid YAML')
        expect(r.stderr).not.toContain('\u001b')
        expect(r.stderr).not.toContain('\u0007')
      }
    }))
})

describe('gssc build --workspace with workspace flags', () => {
  it('builds the packets as the nanobot version does, and refuses workspace flags without --workspace', async () => {
    const r = await cli(['build', '--workspace', join(NANOBOT, 'v0.1.4-template-workspace'), '-q', 'hello', '--nanobot-version', '0.1.4', ...CLOCK, '--channel', 'cli', '--chat-id', 'direct', '--json'])
    expect(r.code).toBe(0)
    const output = JSON.parse(r.stdout).output as string
    expect(output).toContain('## Current Time\n2026-11-22 09:15 (Sunday) (CST)\n\n## Runtime\nLinux x86_64, Python 3.11.7\n')
    const without = await cli(['build', '-q', 'hello', '--nanobot-version', '0.1.4'])
    expect(without.code).toBe(2)
    expect(without.stderr).toContain('--nanobot-version needs --workspace')
    const channel = await cli(['build', '-q', 'hello', '--workspace', join(NANOBOT, 'HEAD-template-workspace'), '--channel', 'telegram'])
    expect(channel.stderr).toContain('--channel needs --chat-id (only nanobot HEAD takes a channel alone)')
    const head = await cli(['build', '-q', 'hello', '--workspace', join(NANOBOT, 'HEAD-template-workspace'), '--nanobot-version', 'HEAD', '--channel', 'telegram', '--json'])
    expect(head.code).toBe(0)
    expect(JSON.parse(head.stdout).output).toContain('## Format Hint\nThis conversation is on a messaging app.')
  })
})
