import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { applyCaps } from '../../src/compress/engine.js'
import { decorationOf, sectionsOf } from '../../src/structure/document.js'
import { meter } from '../../src/tokenize/meter.js'
import type { HistoryEntry, Skill, Workspace, WorkspaceFile } from '../../src/workspace/model.js'
import { resolveSettings } from '../../src/workspace/options.js'
import { promptDocument, promptPolicy } from '../../src/workspace/policy.js'
import { buildSystemPrompt } from '../../src/workspace/prompt.js'
import type { Item } from '../../src/workspace/sections.js'
import { NOW, right, RUNTIME, tokenizer } from './helpers.js'
import { joinStress, seeded } from '../prop.js'

const file = (name: string, body: string): WorkspaceFile => ({ name, path: `/ws/${name}`, text: body, bytes: Buffer.byteLength(body), partial: false })

const skill = fc.record({ dir: fc.stringMatching(/^[a-z]{1,8}$/), description: joinStress(8), body: joinStress(40), always: fc.boolean(), available: fc.boolean() }).map(
  (k): Skill => ({
    name: k.dir,
    dir: k.dir,
    file: file(`skills/${k.dir}/SKILL.md`, k.body),
    description: k.description,
    body: k.body,
    always: k.always,
    requires: { bins: k.available ? [] : ['tool'], env: [] },
    missing: { bins: k.available ? [] : ['tool'], env: [] },
    available: k.available,
    frontmatter: {},
  }),
)

const workspace = fc
  .record({
    bootstrap: fc.uniqueArray(fc.tuple(fc.constantFrom('AGENTS.md', 'SOUL.md', 'USER.md', 'TOOLS.md', 'IDENTITY.md'), joinStress(300)), { selector: ([n]) => n, maxLength: 5 }),
    memory: fc.option(joinStress(600), { nil: undefined }),
    today: fc.option(joinStress(60), { nil: undefined }),
    skills: fc.uniqueArray(skill, { selector: (k) => k.dir, maxLength: 4 }),
    history: fc.array(joinStress(20), { maxLength: 6 }),
  })
  .map(
    (w): Workspace => ({
      root: '/ws',
      clock: { now: NOW, timeZone: 'Asia/Shanghai' },
      bootstrap: w.bootstrap.map(([name, body]) => file(name, body)),
      missing: [],
      memory: {
        layout: 'history-jsonl',
        ...(w.memory === undefined ? {} : { longTerm: file('memory/MEMORY.md', w.memory) }),
        ...(w.today === undefined ? {} : { today: file('memory/2026-07-02.md', w.today) }),
        history: w.history.map((content, i): HistoryEntry => ({ timestamp: '2026-07-02 10:00', content, line: i + 1, cursor: i + 1 })),
        historyFile: 'memory/history.jsonl',
      },
      skills: w.skills,
      problems: [],
    }),
  )

const deepFreeze = <A>(value: A): A => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}

describe('buildSystemPrompt (properties)', () => {
  it('reports the exact count of the prompt, never over the budget, cutting lower priorities first, within the per-file and history caps', () => {
    fc.assert(
      fc.property(
        workspace,
        fc.integer({ min: 1, max: 1500 }),
        fc.integer({ min: 1, max: 600 }),
        fc.integer({ min: 1, max: 40 }),
        fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
        fc.boolean(),
        (ws, maxTokens, maxFileTokens, minCutTokens, maxHistoryTokens, session) => {
          const frozen = deepFreeze(ws)
          const built = right(
            buildSystemPrompt(frozen, {
              tokenizer,
              runtime: RUNTIME,
              maxTokens,
              maxFileTokens,
              minCutTokens,
              ...(maxHistoryTokens === undefined ? {} : { maxHistoryTokens }),
              ...(session ? { channel: 'cli', chatId: 'direct' } : {}),
            }),
          )
          expect(built.tokens).toBe(tokenizer.count(built.prompt))
          expect(built.tokens).toBeLessThanOrEqual(maxTokens)
          // once the budget cut or dropped a part of priority p, nothing of a lower priority is kept
          const squeezed = built.parts.filter((p) => p.reason === 'over_budget')
          if (squeezed.length > 0) {
            const p = Math.min(...squeezed.map((x) => x.priority))
            expect(built.parts.filter((x) => x.priority > p && !x.dropped)).toEqual([])
          }
          // every kept part's text is in the prompt
          for (const part of built.parts) if (!part.dropped && part.id.startsWith('bootstrap:')) expect(built.prompt).toContain(`## ${part.name}\n\n`)
          // a file's part stays within its per-file cap; only the history block has a section cap, and holds it
          for (const part of built.parts) {
            if (part.file !== undefined && part.kind !== 'skills-summary') expect(part.tokens).toBeLessThanOrEqual(maxFileTokens)
            if (part.reason === 'section_cap') expect(part.kind).toBe('history')
            if (part.reason === 'kept') expect([part.truncated, part.dropped]).toEqual([false, false])
          }
          const history = built.parts.filter((p) => p.kind === 'history' && !p.dropped)
          expect(history.reduce((n, p) => n + p.tokens + tokenizer.count('\n'), 0)).toBeLessThanOrEqual(maxHistoryTokens ?? 8_000)
        },
      ),
      seeded(250),
    )
  })
})

describe('a part under its per-file cap (properties)', () => {
  it('fits within the cap, keeps a prefix of the body, and counts the result exactly', () => {
    fc.assert(
      fc.property(joinStress(400), fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 32 }), (body, limit, minCut) => {
        const item: Item = { id: 'x', kind: 'memory', name: 'Memory', file: 'memory/MEMORY.md', head: '## Long-term Memory\n', body, cuttable: true, type: 'task_state', priority: 1, bytes: Buffer.byteLength(body) }
        const s = right(resolveSettings({ tokenizer, runtime: RUNTIME, maxFileTokens: limit, minCutTokens: minCut }))
        const m = meter(tokenizer)
        const section = { id: 'memory' as const, joiner: '', head: '', sep: '', tail: '', items: [item] }
        const fitted = sectionsOf(applyCaps(promptDocument([section], s, m), promptPolicy(s), m))[0]!.items[0]
        if (fitted === undefined) return
        const text = fitted.prefix + fitted.text
        const tokens = decorationOf(fitted, m) + fitted.tokens
        expect(tokens).toBeLessThanOrEqual(limit)
        expect(tokens).toBe(tokenizer.count(text))
        if (fitted.cut === undefined) expect(text).toBe(item.head + body)
        else {
          const marker = text.lastIndexOf('\n… [truncated: memory/MEMORY.md, kept ')
          expect(marker).toBeGreaterThanOrEqual(item.head.length - 1)
          const kept = text.slice(item.head.length, marker)
          expect(body.startsWith(kept.replace(/[ \t]+$/, ''))).toBe(true)
        }
      }),
      seeded(400),
    )
  })
})
