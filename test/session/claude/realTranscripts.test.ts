/**
 * Real Claude Code transcripts with no recorded oracle output (`test/fixtures/session/
 * claude-real/`, see its README): the invariants of Claude Code's resume rules.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { message } from '../../../src/message.js'
import { toAnthropic } from '../../../src/render/anthropic.js'
import { checkAnthropic } from '../../../src/render/checkAnthropic.js'
import { listBranches } from '../../../src/session/branches.js'
import { buildSession } from '../../../src/session/build.js'
import { load, right, tempDir, tokenizer } from '../helpers.js'

const ROOT = 'test/fixtures/session/claude-real'

const gzipped = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? gzipped(path) : name.endsWith('.jsonl.gz') ? [path] : []
  })

/** Each fixture unzipped into a temporary folder, by its name under ROOT. */
const unzipped = (() => {
  const dir = tempDir()
  return gzipped(ROOT).map((gz) => {
    const file = join(dir, relative(ROOT, gz).replaceAll('/', '__').replace(/\.gz$/, ''))
    writeFileSync(file, gunzipSync(readFileSync(gz)))
    return [relative(ROOT, gz), file] as const
  })
})()

type Line = Record<string, any>
const linesOf = (file: string): ReadonlyArray<Line> =>
  readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((l) => {
      try {
        const o = JSON.parse(l)
        return o !== null && typeof o === 'object' ? [o] : []
      } catch {
        return []
      }
    })
const blocks = (o: Line): ReadonlyArray<Line> => (Array.isArray(o?.message?.content) ? o.message.content : [])

describe.each(unzipped)('real transcript %s', (name, file) => {
  const lines = linesOf(file)
  const resultIds = new Set(lines.flatMap((o) => blocks(o).flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []))))
  const subagentFile = lines.every((o) => o.uuid === undefined || o.isSidechain === true)

  it('has one branch: its forks come from parallel calls, not from the user', async () => {
    const branches = listBranches()(await load(file))
    expect(branches.length).toBe(1)
    expect(branches[0]!.isDefault).toBe(true)
    expect(branches[0]!.thread !== undefined).toBe(subagentFile)
  })

  it.each([false, true])('rebuilds every response as one turn with every call and its real result (a prompt follows: %s)', async (withNextPrompt) => {
    const build = right(await buildSession(file, { tokenizer, withNextPrompt })())
    const { messages } = build.context
    expect(messages.length).toBeGreaterThan(0)
    // no placeholder for a call whose result is in the file
    const synthetic = build.history.repairs.flatMap((r) => (r._tag === 'SyntheticResult' ? [r.callId] : []))
    expect(synthetic.filter((id) => resultIds.has(id))).toEqual([])
    // one assistant turn per response
    const responses = messages.flatMap((m) => (m.message.role === 'assistant' && m.mergeKey !== undefined ? [m.mergeKey] : []))
    expect(new Set(responses).size).toBe(responses.length)
    // every call of every response on the branch is there (unless Claude Code leaves its line out), each answered
    const omitted = new Set((build.context.omitted ?? []).map((o) => o.entryId))
    const sent = new Set(messages.flatMap((m) => m.message.parts.flatMap((p) => (p._tag === 'ToolCall' ? [p.id] : []))))
    const answered = new Set(messages.flatMap((m) => m.message.parts.flatMap((p) => (p._tag === 'ToolResult' ? [p.callId] : []))))
    for (const o of lines)
      if (o.type === 'assistant' && responses.includes(o.message?.id) && !omitted.has(o.uuid))
        for (const b of blocks(o)) if (b.type === 'tool_use') expect(sent.has(b.id) && answered.has(b.id), `${name}: call ${b.id}`).toBe(true)
    // and the request is one the API accepts
    const { request } = toAnthropic([...build.history.items.map((i) => i.message), message('user', 'next')], { target: { model: 'claude-opus-4-6' } })
    expect(checkAnthropic(request)).toEqual([])
  })
})
