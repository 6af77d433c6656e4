/**
 * The content compressors on the real tool outputs of the pi and Claude Code fixtures: what
 * must survive does, at the budgets `npm run quality` reports.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import ts from 'typescript'
import { compressContent, jsonTree, sniff, type Sniffed } from '../../../src/compress/content/index.js'
import { cutText } from '../../../src/compress/cutText.js'
import { survivorsOf, type Survivors } from '../../../scripts/survival.js'
import { toolOutputs, type ToolOutput } from '../../../scripts/toolOutputs.js'
import { gpt4o } from '../../helpers.js'

interface Case {
  readonly output: ToolOutput
  readonly sniffed: Sniffed
  readonly survivors: Survivors
  readonly tokens: number
}

let cases: ReadonlyArray<Case> = []

beforeAll(async () => {
  cases = (await toolOutputs()).flatMap((output) => {
    const sniffed = sniff(output.text, output.hint)
    const survivors = survivorsOf(output.text, sniffed)
    return survivors === undefined || survivors.items.length === 0 ? [] : [{ output, sniffed, survivors, tokens: gpt4o.count(output.text) }]
  })
})

const BUDGETS = [250, 500, 1000]

describe('content compression on real tool outputs', () => {
  it('finds every kind in the fixtures', () => {
    const kinds = new Set(cases.map((c) => c.sniffed.kind))
    expect([...kinds].sort()).toEqual(['code', 'json', 'log', 'markdown'])
  })

  it('fits every budget, keeps JSON valid, and keeps more of what matters than truncation', () => {
    for (const budget of BUDGETS) {
      const kept = new Map<string, { content: number; cut: number }>()
      for (const c of cases.filter((x) => x.tokens > budget)) {
        const r = compressContent(c.output.text, budget, gpt4o, c.output.hint, { totalTokens: c.tokens, typescript: ts })
        expect(r.tokens, c.output.id).toBeLessThanOrEqual(budget)
        if (c.sniffed.kind === 'json') expect(jsonTree(r.text), c.output.id).toBeDefined()
        const k = kept.get(c.sniffed.kind) ?? { content: 0, cut: 0 }
        kept.set(c.sniffed.kind, {
          content: k.content + c.survivors.keptIn(r.text),
          cut: k.cut + c.survivors.keptIn(cutText(c.output.text, budget, 'head', gpt4o, c.tokens)),
        })
      }
      for (const [kind, k] of kept) expect(k.content, `${kind} at ${budget}`).toBeGreaterThanOrEqual(k.cut)
    }
  })

  it('keeps every error line of a log whose error lines take at most a third of the budget', () => {
    let checked = 0
    for (const c of cases.filter((x) => x.sniffed.kind === 'log'))
      for (const budget of BUDGETS) {
        if (c.tokens <= budget || gpt4o.count(c.survivors.items.join('\n')) > budget / 3) continue
        checked++
        const r = compressContent(c.output.text, budget, gpt4o, c.output.hint, { totalTokens: c.tokens, typescript: ts })
        expect(c.survivors.keptIn(r.text), `${c.output.id} at ${budget}`).toBe(c.survivors.items.length)
      }
    expect(checked).toBeGreaterThan(10)
  })

  it('keeps every heading of a Markdown file, and every declaration of a source file, at half its size', () => {
    let checked = 0
    for (const c of cases.filter((x) => x.sniffed.kind === 'markdown' || x.sniffed.kind === 'code')) {
      // only files whose declaration lines alone take at most a tenth of the text
      if (c.tokens < 500 || gpt4o.count(c.survivors.items.join('\n')) > c.tokens / 10) continue
      checked++
      const r = compressContent(c.output.text, Math.floor(c.tokens / 2), gpt4o, c.output.hint, { totalTokens: c.tokens, typescript: ts })
      expect(c.survivors.keptIn(r.text), c.output.id).toBe(c.survivors.items.length)
    }
    expect(checked).toBeGreaterThan(20)
  })
})
