import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises'
import { isAbsolute, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../src/workspace/load.js'
import type { PromptOptions } from '../../src/workspace/options.js'
import { buildSystemPrompt } from '../../src/workspace/prompt.js'
import { BASIC, FIXTURES, LOAD, left, right, RUNTIME, tokenizer, withTempDir } from './helpers.js'

const OPTIONS: PromptOptions = { tokenizer, runtime: RUNTIME }

const GUIDANCE = `

Write lasting facts about the user to the long-term memory file; it is shown to you at the start of every session.
Skills are listed below; before using one, read its SKILL.md.`

const identity = (root: string, log: string, title = 'nanobot 🐈', name = 'nanobot', guidance = GUIDANCE) => `# ${title}

You are ${name}, a helpful AI assistant.

## Current Time
2026-07-02 09:15 (Thursday) (Asia/Shanghai, UTC+08:00)

## Runtime
Linux x64, Node.js 20.0.0

## Workspace
Your workspace is at: ${root}
- Long-term memory: ${root}/memory/MEMORY.md
${log}
- Custom skills: ${root}/skills/{skill-name}/SKILL.md${guidance}`

const skillXml = (root: string, dir: string, name: string, description: string, requires?: string) =>
  [
    `  <skill available="${requires === undefined}">`,
    `    <name>${name}</name>`,
    `    <description>${description}</description>`,
    `    <location>${root}/skills/${dir}/SKILL.md</location>`,
    ...(requires === undefined ? [] : [`    <requires>${requires}</requires>`]),
    '  </skill>',
  ].join('\n')

const basicPrompt = (root: string) =>
  [
    identity(root, `- Daily notes: ${root}/memory/YYYY-MM-DD.md`),
    `## AGENTS.md

# Agent Instructions

You are a careful assistant for the Lin family.

- Explain what you are about to do before calling a tool.
- Ask before deleting files.


## SOUL.md

# Soul

Warm, concise, and honest. Admit uncertainty.


## USER.md

# User

- Name: Mei Lin
- Timezone: Asia/Shanghai
- Prefers metric units.


## TOOLS.md

`,
    `# Memory

## Long-term Memory
# Long-term Memory

- Mei's daughter starts school on 2026-09-01.
- The home server is a Raspberry Pi named \`pantry\`.


## Today's Notes
# 2026-07-02

- Booked the dentist for Friday 10:00.
`,
    `# Active Skills

### Skill: memory

# Memory

Write lasting facts to memory/MEMORY.md.
Write events to today's note.`,
    `# Skills

The following skills extend your capabilities. To use a skill, read its SKILL.md file using the read_file tool.
Skills with available="false" need dependencies installed first - you can try installing them with apt/brew.

<skills>
${[
  skillXml(root, 'deploy', 'deploy', 'Deploy the family website.', 'ENV: DEPLOY_TOKEN'),
  skillXml(root, 'github', 'github', 'Interact with GitHub using the `gh` CLI.', 'CLI: gh'),
  skillXml(root, 'memory', 'memory', 'Two-layer memory: MEMORY.md for facts, daily notes for events.'),
  skillXml(root, 'notes', 'notes', 'Sync notes with the Obsidian vault.', 'CLI: obsidian-cli'),
  skillXml(root, 'plain', 'plain', 'plain'),
  skillXml(root, 'weather', 'weather', 'Get current weather and forecasts (no API key required).'),
  skillXml(root, 'xml-chars', 'xml-chars', 'Compare &lt;a&gt; &amp; &lt;b&gt; when a &gt; b; "quotes" stay.'),
].join('\n')}
</skills>`,
  ].join('\n\n---\n\n')

describe('buildSystemPrompt: the seed order, exactly', () => {
  it('renders identity, bootstrap files, memory, active skills and the skills summary, joined by ---', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    const built = right(buildSystemPrompt(ws, OPTIONS))
    expect(built.prompt).toBe(basicPrompt(ws.root))
    expect(built.tokens).toBe(tokenizer.count(built.prompt))
    expect(built.budget).toBe(32_000)
    expect(built.problems).toHaveLength(1)
  })

  it('under a symlinked workspace path, shows skill locations under the path as given (as nanobot does) and the workspace at its real path', () =>
    withTempDir(async (dir) => {
      const link = join(dir, 'ws-link')
      await symlink(BASIC, link)
      const ws = right(await loadWorkspace(link, LOAD)())
      expect(ws.root).toBe(await realpath(BASIC))
      const built = right(buildSystemPrompt(ws, OPTIONS))
      expect(built.prompt).toBe(basicPrompt(ws.root).replaceAll(`<location>${ws.root}/`, `<location>${link}/`))
      expect(built.prompt).toContain(`<location>${link}/skills/deploy/SKILL.md</location>`)
    }))

  it('under a relative workspace path, shows skill locations under the path as given, relative (as pathlib prints it), and the workspace at its real path', async () => {
    const given = relative(process.cwd(), BASIC)
    expect(isAbsolute(given)).toBe(false)
    for (const [dir, shown] of [[given, given], [`./${given}/`, given], [`${given}//skills/..`, `${given}/skills/..`]] as const) {
      const ws = right(await loadWorkspace(dir, LOAD)())
      expect(ws.root).toBe(await realpath(BASIC))
      expect(ws.givenRoot).toBe(shown)
      const built = right(buildSystemPrompt(ws, OPTIONS))
      expect(built.prompt).toBe(basicPrompt(ws.root).replaceAll(`<location>${ws.root}/`, `<location>${shown}/`))
    }
  })

  it('under the current folder, shows skill locations relative to it', async () => {
    const ws = { ...right(await loadWorkspace(BASIC, LOAD)()), givenRoot: '.' }
    const built = right(buildSystemPrompt(ws, OPTIONS))
    expect(built.prompt).toContain('<location>skills/deploy/SKILL.md</location>')
    expect(built.prompt).toContain(`Your workspace is at: ${ws.root}`)
  })

  it('appends the current session when channel and chat id are both known', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    const built = right(buildSystemPrompt(ws, { ...OPTIONS, channel: 'telegram', chatId: '4242' }))
    expect(built.prompt).toBe(`${basicPrompt(ws.root)}\n\n## Current Session\nChannel: telegram\nChat ID: 4242`)
    expect(left(buildSystemPrompt(ws, { ...OPTIONS, channel: 'telegram' })).message).toBe(
      'config.channel: channel and chatId go together: give both or neither (got "telegram")',
    )
    expect(left(buildSystemPrompt(ws, { ...OPTIONS, channel: 'cli', chatId: 'a\nb' })).message).toMatch(/^config\.chatId: must be a single line/)
  })

  it('loads a requested skill in full for the turn, after the always-on ones', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    const built = right(buildSystemPrompt(ws, { ...OPTIONS, skillNames: ['weather', 'memory'] }))
    expect(built.prompt).toContain(
      "# Active Skills\n\n### Skill: memory\n\n# Memory\n\nWrite lasting facts to memory/MEMORY.md.\nWrite events to today's note.\n\n---\n\n### Skill: weather\n\n# Weather\n\nUse `curl wttr.in/<city>?format=3` for a one-line forecast.\n\n---\n\n# Skills",
    )
  })

  it('reports every part in prompt order, then the missing file and the unavailable always-on skill', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    const built = right(buildSystemPrompt(ws, { ...OPTIONS, channel: 'cli', chatId: 'direct' }))
    expect(built.parts.map((p) => [p.id, p.reason, p.priority])).toEqual([
      ['identity', 'kept', 0],
      ['bootstrap:AGENTS.md', 'kept', 0],
      ['bootstrap:SOUL.md', 'kept', 0],
      ['bootstrap:USER.md', 'kept', 0],
      ['bootstrap:TOOLS.md', 'kept', 0],
      ['memory', 'kept', 1],
      ['notes', 'kept', 1],
      ['skill:memory', 'kept', 2],
      ...['deploy', 'github', 'memory', 'notes', 'plain', 'weather', 'xml-chars'].map((d) => [`summary:${d}`, 'kept', 2]),
      ['session', 'kept', 0],
      ['bootstrap:IDENTITY.md', 'missing', 0],
      ['skill:notes', 'unavailable', 2],
    ])
    expect(built.parts.find((p) => p.id === 'skill:notes')!.detail).toBe(
      'always-on, but its requirements are not met (CLI: obsidian-cli); listed in the skills summary instead',
    )
    const agents = built.parts.find((p) => p.id === 'bootstrap:AGENTS.md')!
    expect(agents).toMatchObject({ file: 'AGENTS.md', type: 'instructions', truncated: false, dropped: false, detail: 'kept whole' })
    expect(agents.tokens).toBe(tokenizer.count(`## AGENTS.md\n\n${ws.bootstrap[0]!.text}`))
  })

  it('shows the HISTORY.md layout in the identity and the newest entries as Recent History', async () => {
    const ws = right(await loadWorkspace(join(FIXTURES, 'history-md'), LOAD)())
    const built = right(buildSystemPrompt(ws, OPTIONS))
    expect(built.prompt).toBe(
      [
        identity(ws.root, `- History log: ${ws.root}/memory/HISTORY.md (grep-searchable; each entry starts with [YYYY-MM-DD HH:MM])`),
        '## AGENTS.md\n\nKeep answers short.\n',
        '# Memory\n\n## Long-term Memory\n- Prefers tea over coffee.\n',
        `# Recent History

- [2026-06-30 21:10] User asked for a packing list for the Hangzhou trip; saved it to trip.md.
- [2026-07-01 08:45] Reminded the user about the 09:30 train.
Second line of the same entry.
- [2026-07-02 09:05] User switched the weekly report to Mondays.`,
      ].join('\n\n---\n\n'),
    )
    expect(right(buildSystemPrompt(ws, { ...OPTIONS, includeHistory: false })).prompt).not.toContain('# Recent History')
  })

  it('shows the history.jsonl layout, filtered by the Dream cursor and session', async () => {
    const ws = right(await loadWorkspace(join(FIXTURES, 'history-jsonl'), { ...LOAD, sessionKey: 'cli:direct' })())
    const built = right(buildSystemPrompt(ws, { ...OPTIONS, channel: 'cli', chatId: 'direct' }))
    expect(built.prompt).toBe(
      [
        identity(ws.root, `- History log: ${ws.root}/memory/history.jsonl (one JSON object per line)`),
        '## AGENTS.md\n\nKeep answers short.\n\n\n## SOUL.md\n\nI am nanobot 🐈, a personal AI assistant.\n',
        '# Recent History\n\n- [2026-07-02 09:15] - Chose SQLite for the prototype\n- [2026-07-02 12:30] - Global note without a session',
      ].join('\n\n---\n\n') + '\n\n## Current Session\nChannel: cli\nChat ID: direct',
    )
  })

  it('takes identity, runtime and guidance from options', async () => {
    const ws = right(await loadWorkspace(join(FIXTURES, 'history-md'), LOAD)())
    const built = right(buildSystemPrompt(ws, { ...OPTIONS, identity: { name: 'Pip', emoji: '', guidance: [] }, includeHistory: false }))
    const log = `- History log: ${ws.root}/memory/HISTORY.md (grep-searchable; each entry starts with [YYYY-MM-DD HH:MM])`
    expect(built.prompt.split('\n\n---\n\n')[0]).toBe(identity(ws.root, log, 'Pip', 'Pip', ''))
  })

  it('lists tools after the intro when given, and refuses what only nanobot HEAD has', async () => {
    const ws = right(await loadWorkspace(join(FIXTURES, 'history-md'), LOAD)())
    const built = right(buildSystemPrompt(ws, { ...OPTIONS, tools: ['Read files', 'Search the web'] }))
    expect(built.prompt).toContain('You are nanobot, a helpful AI assistant. You have access to tools that allow you to:\n- Read files\n- Search the web\n\n## Current Time')
    expect(left(buildSystemPrompt(ws, { ...OPTIONS, platform: 'windows' })).message).toBe('config.platform: only nanobot HEAD has a platform policy (got "windows")')
    expect(left(buildSystemPrompt(ws, { ...OPTIONS, toolNotes: 'x' })).message).toBe('config.toolNotes: only nanobot HEAD has a tool-notes section (got "x")')
    expect(left(buildSystemPrompt(ws, { ...OPTIONS, tools: ['a\n## Current Session'] })).message).toMatch(/^config\.tools\[0\]: must be a single line/)
  })
})

describe('buildSystemPrompt: budgets in tokens', () => {
  it('never cuts a part into something longer than it was whole (deep property run, seed 482818901)', () => {
    const file = (name: string, text: string) => ({ name, path: `/ws/${name}`, text, bytes: Buffer.byteLength(text), partial: false })
    const skill = (dir: string) => ({ name: dir, dir, file: file(`skills/${dir}/SKILL.md`, ''), description: '', body: '', always: false, requires: { bins: ['tool'], env: [] }, missing: { bins: ['tool'], env: [] }, available: false, frontmatter: {} })
    const ws = {
      root: '/ws',
      clock: { now: new Date('2026-07-02T01:15:00.000Z'), timeZone: 'Asia/Shanghai' },
      bootstrap: [],
      missing: [],
      memory: { layout: 'history-jsonl' as const, longTerm: file('memory/MEMORY.md', '!'), history: [{ timestamp: '2026-07-02 10:00', content: ' 0 0:0 ', line: 1, cursor: 1 }], historyFile: 'memory/history.jsonl' },
      skills: ['a', 'aa', 'ba', 'b'].map(skill),
      problems: [],
    }
    const built = right(buildSystemPrompt(ws, { tokenizer, runtime: RUNTIME, maxTokens: 463, maxFileTokens: 21, minCutTokens: 1 }))
    expect(built.tokens).toBe(tokenizer.count(built.prompt))
    for (const part of built.parts) if (part.file !== undefined && part.kind !== 'skills-summary') expect(part.tokens).toBeLessThanOrEqual(21)
  })

  /** A workspace whose MEMORY.md is 2 MB. */
  const withHugeMemory = <A>(body: (dir: string, memory: string) => Promise<A>) =>
    withTempDir(async (dir) => {
      await mkdir(join(dir, 'memory'))
      await writeFile(join(dir, 'AGENTS.md'), '# Rules\n\nNever share the user\'s address.\n')
      await writeFile(join(dir, 'SOUL.md'), 'Cheerful.\n')
      const line = (i: number) => `- ${i}: the user mentioned item ${i} while planning the garden.`
      let memory = ''
      for (let i = 0; memory.length < 2 * 1024 * 1024; i++) memory += `${line(i)}\n`
      await writeFile(join(dir, 'memory', 'MEMORY.md'), memory)
      return body(dir, memory)
    })

  it('cuts a 2 MB MEMORY.md to its per-file cap at a line end, with a marker, and keeps AGENTS.md', () =>
    withHugeMemory(async (dir, memory) => {
      const ws = right(await loadWorkspace(dir, LOAD)())
      const built = right(buildSystemPrompt(ws, { ...OPTIONS, maxFileTokens: 2000 }))
      expect(built.prompt).toContain("## AGENTS.md\n\n# Rules\n\nNever share the user's address.\n")
      const mem = built.parts.find((p) => p.id === 'memory')!
      expect(mem).toMatchObject({ truncated: true, dropped: false, reason: 'item_cap', detail: 'cut to the 2,000-token per-file cap' })
      expect(mem.tokens).toBeLessThanOrEqual(2000)
      expect(mem.tokens).toBeGreaterThan(1900)
      const section = built.prompt.slice(built.prompt.indexOf('# Memory'))
      const marker = /\n… \[truncated: memory\/MEMORY\.md, kept ([\d,]+) of ~([\d,]+) tokens\]$/.exec(section)
      expect(marker).not.toBeNull()
      // the kept text is a whole-line prefix of the file
      const kept = section.slice('# Memory\n\n## Long-term Memory\n'.length, marker!.index + 1)
      expect(memory.startsWith(kept)).toBe(true)
      expect(kept.endsWith('garden.\n')).toBe(true)
      expect(Number(marker![1]!.replace(/,/g, ''))).toBe(tokenizer.count(`## Long-term Memory\n${kept}`))
      // the estimate is within 5% of the real count
      const estimate = Number(marker![2]!.replace(/,/g, ''))
      const real = tokenizer.count(memory)
      expect(Math.abs(estimate - real) / real).toBeLessThan(0.05)
      expect(built.tokens).toBe(tokenizer.count(built.prompt))
    }))

  it('under a tight total budget drops or cuts memory, never AGENTS.md, and says why', () =>
    withHugeMemory(async (dir) => {
      const ws = right(await loadWorkspace(dir, LOAD)())
      for (const maxTokens of [300, 400, 600, 1000]) {
        const built = right(buildSystemPrompt(ws, { ...OPTIONS, maxTokens }))
        expect(built.tokens).toBe(tokenizer.count(built.prompt))
        expect(built.tokens).toBeLessThanOrEqual(maxTokens)
        expect(built.prompt).toContain("## AGENTS.md\n\n# Rules\n\nNever share the user's address.\n\n\n## SOUL.md\n\nCheerful.\n")
        const mem = built.parts.find((p) => p.id === 'memory')!
        expect(mem.reason).toBe('over_budget')
        expect(mem.detail).toBe(`${mem.dropped ? 'dropped' : 'cut'} to fit the ${maxTokens.toLocaleString('en-US')}-token budget after higher-priority parts`)
      }
      const cut = right(buildSystemPrompt(ws, { ...OPTIONS, maxTokens: 1000 })).parts.find((p) => p.id === 'memory')!
      expect(cut).toMatchObject({ truncated: true, dropped: false })
    }))

  it('honours a per-file cap and a priority override', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    const capped = right(buildSystemPrompt(ws, { ...OPTIONS, fileTokens: { 'AGENTS.md': 34 }, minCutTokens: 8 }))
    expect(capped.prompt).toContain(
      '## AGENTS.md\n\n# Agent Instructions\n\nYou are a careful assistant for\n… [truncated: AGENTS.md, kept 16 of 38 tokens]\n\n## SOUL.md',
    )
    // USER.md demoted below the skills: with too little room it goes before them
    const full = right(buildSystemPrompt(ws, OPTIONS)).tokens
    const demoted = right(buildSystemPrompt(ws, { ...OPTIONS, priorities: { 'USER.md': 3 }, maxTokens: full - 20 }))
    expect(demoted.parts.find((p) => p.id === 'bootstrap:USER.md')).toMatchObject({ priority: 3, dropped: true, reason: 'over_budget' })
    expect(demoted.parts.filter((p) => p.dropped && p.reason === 'over_budget').map((p) => p.id)).toEqual(['bootstrap:USER.md'])
  })

  it('caps the Recent History block and drops the oldest entries first', async () => {
    const ws = right(await loadWorkspace(join(FIXTURES, 'history-md'), LOAD)())
    const built = right(buildSystemPrompt(ws, { ...OPTIONS, maxHistoryTokens: 30 }))
    expect(built.prompt.endsWith('# Recent History\n\n- [2026-07-02 09:05] User switched the weekly report to Mondays.')).toBe(true)
    expect(built.parts.filter((p) => p.kind === 'history').map((p) => [p.id, p.dropped, p.reason])).toEqual([
      ['history:1', true, 'section_cap'],
      ['history:3', true, 'section_cap'],
      ['history:6', false, 'kept'],
    ])
  })

  it('rejects invalid budgets by name', async () => {
    const ws = right(await loadWorkspace(BASIC, LOAD)())
    expect(left(buildSystemPrompt(ws, { ...OPTIONS, maxTokens: 0 })).message).toBe('config.maxTokens: must be a positive integer number of tokens (got 0)')
    expect(left(buildSystemPrompt(ws, { ...OPTIONS, fileTokens: { 'AGENTS.md': 1.5 } })).message).toBe(
      'config.fileTokens["AGENTS.md"]: must be a positive integer number of tokens (got 1.5)',
    )
    expect(left(buildSystemPrompt(ws, { ...OPTIONS, priorities: { history: 7 as 0 } })).message).toBe('config.priorities["history"]: must be a priority 0–4 (got 7)')
  })
})
