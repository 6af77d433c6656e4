import { describe, expect, it } from 'vitest'
import { main as basic } from '../../examples/basic.js'
import { main as customTemplate } from '../../examples/custom-template.js'
import { knowledgeBase, main as memoryRag, retrieve } from '../../examples/memory-rag.js'
import { main as swapStage } from '../../examples/swap-stage.js'

describe('examples', () => {
  it('basic: a sectioned context with the whole short conversation', async () => {
    const out = await basic()
    expect(out).toContain('User question: Why does the CI build fail, and what should I run?')
    expect(out).toContain('user: npm ERR! Missing script: "compile"')
    expect(out).toMatch(/-- \d+ of 850 tokens; kept instructions, task, history:0, .*history:6$/)
  })

  it('memory + RAG: Orama finds the knowledge-base entry, gating drops the off-topic hit', async () => {
    const out = await memoryRag()
    expect(out).toContain('[Source: CI: missing compile script] If CI fails with "Missing script: compile"')
    expect(out).toContain('[Source: ci-log]')
    expect(out).not.toContain('coffee machine')
    expect(out).toMatch(/rag:ci-cache: below_min_relevance/)
  })

  it('the Orama index answers Chinese queries through the Segmenter-based tokenizer', async () => {
    const hits = await retrieve(knowledgeBase())('构建为什么失败', 3, new AbortController().signal)
    expect(hits[0]?.source).toBe('构建失败排查')
    const out = await memoryRag('构建失败了，compile 脚本找不到')
    expect(out).toContain('[Source: 构建失败排查]')
  })

  it('custom template: the layout is the template, and what it has no slot for is reported', async () => {
    const out = await customTemplate()
    expect(out).toContain('<facts>\n[Source: ci-log] Step')
    expect(out).toContain('</conversation>\n\nQuestion: Why does the CI build fail?')
    expect(out).toContain("-- not in the template's layout: team-note")
    expect(out).toContain('== minimal ==\nYou are the widget project')
  })

  it('swap a stage: the pinned packet is kept and laid out by the custom structurer', async () => {
    const out = await swapStage()
    expect(out.startsWith('Facts:\n- Step \'compile\' failed')).toBe(true)
    expect(out).toContain('user> npm ERR! Missing script: "compile"\n\nQ: What now?')
    expect(out).toMatch(/not in this layout: instructions, open-question, team-note$/)
  })
})
