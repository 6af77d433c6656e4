import { describe, expect, it } from 'vitest'
import { build } from '../src/pipeline.js'
import { validateRequest } from '../src/request.js'
import { gpt4o, left, NOW } from './helpers.js'

const message = (request: unknown): string => left(validateRequest(request)).message

describe('validateRequest', () => {
  it('names the part of a history turn at fault, however deep', () => {
    const history = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: [42, { type: 'hologram' }] },
    ]
    expect(message({ query: 'q', history })).toBe(
      "history[2].content[0]: must be a part: { _tag: 'Text', text } or an Image, Document, Thinking, ToolCall or ToolResult part (got 42)",
    )
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [{ role: 'user', content: [{ _tag: 'Text', text: 'a' }, { type: 'hologram' }] }, 'history[0].content[1]: must be a part'],
      [{ role: 'user', content: [{ _tag: 'Image', source: { _tag: 'Base64', data: 'x' } }] }, 'history[0].content[0].source.mimeType: must be a string (got undefined)'],
      [{ role: 'user', content: [{ _tag: 'Image', source: { _tag: 'File' } }] }, 'history[0].content[0].source._tag: must be "Base64" or "Url" (got "File")'],
      [{ role: 'assistant', content: [{ _tag: 'ToolCall', id: 'c', name: 'ls', args: '{}' }] }, 'history[0].content[0].args: must be an object (got "{}")'],
      [{ role: 'tool', content: [{ _tag: 'ToolResult', callId: 'c', name: 'ls', isError: false, content: [{ _tag: 'ToolCall' }] }] }, 'history[0].content[0].content[0]: must be a Text or Image part'],
      [{ role: 'user', parts: [{ _tag: 'Thinking', text: 1 }] }, 'history[0].parts[0].text: must be a string (got 1)'],
      [{ role: 'user', parts: 'hi' }, 'history[0].parts: must be an array of parts (got "hi")'],
      [{ role: 'user', content: 'x', timestamp: 'yesterday' }, 'history[0].timestamp: must be epoch milliseconds'],
      [{ role: 'user', content: 'x', timestamp: '2026-02-30' }, 'history[0].timestamp: must be epoch milliseconds'],
      [{ role: 'user', content: 'x', name: 7 }, 'history[0].name: must be a string (got 7)'],
      [{ role: 'assistant', content: 'x', name: 'bot', stopReason: 1 }, 'history[0].stopReason: must be a string (got 1)'],
      [{ role: 'assistant', parts: [], origin: 'openai' }, 'history[0].origin: must be an object (got "openai")'],
    ]
    for (const [turn, expected] of cases) expect(message({ query: 'q', history: [turn] })).toContain(expected)
  })

  it('names the packet field, the instruction and the image at fault', () => {
    expect(message({ query: 'q', instructions: ['a', 3] })).toBe('instructions[1]: must be a string (got 3)')
    expect(message({ query: 'q', packets: [{ type: 'evidence', content: 'x', message: { role: 'bot', parts: [] } }] })).toBe(
      'packets[0].message.role: must be one of system, user, assistant, tool (got "bot")',
    )
    expect(message({ query: 'q', packets: [{ type: 'evidence', content: 'x', tokens: -1 }] })).toBe('packets[0].tokens: must be a non-negative integer (got -1)')
    expect(message({ query: 'q', media: [{ _tag: 'Image', source: { _tag: 'Url' } }] })).toBe('media[0].source.url: must be a string (got undefined)')
  })

  it('accepts timestamps as people write them: epoch milliseconds and ISO 8601', () => {
    for (const timestamp of [NOW, '2026-11-22T06:00:00Z', '2026-11-22T06:00:00.123+08:00', '2026-11-22 06:00', '2026-11-22'])
      expect(validateRequest({ query: 'q', history: [{ role: 'user', content: 'x', timestamp }], packets: [{ type: 'custom', content: 'x', timestamp }] })._tag).toBe('Right')
  })
})

describe('a bad history turn through build', () => {
  it('is an error naming history[2].content[0], not a history that silently vanishes', async () => {
    const history = [
      { role: 'user' as const, content: 'hi' },
      { role: 'assistant' as const, content: 'hello' },
      { role: 'user' as const, content: [42, { type: 'hologram' }] as never },
    ]
    const r = await build({ query: 'q', history }, { tokenizer: gpt4o, now: NOW })()
    expect(left(r)).toMatchObject({ _tag: 'InputError', input: 'history[2].content[0]' })
  })
})

describe('a long history: only the turns a build can read are checked', () => {
  const ok = (i: number) => ({ role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant', content: `turn ${i}: the build still fails after the rename` })
  const bad = { role: 'user', content: [42] } as never
  const reach = { budget: 100, lowerBound: (t: string) => t.length }

  it('validateRequest with a reach skips turns older than it, and names one inside it', () => {
    const history = [ok(0), bad, ...Array.from({ length: 50 }, (_, i) => ok(i + 2))]
    expect(validateRequest({ query: 'q', history }, reach)._tag).toBe('Right')
    expect(message({ query: 'q', history })).toMatch(/^history\[1\]\.content\[0\]/)
    const recent = [...history.slice(0, 50), bad, ok(51)]
    expect(left(validateRequest({ query: 'q', history: recent }, reach)).message).toMatch(/^history\[50\]\.content\[0\]/)
    // the conversation's own system prompt is always read, so always checked
    expect(left(validateRequest({ query: 'q', history: [{ role: 'system', content: 1 }, ...history.slice(2)] }, reach)).message).toMatch(/^history\[0\]\.content/)
  })

  it('build never reads a bad turn far behind the window, and reports it in a range', async () => {
    const history = [ok(0), bad, ...Array.from({ length: 20_000 }, (_, i) => ok(i + 2))]
    const r = await build({ query: 'q', history }, { tokenizer: gpt4o, now: NOW, config: { maxHistoryMessages: Number.POSITIVE_INFINITY } })()
    expect(r._tag).toBe('Right')
    if (r._tag === 'Right') expect(r.right.excluded.find((e) => e.id.startsWith('history:0..'))?.reason).toBe('over_budget')
    // the same turn inside the window is an error naming it
    const near = [...history.slice(0, 20_000), bad, ok(3)]
    expect(left(await build({ query: 'q', history: near }, { tokenizer: gpt4o, now: NOW })()).message).toMatch(/^history\[20000\]\.content\[0\]/)
  })

  it('a turn the per-item cap cuts does not end the check: the gatherer bounds what the cut leaves, and reads on', async () => {
    const huge = { role: 'assistant' as const, content: 'the tool printed this line again '.repeat(3000) }
    const history = [ok(0), bad, ok(2), ok(3), huge, ok(5)]
    // without the cap the huge turn's bound passes the budget at once, and the check stops there
    const wide = { ...reach, budget: 1000 }
    expect(validateRequest({ query: 'q', history }, wide)._tag).toBe('Right')
    expect(left(validateRequest({ query: 'q', history }, { ...wide, cut: (t: string) => t.length > 600 })).message).toMatch(/^history\[1\]\.content\[0\]/)
    // a text within the cap keeps its bound: the check still stops at the budget
    expect(validateRequest({ query: 'q', history: [ok(0), bad, ...Array.from({ length: 40 }, (_, i) => ok(i + 2))] }, { ...wide, cut: (t: string) => t.length > 600 })._tag).toBe('Right')
    // through build (default cap: a quarter of the budget), the walk reads history[1]: an error naming it, not a
    // gatherer that fails on it and a history that silently vanishes
    const r = await build({ query: 'q', history }, { tokenizer: gpt4o, now: NOW })()
    expect(left(r)).toMatchObject({ _tag: 'InputError', input: 'history[1].content[0]' })
    // with the bad turn gone, every turn the walk reads is kept, the huge one cut to the cap
    const fine = await build({ query: 'q', history: [ok(0), ok(1), ok(2), ok(3), huge, ok(5)] }, { tokenizer: gpt4o, now: NOW })()
    expect(fine._tag).toBe('Right')
    if (fine._tag === 'Right') {
      expect(fine.right.failures).toEqual([])
      expect(fine.right.included).toEqual(expect.arrayContaining(['history:0', 'history:1', 'history:4', 'history:5']))
      expect(fine.right.truncated.map((t) => t.id)).toContain('history:4')
    }
  })

  it('with the message limit, only the turns it lets in are checked and counted, when the history has the budget to itself', async () => {
    const history = Array.from({ length: 10_000 }, (_, i) => ok(i))
    // 50 turns back: within what the budget could hold, before the default limit's 10 turns
    history[9950] = bad
    const r = await build({ query: 'q', history }, { tokenizer: gpt4o, now: NOW })()
    expect(r._tag).toBe('Right')
    if (r._tag === 'Right') {
      expect(r.right.included.filter((id) => id.startsWith('history:'))).toHaveLength(10)
      expect(r.right.excluded.find((x) => x.id === 'history:0..9989')?.reason).toBe('history_limit')
      // the query, the ten turns (47 characters each), their ends and joins, the layout's text: no turn before the limit
      expect(r.right.stats.charsTokenized).toBeLessThan(2000)
    }
    // inside the limit it is an error naming it
    expect(left(await build({ query: 'q', history }, { tokenizer: gpt4o, now: NOW, config: { maxHistoryMessages: 100 } })()).message).toMatch(/^history\[9950\]/)
  })

  it('a text the cap looks at is tokenized once: the gatherer finds the window the check tokenized', async () => {
    const windows: number[] = []
    const tokenizer = { ...gpt4o, prefixEnd: (t: string, max: number) => (windows.push(t.length), gpt4o.prefixEnd(t, max)) }
    // 2,000 characters, within the cap of a 2,000-token build (425 tokens) once counted
    const long = { role: 'user' as const, content: 'word '.repeat(400) }
    const r = await build({ query: 'q', history: [ok(0), long, ok(2)] }, { tokenizer, now: NOW, config: { maxTokens: 2000 } })()
    expect(r._tag === 'Right' && r.right.included).toEqual(['task', 'history:0', 'history:1', 'history:2'])
    expect(windows).toEqual([2000])
  })

  it('an SDK-shaped history is read whole by its adapter once the turns a build reads show its shape, and its errors are named in the whole history', () => {
    const call = (i: number) => [
      { role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'read', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: `c${i}`, content: `result ${i}` },
    ]
    const history = [...Array.from({ length: 40 }, (_, i) => ok(i)), ...call(1)]
    const r = validateRequest({ query: 'q', history }, reach)
    expect(r._tag).toBe('Right')
    // every turn read into gssc messages, the old plain ones too (the reach alone would read a few)
    if (r._tag === 'Right') expect(r.right.history?.length).toBe(history.length)
    // a result whose call lies before the reach still finds it: the adapter reads the whole list
    const far = [...call(2).slice(0, 1), ...Array.from({ length: 40 }, (_, i) => ok(i)), call(2)[1]!]
    expect(validateRequest({ query: 'q', history: far }, reach)._tag).toBe('Right')
    // a turn in another shape is an error naming its index in the whole history, not in the turns read
    const mixed = [...Array.from({ length: 40 }, (_, i) => ok(i)), ...call(3), { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'x', toolName: 'read', input: {} }] }]
    expect(left(validateRequest({ query: 'q', history: mixed }, reach)).message).toMatch(/^history\[42\]/)
  })
})
