import { describe, expect, it } from 'vitest'
import { anthropicRenderer, openaiRenderer } from '../../src/formats.js'
import { message, toolCall, toolResult, type ChatMessage } from '../../src/message.js'
import { build } from '../../src/pipeline.js'
import { REQUEST_OVERHEAD } from '../../src/render/cost.js'
import { countAnthropic, countOpenAI } from '../../src/render/count.js'
import type { BuildResult } from '../../src/report.js'
import { unitKey } from '../../src/report/prefix.js'
import { stable } from '../../src/structure/stable.js'
import { gpt4o, left, NOW, run } from '../helpers.js'

const SYSTEM = 'You are a build assistant.\n\nAnswer in one sentence.'
// the whole history: a sliding window (the default keeps 10 messages) drops the oldest turn, and the prefix with it
const config = { maxHistoryMessages: Number.POSITIVE_INFINITY }

/** A conversation of `n` exchanges, with a tool call in each. */
const conversation = (n: number): ReadonlyArray<ChatMessage> =>
  Array.from({ length: n }, (_, i) => [
    message('user', `Question ${i}: why does step ${i} fail?`),
    message('assistant', [{ _tag: 'Text', text: `Reading step ${i}.` }, toolCall(`call_${i}`, 'read', { path: `step${i}.sh` })]),
    message('tool', [toolResult(`call_${i}`, 'read', `#!/bin/sh\nnpm run step${i}\n`)]),
    message('assistant', `step${i}.sh calls a missing script.`),
  ]).flat()

/** The request of turn `n`: the history so far, this turn's question, evidence and state. */
const turn = (n: number) => ({
  query: `Question ${n}: and how do I fix it?`,
  instructions: SYSTEM,
  history: conversation(n),
  packets: [
    { type: 'evidence' as const, content: `Retrieved for turn ${n}: the scripts were renamed in v${n}.`, source: 'CHANGELOG.md', relevance: 0.9 },
    { type: 'task_state' as const, content: `turn ${n} of 10` },
  ],
})

describe('the cache-stable prefix report', () => {
  it('text, stable layout: the previous turn’s whole prefix is identical, counted exactly, and is a prefix of both outputs', async () => {
    const first = await run(build(turn(2), { tokenizer: gpt4o, now: NOW, config, structurer: stable() }))
    const second = await run(build(turn(3), { tokenizer: gpt4o, now: NOW, config, structurer: stable(), previous: first }))
    const id = second.prefix.identical!
    expect(first.prefix.identical).toBeUndefined()
    expect(id.units).toBe(first.prefix.units.length)
    expect(id.tokens).toBe(first.prefix.tokens)
    expect(id.chars).toBeGreaterThan(0)
    const shared = second.output.slice(0, id.chars)
    expect(first.output.startsWith(shared)).toBe(true)
    expect(id.tokens).toBe(gpt4o.count(shared))
    // the whole prefix is counted exactly too, and the volatile tail (evidence, state, question) is not in it
    expect(second.prefix.tokens).toBeLessThan(second.tokenCount)
    expect(shared).toContain('Question 1: why does step 1 fail?')
    expect(shared).not.toContain('Retrieved for turn')
    expect(second.output.endsWith('Question 3: and how do I fix it?')).toBe(true)
  })

  it('text, the seed’s default layout: the question comes second, so only the instructions are shared', async () => {
    const first = await run(build(turn(2), { tokenizer: gpt4o, now: NOW }))
    const second = await run(build(turn(3), { tokenizer: gpt4o, now: NOW, config, previous: first }))
    expect(second.prefix.units).toHaveLength(1)
    expect(second.prefix.identical).toEqual({ units: 1, tokens: gpt4o.count(second.output.slice(0, second.prefix.identical!.chars)), chars: second.prefix.identical!.chars })
  })

  it('OpenAI messages: every turn before the final user turn, each counted as the request counts it', async () => {
    const first = await run(build(turn(2), { tokenizer: gpt4o, now: NOW, config, renderer: openaiRenderer() }))
    const second = await run(build(turn(3), { tokenizer: gpt4o, now: NOW, config, renderer: openaiRenderer(), previous: first.prefix }))
    // system prompt and the two exchanges of turn 2's history (8 messages after tool repair: 1 + 2 × 4)
    expect(first.prefix.units).toHaveLength(1 + 8)
    const k = second.prefix.identical!.units
    expect(k).toBe(first.prefix.units.length)
    expect(second.output.slice(0, k).map(unitKey)).toEqual(first.output.slice(0, k).map(unitKey))
    expect(second.prefix.identical!.tokens).toBe(countOpenAI(second.output.slice(0, k), gpt4o) - REQUEST_OVERHEAD)
    expect(second.prefix.tokens + (countOpenAI(second.output.slice(second.prefix.units.length), gpt4o) - REQUEST_OVERHEAD) + REQUEST_OVERHEAD).toBe(second.tokenCount)
  })

  it('Anthropic: the system prompt is one unit; breakpoints are not content, so the moved boundary still matches', async () => {
    const first = await run(build(turn(2), { tokenizer: gpt4o, now: NOW, config, renderer: anthropicRenderer() }))
    const second = await run(build(turn(3), { tokenizer: gpt4o, now: NOW, config, renderer: anthropicRenderer(), previous: first }))
    const k = second.prefix.identical!.units
    expect(k).toBe(first.prefix.units.length)
    const messages = second.output.messages.slice(0, k - 1)
    expect(second.prefix.identical!.tokens).toBe(countAnthropic({ system: second.output.system!, messages }, gpt4o) - REQUEST_OVERHEAD)
    // the first request marked its last stable block; the second marks a later one
    expect(JSON.stringify(first.output.messages.at(-2))).toContain('cache_control')
    expect(JSON.stringify(second.output.messages.slice(0, k - 1).at(-1))).not.toContain('cache_control')
  })

  it('equal prefixes hash equal; a changed older turn changes the hash and ends the identical run there', async () => {
    const a = await run(build(turn(3), { tokenizer: gpt4o, now: NOW, config, structurer: stable() }))
    const b = await run(build({ ...turn(3), query: 'Something else entirely?', packets: [] }, { tokenizer: gpt4o, now: NOW, config, structurer: stable() }))
    expect(b.prefix.hash).toBe(a.prefix.hash)
    const edited = conversation(3).map((m, i) => (i === 4 ? message('user', 'An edited question?') : m))
    const c = await run(build({ ...turn(3), history: edited }, { tokenizer: gpt4o, now: NOW, config, structurer: stable(), previous: a }))
    expect(c.prefix.hash).not.toBe(a.prefix.hash)
    expect(c.output.slice(0, c.prefix.identical!.chars)).not.toContain('edited')
    expect(c.prefix.identical!.units).toBeLessThan(a.prefix.units.length)
  })

  it('a fingerprint kept as JSON works as well as the result; another format shares nothing', async () => {
    const first = await run(build(turn(2), { tokenizer: gpt4o, now: NOW, config, structurer: stable() }))
    const kept = JSON.parse(JSON.stringify({ format: first.prefix.format, units: first.prefix.units }))
    const second: BuildResult = await run(build(turn(3), { tokenizer: gpt4o, now: NOW, config, structurer: stable(), previous: kept }))
    expect(second.prefix.identical!.units).toBe(first.prefix.units.length)
    const other = await run(build(turn(3), { tokenizer: gpt4o, now: NOW, config, renderer: openaiRenderer(), previous: first }))
    expect(other.prefix.identical).toEqual({ units: 0, tokens: 0 })
  })

  it('a malformed previous build is an error naming where in it', async () => {
    const e = left(await build(turn(1), { tokenizer: gpt4o, now: NOW, config, previous: { format: 'text', units: ['a', 7] } as never })())
    expect(e.message).toMatch(/previous\.units\[1\]: must be a string/)
    const f = left(await build(turn(1), { tokenizer: gpt4o, now: NOW, config, previous: { prefix: null } as never })())
    expect(f.message).toMatch(/previous\.prefix: must be/)
  })
})
