import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { main as anthropic } from '../../examples/agent-loop-anthropic.js'
import { main as openai } from '../../examples/agent-loop-openai.js'

type Json = Record<string, unknown> & { messages?: Array<{ role: string; content: unknown }> }

describe('agent loop examples', () => {
  it('OpenAI: keeps the newest chunks within 700 tokens, tool calls and results in pairs', () => {
    const out = JSON.parse(openai()) as Json & { tokenCount: number; included: string[]; excluded: Array<{ id: string; reason: string }> }
    expect(out.tokenCount).toBeLessThanOrEqual(700)
    expect(out.included.slice(0, 2)).toEqual(['chunk_sys_01', 'chunk_user_01']) // SYSTEM, then the CRITICAL task
    expect(out.included[out.included.length - 1]).toBe('chunk_done_01')
    expect(out.excluded.every((x) => x.reason === 'over_budget')).toBe(true)
    // the oldest history goes first, and a call never stays without its result
    for (const n of ['01', '02', '03', '04', '05']) expect(out.included.includes(`chunk_call_${n}`)).toBe(out.included.includes(`chunk_result_${n}`))
    expect(out.messages![0]).toEqual({ role: 'system', content: 'Answer the user; cite the tool results you rely on.' })
    const text = JSON.stringify(out.messages)
    expect(text).toContain('<task_completed id=\\"chunk_done_01\\">')
    expect(text).not.toContain('chunk_summary_01')
  })

  it('OpenAI: with room for everything, the error result keeps its error form', () => {
    const out = JSON.parse(openai(100_000)) as Json & { included: string[] }
    expect(out.included).toHaveLength(19)
    expect(JSON.stringify(out.messages)).toContain('<tool_result id=\\"chunk_result_02\\" tool=\\"read_file\\" call_id=\\"call_02\\" success=\\"false\\" error=\\"true\\">')
  })

  it('Anthropic: system blocks with a cache breakpoint, alternating turns, every chunk', () => {
    const out = JSON.parse(anthropic()) as { tokenCount: number; tokenCountExact: boolean; request: { system: Array<Record<string, unknown>>; messages: Array<{ role: string }> } }
    expect(out.tokenCountExact).toBe(false)
    expect(out.request.system).toHaveLength(1)
    expect(out.request.system[0]).toMatchObject({ type: 'text', cache_control: { type: 'ephemeral' } })
    const roles = out.request.messages.map((m) => m.role)
    expect(roles[0]).toBe('user')
    roles.forEach((r, i) => i > 0 && expect(r).not.toBe(roles[i - 1]))
    expect(JSON.stringify(out.request.messages)).toContain('<progress_summary id=\\"chunk_summary_01\\" compacted_at=\\"1767261660000\\" original_count=\\"15\\">')
  })

  it('runs as a script and prints the messages', () => {
    const script = fileURLToPath(new URL('../../examples/agent-loop-openai.ts', import.meta.url))
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' })
    expect(JSON.parse(stdout)).toEqual(JSON.parse(openai()))
  })
})
