import fc from 'fast-check'
import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildSession, type SessionBuild } from '../../src/session/build.js'
import { rebuildSession } from '../../src/session/incremental.js'
import { right, tempDir, tokenizer } from './helpers.js'
import { seeded } from '../prop.js'

const KINDS = ['user', 'assistant', 'call', 'result', 'thinking', 'compaction', 'label', 'custom_message', 'branch_summary', 'bash'] as const

const step = fc.record({
  kind: fc.constantFrom(...KINDS),
  branch: fc.integer({ min: 0, max: 9 }),
  pick: fc.nat(),
  text: fc.constantFrom('fix the build', 'run the tests', 'error: missing script', 'done', '世界 🎉'),
})

/** A random pi v3 session. */
const session = fc.array(step, { minLength: 1, maxLength: 40 }).map((steps) => {
  const lines = ['{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}']
  const ids: string[] = []
  let lastCall: string | undefined
  steps.forEach((s, i) => {
    const id = `e${i}`
    // mostly a chain; sometimes a branch, a parent never written, or one written later (a cycle)
    const parentId = i === 0 ? null : s.branch === 0 ? ids[s.pick % i]! : s.branch === 1 && s.pick % 4 === 0 ? 'ghost' : s.branch === 2 && s.pick % 4 === 0 ? `e${i + 1}` : ids[i - 1]!
    const ts = new Date(Date.parse('2026-01-01T00:00:00.000Z') + i * 1000).toISOString()
    const base = { id, parentId, timestamp: ts }
    const msg = (message: object) => ({ type: 'message', ...base, message: { ...message, timestamp: i } })
    const origin = { api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop' }
    const entry =
      s.kind === 'user'
        ? msg({ role: 'user', content: s.text })
        : s.kind === 'assistant'
          ? msg({ role: 'assistant', content: [{ type: 'text', text: s.text }], ...origin, ...(s.pick % 5 === 0 ? { stopReason: 'aborted' } : {}) })
          : s.kind === 'call'
            ? msg({ role: 'assistant', content: [{ type: 'toolCall', id: (lastCall = `t${i}`), name: 'bash', arguments: { command: s.text } }], ...origin, stopReason: 'toolUse' })
            : s.kind === 'result'
              ? msg({ role: 'toolResult', toolCallId: lastCall ?? 'none', toolName: 'bash', content: [{ type: 'text', text: s.text }], isError: false })
              : s.kind === 'bash'
                ? msg({ role: 'bashExecution', command: 'ls', output: s.text, exitCode: s.pick % 3, cancelled: false, truncated: false })
                : s.kind === 'thinking'
                  ? { type: 'thinking_level_change', ...base, thinkingLevel: ['low', 'high'][s.pick % 2] }
                  : s.kind === 'compaction'
                    ? { type: 'compaction', ...base, summary: s.text, firstKeptEntryId: ids[s.pick % i] ?? 'none', tokensBefore: 10 }
                    : s.kind === 'label'
                      ? { type: 'label', ...base, targetId: ids[s.pick % Math.max(1, i)] ?? id, label: s.text }
                      : s.kind === 'custom_message'
                        ? { type: 'custom_message', ...base, customType: 'ext', content: s.text, display: true }
                        : { type: 'branch_summary', ...base, fromId: 'root', summary: s.text }
    ids.push(id)
    lines.push(JSON.stringify(entry))
  })
  return lines
})

const comparable = (b: SessionBuild) => ({ context: b.context, history: b.history, diagnostics: b.diagnostics })

describe('rebuildSession (properties)', () => {
  it('gives what a full build gives, however the file grew', async () => {
    const dir = tempDir()
    let run = 0
    const modes = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(session, fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), async (lines, cuts) => {
        const file = join(dir, `s${run++}.jsonl`)
        const points = [...new Set(cuts.map((c) => 2 + (c % (lines.length - 1))))].sort((a, b) => a - b)
        writeFileSync(file, lines.slice(0, points[0]).join('\n') + '\n')
        let build = right(await buildSession(file, { tokenizer })())
        for (const [k, at] of [...points.slice(1), lines.length].entries()) {
          const from = k === 0 ? points[0]! : [...points.slice(1), lines.length][k - 1]!
          if (at > from) appendFileSync(file, lines.slice(from, at).join('\n') + '\n')
          build = right(await rebuildSession(file, { tokenizer }, build)())
          modes.set(build.stats.mode, (modes.get(build.stats.mode) ?? 0) + 1)
          expect(comparable(build)).toEqual(comparable(right(await buildSession(file, { tokenizer })())))
        }
      }),
      seeded(60),
    )
    // the property is about the incremental path: make sure it was taken, often
    expect(modes.get('incremental') ?? 0).toBeGreaterThan(20)
  })
})
