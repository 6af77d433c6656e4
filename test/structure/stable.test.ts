import { describe, expect, it } from 'vitest'
import { anthropicRenderer } from '../../src/formats.js'
import { message } from '../../src/message.js'
import { build } from '../../src/pipeline.js'
import { sectioned } from '../../src/structure/sectioned.js'
import { stable } from '../../src/structure/stable.js'
import { gpt4o, NOW, run } from '../helpers.js'

const request = {
  query: 'How do I fix it?',
  instructions: 'You are a build assistant.',
  history: [message('user', 'Why does the build fail?'), message('assistant', 'build.sh calls a missing script.')],
  packets: [
    { type: 'evidence' as const, content: 'The compile script was renamed to build in v2.', source: 'CHANGELOG.md', relevance: 0.9 },
    { type: 'task_state' as const, content: 'step 2 of 3', relevance: 1 },
    { type: 'custom' as const, content: 'The user prefers short answers.', relevance: 0.9 },
  ],
}

describe('stable(), the cache-stable text layout', () => {
  it('has the seed’s sections, with instructions, output format and history first and state, evidence, notes and the question last', async () => {
    const r = await run(build(request, { tokenizer: gpt4o, now: NOW, structurer: stable() }))
    const heads = ['[Role & Policies]', '[Output]', '[Context]', '[State]', '[Evidence]', '[Notes]', '[Task]']
    const at = heads.map((h) => r.output.indexOf(h))
    expect(at.every((x) => x >= 0)).toBe(true)
    expect([...at].sort((a, b) => a - b)).toEqual(at)
    expect(r.output.endsWith('How do I fix it?')).toBe(true)
    // the same sections and texts as the seed's layout, in another order
    const seed = await run(build(request, { tokenizer: gpt4o, now: NOW, structurer: sectioned() }))
    expect(r.output.split('\n\n').sort()).toEqual(seed.output.split('\n\n').sort())
    expect(r.prefix.tokens).toBe(gpt4o.count(r.output.slice(0, r.output.indexOf('\n\n[State]'))))
  })

  it('as messages: the instructions and output format are the system prompt, the rest goes on the final user turn', async () => {
    const r = await run(build(request, { tokenizer: gpt4o, now: NOW, structurer: stable(), renderer: anthropicRenderer() }))
    expect(r.output.system?.[0]?.text).toMatch(/^\[Role & Policies\][\s\S]*\[Output\]/)
    const last = r.output.messages.at(-1)!
    expect(JSON.stringify(last)).toMatch(/step 2 of 3[\s\S]*renamed[\s\S]*short answers[\s\S]*How do I fix it\?/)
    expect(JSON.stringify(last)).not.toContain('cache_control')
    expect(JSON.stringify(r.output.messages.at(-2))).toContain('cache_control')
  })
})
