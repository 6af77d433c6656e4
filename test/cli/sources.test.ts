import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkAnthropic } from '../../src/render/checkAnthropic.js'
import { checkOpenAI } from '../../src/render/checkOpenAI.js'
import { countAnthropic, countOpenAI } from '../../src/render/count.js'
import { gpt4o, scratchDir } from '../helpers.js'
import { cli } from './run.js'

const SESSION = 'examples/data/sessions/pi-invoice-rounding.jsonl'
const CLAUDE = 'test/fixtures/session/claude-code.jsonl'
const BROKEN = 'test/fixtures/session/broken.jsonl'

describe('gssc build --format', () => {
  it('openai: --json output is the messages array, counted with message overhead', async () => {
    const r = await cli(['build', '-q', 'Why is the total off by a cent?', '--session', SESSION, '--format', 'openai', '--json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(Array.isArray(j.output)).toBe(true)
    expect(checkOpenAI(j.output)).toEqual([])
    expect(j.tokenCount).toBe(countOpenAI(j.output, gpt4o))
    expect(j.output.at(-1)).toEqual({ role: 'user', content: 'Why is the total off by a cent?' })
  })

  it('anthropic: a session replay sends only the session\'s own turns: no system prompt gssc made up', async () => {
    const r = await cli(['build', '-q', 'Fix it.', '--session', CLAUDE, '--format', 'anthropic', '--max-tokens', '400', '--json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(Object.keys(j.output)).toEqual(['messages'])
    expect(JSON.stringify(j.output)).not.toMatch(/\[Output\]|Please answer/)
    expect(checkAnthropic(j.output)).toEqual([])
    expect(j.tokenCount).toBe(countAnthropic(j.output, gpt4o))
  })

  it('anthropic, with the seed layout: --json output is { system, messages }, valid and within budget', async () => {
    const r = await cli(['build', '-q', 'Fix it.', '--session', CLAUDE, '--format', 'anthropic', '--structurer', 'sectioned', '--max-tokens', '400', '--json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(Object.keys(j.output).sort()).toEqual(['messages', 'system'])
    expect(checkAnthropic(j.output)).toEqual([])
    expect(j.tokenCount).toBe(countAnthropic(j.output, gpt4o))
    expect(j.tokenCount).toBeLessThanOrEqual(340)
  })
})

describe('gssc build --session', () => {
  it('reports skipped lines of a messy file with their line numbers, and still builds', async () => {
    const r = await cli(['build', '-q', 'what happened?', '--session', BROKEN])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/broken\.jsonl:4: invalid JSON/)
    expect(r.stderr).toMatch(/broken\.jsonl:15: unknown entry type "mystery"/)
  })

  it('--leaf picks a branch; an unknown leaf is an error naming it', async () => {
    const other = await cli(['build', '-q', 'q', '--session', SESSION, '--leaf', 'd000000a', '--json'])
    expect(JSON.parse(other.stdout).output).toContain('decimal.js')
    const bad = await cli(['build', '-q', 'q', '--session', SESSION, '--leaf', 'nope'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/nope/)
  })

  it.each(['truncate', 'compress', 'smart'])('--strategy %s fits the history into the budget', async (strategy) => {
    const r = await cli(['build', '-q', 'Summarize where we are.', '--session', SESSION, '--strategy', strategy, '--max-tokens', '700', '--json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.tokenCount).toBeLessThanOrEqual(j.budget.available)
    if (strategy !== 'truncate') expect(j.excluded.some((e: { reason: string }) => e.reason === 'summarized')).toBe(true)
  })

  it('--keep-recent caps the verbatim turns', async () => {
    const r = await cli(['build', '-q', 'q', '--session', SESSION, '--keep-recent', '2', '--json'])
    const j = JSON.parse(r.stdout)
    expect(j.included.filter((id: string) => id.includes('#')).length).toBeLessThanOrEqual(2)
  })

  it('rejects an unknown strategy and two histories at once', async () => {
    const bad = await cli(['build', '-q', 'q', '--session', SESSION, '--strategy', 'smrt'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('--strategy: unknown strategy "smrt"; use truncate, compress or smart')
    const both = await cli(['build', '-q', 'q', '--session', SESSION, '--history', 'test/fixtures/cli/history.jsonl'])
    expect(both.code).toBe(2)
  })
})

describe('gssc sessions', () => {
  it('lists the branches with the default marked', async () => {
    const r = await cli(['sessions', SESSION])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^ {2}leaf/)
    expect(r.stdout).toMatch(/\n\* d0000019 /)
    expect(r.stdout).toMatch(/\n {2}d000000a /)
    const j = JSON.parse((await cli(['sessions', SESSION, '--json'])).stdout)
    expect(j.branches.map((b: { leafId: string }) => b.leafId)).toEqual(['d000000a', 'd0000019'])
  })

  it('fails on a missing file', async () => {
    const r = await cli(['sessions', 'no/such.jsonl'])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('no/such.jsonl')
  })
})

describe('gssc build --workspace', () => {
  it("lays the workspace out as nanobot's prompt and puts the image first in the user turn", async () => {
    const r = await cli(['build', '--workspace', 'examples/workspace', '-q', 'What is on this receipt?', '--media', 'examples/workspace/images/receipt.png', '--format', 'openai', '--channel', 'telegram', '--chat-id', '4242', '--json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.output[0].content).toMatch(/^# nanobot 🐈\n\nYou are nanobot/)
    expect(j.output[0].content).toContain('\n\n---\n\n## AGENTS.md\n\n')
    expect(j.output[0].content).toContain('## Current Session\nChannel: telegram\nChat ID: 4242')
    const last = j.output.at(-1)
    expect(last.content[0].type).toBe('image_url')
    expect(last.content[0].image_url.url).toMatch(/^data:image\/png;base64,/)
    expect(last.content[1]).toEqual({ type: 'text', text: 'What is on this receipt?' })
  })

  it('refuses media that is not an image, and media with a text format', async () => {
    const notImage = await cli(['build', '--workspace', 'examples/workspace', '-q', 'q', '--media', 'examples/workspace/AGENTS.md', '--format', 'openai'])
    expect(notImage.code).toBe(1)
    expect(notImage.stderr).toContain('AGENTS.md')
    const text = await cli(['build', '-q', 'q', '--media', 'examples/workspace/images/receipt.png'])
    expect(text.code).toBe(2)
    expect(text.stderr).toContain('--media needs --format openai or anthropic')
  })

  it('workspace init writes a starter workspace and never overwrites', async () => {
    const dir = join(scratchDir('gssc-ws-'), 'ws')
    const first = await cli(['workspace', 'init', dir])
    expect(first.code).toBe(0)
    expect(existsSync(join(dir, 'AGENTS.md'))).toBe(true)
    const again = await cli(['workspace', 'init', dir])
    expect(again.stdout).toContain('kept    ')
    expect(again.stdout).not.toContain('created')
    const built = await cli(['build', '--workspace', dir, '-q', 'hello'])
    expect(built.code).toBe(0)
    expect(built.stdout).toContain('## AGENTS.md')
  })

  it("workspace init shows a hostile folder name's control characters, and quotes it in the command it suggests", async () => {
    const dir = join(scratchDir('gssc-ws-'), "it's \u001b[31mred")
    const r = await cli(['workspace', 'init', dir])
    expect(r.code).toBe(0)
    expect(existsSync(join(dir, 'AGENTS.md'))).toBe(true)
    expect(r.stdout + r.stderr).not.toContain('\u001b')
    expect(r.stderr).toContain(`--workspace '${dir.replace("it's", "it'\\''s").replace('\u001b', '␛')}' --query`)
  })
})

describe('gssc build --chunks', () => {
  it('builds chat messages from a chunk memory state with the xml layout', async () => {
    const r = await cli(['build', '--chunks', 'examples/data/chunks.json', '--structurer', 'xml', '--format', 'openai', '--json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(checkOpenAI(j.output)).toEqual([])
    const text = JSON.stringify(j.output)
    expect(text).toContain('<tool_call ')
    expect(text).toContain('<tool_result ')
    // consecutive chunks of one role are one message
    const roles = j.output.map((m: { role: string }) => m.role)
    expect(roles.some((r: string, i: number) => i > 0 && r === roles[i - 1] && r !== 'tool')).toBe(false)
    // the seed's result fields, on top of the core report
    expect(j.includedChunkIds.length + j.excludedChunkIds.length).toBe(19)
    expect(j.excludedChunkIds).toEqual([])
  })

  it('keeps the newest chunks when the budget is short, reporting the chunk ids', async () => {
    const r = await cli(['build', '--chunks', 'examples/data/chunks.json', '--structurer', 'xml', '--format', 'anthropic', '--max-tokens', '700', '--json'])
    const j = JSON.parse(r.stdout)
    expect(j.tokenCount).toBeLessThanOrEqual(j.budget.available)
    expect(j.excludedChunkIds.length).toBeGreaterThan(0)
    expect(j.includedChunkIds.at(-1)).toBe('chunk_done_01')
  })

  it('a bad state file fails with its name', async () => {
    const r = await cli(['build', '--chunks', 'test/fixtures/cli/history.jsonl'])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('history.jsonl')
  })
})

describe('gssc build --explain and --report', () => {
  it('prints the budget table on stderr and writes a self-contained HTML report', async () => {
    const file = join(scratchDir('gssc-report-'), 'report.html')
    const r = await cli(['build', '-q', 'Why does the compile step fail?', '--history', 'test/fixtures/cli/history.jsonl', '--packets', 'test/fixtures/cli/packets.jsonl', '--max-tokens', '300', '--explain', '--report', file])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('available')
    const table = r.stderr.slice(r.stderr.indexOf('\n\n') + 2)
    expect(table.split('\n').every((l) => [...l].length <= 80)).toBe(true)
    expect(r.stderr).not.toMatch(/\u001b\[/)
    const html = readFileSync(file, 'utf8')
    expect(html.startsWith('<!doctype html>') || html.startsWith('<!DOCTYPE html>')).toBe(true)
    expect(html).not.toMatch(/https?:\/\//)
  })
})
