/**
 * nanobot's own prompts, byte for byte: every file in ../shared/fixtures/nanobot/expected is
 * the system prompt nanobot itself built for a workspace (fixed clock 2026-11-22 09:15 in
 * Asia/Shanghai, `%Z` = CST, runtime "Linux x86_64, Python 3.11.7"; curl and tmux installed,
 * gh and summarize not). The file name says the workspace, the nanobot version and whether
 * the bundled skills were on.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { loadWorkspace, type LoadOptions } from '../../src/workspace/load.js'
import { buildSystemPrompt } from '../../src/workspace/prompt.js'
import { parseNanobotVersion } from '../../src/workspace/version.js'
import { fixture } from '../shared.js'
import { NANOBOT_HOST, NANOBOT_NOW, NANOBOT_RUNTIME, right, tokenizer } from './helpers.js'

const DIR = fixture('nanobot')
const EXPECTED = fixture('nanobot', 'expected')


/** What an expected file's name says: `<workspace>.nanobot-<tag>[.with-builtin-skills].system.txt`. */
const caseOf = (file: string) => {
  const m = /^(.+?)\.nanobot-(.+?)(\.with-builtin-skills)?\.system\.txt$/.exec(file)
  if (m === null) throw new Error(`unexpected fixture name ${file}`)
  const [, workspace, tag, bundled] = m as unknown as [string, string, string, string | undefined]
  const version = right(parseNanobotVersion(tag.replace(/^HEAD-.*/, 'HEAD'), file))
  // the bundled skills of the release the workspace comes from
  const release = workspace.replace(/-template-workspace$/, '')
  const builtin = [`${release}-builtin-skills`, `v${version}-builtin-skills`, 'v0.1.4-builtin-skills'].map((d) => `${DIR}/${d}`).find((d) => existsSync(d))!
  return { file, workspace: `${DIR}/${workspace}`, version, builtin: bundled === undefined ? undefined : builtin }
}

const CASES = readdirSync(EXPECTED).filter((f) => f.endsWith('.system.txt')).sort().map(caseOf)

const options = (c: ReturnType<typeof caseOf>, extra: Partial<LoadOptions> = {}): LoadOptions => ({
  now: () => NANOBOT_NOW,
  timeZone: 'Asia/Shanghai',
  host: NANOBOT_HOST,
  nanobotVersion: c.version,
  ...(c.builtin === undefined ? {} : { builtinSkills: c.builtin }),
  ...extra,
})

describe('nanobot fixtures, byte for byte', () => {
  it('has the recorded prompts of every version', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(5)
    expect(new Set(CASES.map((c) => c.version))).toEqual(new Set(['0.1.3', '0.1.4', 'HEAD']))
    expect(CASES.filter((c) => c.builtin !== undefined).length).toBeGreaterThanOrEqual(2)
  })

  it.each(CASES.map((c) => [c.file, c] as const))('%s', async (_, c) => {
    const ws = right(await loadWorkspace(c.workspace, options(c, { timeZoneLabel: 'CST' }))())
    const built = right(buildSystemPrompt(ws, { tokenizer, runtime: NANOBOT_RUNTIME }))
    // paths as nanobot prints them: resolved, as they are wherever the fixtures are (a checkout may sit behind a link)
    const expected = readFileSync(`${EXPECTED}/${c.file}`, 'utf8').replaceAll('{WORKSPACE}', ws.root).replaceAll('{BUILTIN_SKILLS}', c.builtin === undefined ? '{BUILTIN_SKILLS}' : realpathSync(c.builtin))
    expect(built.prompt).toBe(expected)
    expect(built.tokens).toBe(tokenizer.count(expected))
    expect(ws.problems).toEqual([])
  })

  it("reads the time-zone label from the system's zone database when none is given", async () => {
    const c = CASES.find((x) => x.version === '0.1.4')!
    const ws = right(await loadWorkspace(c.workspace, options(c))())
    expect(ws.clock.label).toBe('CST')
    expect(right(buildSystemPrompt(ws, { tokenizer, runtime: NANOBOT_RUNTIME })).prompt).toContain('## Current Time\n2026-11-22 09:15 (Sunday) (CST)\n')
  })

  it('lists skills in directory order by default, sorted on request', async () => {
    const c = CASES.find((x) => x.version === 'HEAD' && x.builtin !== undefined)!
    const dirs = async (extra: Partial<LoadOptions>) => right(await loadWorkspace(c.workspace, options(c, extra))()).skills.map((k) => k.dir)
    const listed = await dirs({})
    const sorted = await dirs({ skillOrder: 'sorted' })
    expect(sorted).toEqual([...listed].sort())
    // the recorded prompt lists them as the file system does, which need not be sorted
    const prompt = readFileSync(`${EXPECTED}/${c.file}`, 'utf8')
    expect(listed).toEqual([...prompt.matchAll(/^- \*\*(.+?)\*\* — /gm)].map((m) => m[1]))
  })
})

describe('nanobot options each version refuses', () => {
  it.each([
    ['0.1.3', { channel: 'telegram', chatId: '42' }, /^config\.channel: nanobot 0\.1\.3: its prompt does not note the session/],
    ['0.1.4', { skillNames: ['cron'] }, /^config\.skillNames: nanobot 0\.1\.4: its system prompt ignores skills asked for by name/],
    ['0.1.4', { identity: { guidance: ['x'] } }, /^config\.identity: nanobot 0\.1\.4: its identity wording is fixed/],
    ['0.1.4', { toolNotes: 'x' }, /^config\.toolNotes: nanobot 0\.1\.4: only nanobot HEAD has a tool-notes section/],
    ['HEAD', { channel: 'telegram', chatId: '42' }, /^config\.chatId: nanobot HEAD: the chat id goes in the user turn/],
    ['HEAD', { tools: ['Read files'] }, /^config\.tools: nanobot HEAD: it has no tool list/],
  ] as const)('%s refuses %j', async (version, extra, message) => {
    const c = CASES.find((x) => x.version === version)!
    const ws = right(await loadWorkspace(c.workspace, options(c))())
    const built = buildSystemPrompt(ws, { tokenizer, runtime: NANOBOT_RUNTIME, ...extra })
    expect(E.isLeft(built) && built.left.message).toMatch(message)
  })
})
