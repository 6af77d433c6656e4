import { describe, expect, it } from 'vitest'
import { fixture as shared } from '../shared.js'
import { canonical, expectedMessages, ORACLE_QUERY, withoutQuery } from '../session/claude/oracle.js'
import { cli } from './run.js'

const SHORT = shared('claude-code', 'short.jsonl')
const HEAVY = shared('claude-code', 'tool_heavy.jsonl')

describe('gssc build --session (Claude Code)', () => {
  it.each([
    ['short', SHORT],
    ['tool_heavy', HEAVY],
  ])('%s: with --query and --target-model, sends the messages Claude Code 2.1.330 sent', async (name, file) => {
    const r = await cli(['build', '--session', file, '-q', ORACLE_QUERY, '--format', 'anthropic', '--target-model', 'claude-opus-4-6', '--max-tokens', '200000', '--json'])
    expect(r.code).toBe(0)
    const sent = JSON.parse(r.stdout).output.messages
    expect(canonical(withoutQuery(sent))).toEqual(canonical(expectedMessages(shared('claude-code', 'expected', `${name}.cc-2.1.330.messages.json`))))
  })

  it('without --target-model, thinking goes as text and the note says how to keep it', async () => {
    const r = await cli(['build', '--session', SHORT, '-q', 'next', '--format', 'anthropic', '--max-tokens', '200000', '--json'])
    const blocks = JSON.parse(r.stdout).output.messages[1].content
    expect(blocks[0].type).toBe('text')
    expect(r.stderr).toMatch(/thinking sent as text \(name the model with --target-model/)
  })

  it('needs no --query: sends only the agent\'s own turns, and names the task', async () => {
    const r = await cli(['build', '--session', HEAVY, '--format', 'anthropic', '--target-model', 'claude-opus-4-6', '--max-tokens', '200000', '--json'])
    expect(r.code).toBe(0)
    const { output } = JSON.parse(r.stdout)
    expect(output.system).toBeUndefined()
    // the session's own turns, without the turns Claude Code adds only before a new prompt
    const own = canonical(expectedMessages(shared('claude-code', 'expected', 'tool_heavy.cc-2.1.330.messages.json')).slice(0, -1))
    expect(canonical(output.messages)).toEqual(own)
    expect(r.stderr).toMatch(/no --query: the task is the session's own last user turn \(29e6224a-ea4f-445c-964f-d2bbddd138d0\): "\[Request interrupted by user\]"/)
  })

  it('without --query, a history cut to the budget starts at one of its user turns, not at "(earlier conversation omitted)"', async () => {
    const r = await cli(['build', '--session', shared('pi', 'large-session.jsonl'), '--format', 'anthropic', '--json'])
    const { output } = JSON.parse(r.stdout)
    expect(output.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'yeah, do it all' }] })
    expect(JSON.stringify(output)).not.toContain('(earlier conversation omitted)')
    expect(JSON.stringify(output)).not.toContain('[Output]')
  })

  it('groups repeated repairs into one line with the count and the first ids', async () => {
    // a strategy fits the whole history, so every turn is converted
    const r = await cli(['build', '--session', shared('pi', 'large-session.jsonl'), '--max-tokens', '4000', '--strategy', 'truncate'])
    const lines = r.stderr.split('\n').filter((l) => l.includes('failed assistant turns'))
    expect(lines).toEqual(['gssc: session large-session.jsonl: 22 failed assistant turns (error or aborted) left out: v1-2, v1-32, v1-233, v1-273 and 18 more'])
  })

  it('converts only the turns the budget reaches and says which lines it only checked (test/session/reach.test.ts: the same window as a whole conversion)', async () => {
    const args = ['build', '--session', shared('pi', 'large-session.jsonl'), '--max-tokens', '4000', '-q', 'next', '--json']
    const r = await cli(args)
    expect(r.stderr.split('\n')[0]).toBe(
      'gssc: session large-session.jsonl: pi, leaf v1-1018, 51 turns read (the 966 older entries on lines 2-967, 0.9 MB, were checked but not converted: the newer turns fill the budget)',
    )
    // repairs are said for the turns converted only
    expect(r.stderr).toContain('gssc: session large-session.jsonl: 1 failed assistant turns (error or aborted) left out: v1-974')
    const out = JSON.parse(r.stdout)
    expect(out.excluded[0]).toMatchObject({ id: 'pi:large-session.jsonl#v1-1..v1-999', reason: 'over_budget' })
  })

  it('names packets after the file as the user sees it, so --explain shows short ids', async () => {
    const r = await cli(['build', '--session', 'test/fixtures/session/pi-v2.jsonl', '-q', 'q', '--json'])
    const ids: string[] = JSON.parse(r.stdout).included
    expect(ids.filter((id) => id.includes('#')).every((id) => id.startsWith('pi:test/fixtures/session/pi-v2.jsonl#'))).toBe(true)
  })

  it('sends reasoning_content only on request, with --format openai and --target-model', async () => {
    const bad = await cli(['build', '--session', SHORT, '--reasoning-content', '--format', 'anthropic'])
    expect([bad.code, bad.stderr.split('\n')[0]]).toEqual([2, 'gssc build: --reasoning-content needs --format openai and --target-model (the model whose own thinking is sent back)'])
    const r = await cli(['build', '--session', SHORT, '--format', 'openai', '--target-model', 'claude-opus-4-6', '--reasoning-content', '--max-tokens', '200000', '--json'])
    const assistant = JSON.parse(r.stdout).output.find((m: { role: string }) => m.role === 'assistant')
    expect(assistant.reasoning_content).toMatch(/^The user is having trouble starting their Phoenix server/)
  })
})
