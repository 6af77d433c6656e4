/**
 * Which histories a rebuild takes as they are (`src/rebuild/plain.ts`): plain turns, the same
 * turns as the memo's, and why not otherwise. Each reason is what a cold build falls back with
 * (`stats.rebuild.fallback`), so a wrong answer here is a wrong result or a needless cold build.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { build, type BuildResult, type Request } from '../../src/index.js'
import { changedTurn, isPlainTurn, notAppended, notPlain, sameTurn } from '../../src/rebuild/plain.js'
import { estimateTokenizer } from '../../src/tokenize/tokenizer.js'
import { gpt4o, MINUTE, NOW } from '../helpers.js'

const history = Array.from({ length: 12 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `turn ${i}: the compile script was renamed`, timestamp: NOW - (12 - i) * MINUTE }))
const request: Request = { query: 'Why?', history: [{ role: 'system', content: 'You are terse.' }, ...history] }

const memoOf = async (): Promise<NonNullable<BuildResult['rebuild']>> => {
  const r = await build(request, { tokenizer: gpt4o, now: NOW, config: { maxTokens: 500 }, rebuildable: true })()
  if (E.isLeft(r) || r.right.rebuild === undefined) throw new Error('no memo')
  return r.right.rebuild
}

describe('isPlainTurn and sameTurn', () => {
  it('takes { role, content: string } with a timestamp or name, and nothing with parts or a bad field', () => {
    expect(isPlainTurn({ role: 'user', content: 'hi' })).toBe(true)
    expect(isPlainTurn({ role: 'user', content: 'hi', timestamp: NOW, name: 'ann' })).toBe(true)
    expect(isPlainTurn({ role: 'user', content: [{ _tag: 'Text', text: 'hi' }] })).toBe(false)
    expect(isPlainTurn({ role: 'user', content: 'hi', parts: [] })).toBe(false)
    expect(isPlainTurn({ role: 'bot', content: 'hi' })).toBe(false)
    expect(isPlainTurn({ role: 'user', content: 'hi', timestamp: 'yesterday' })).toBe(false)
    expect(isPlainTurn(null)).toBe(false)
  })

  it('is the same turn when the object is, or its plain fields are', () => {
    const t = { role: 'user', content: 'hi', timestamp: NOW }
    expect(sameTurn(t, t)).toBe(true)
    expect(sameTurn(t, { ...t })).toBe(true)
    expect(sameTurn(t, { ...t, content: 'hi!' })).toBe(false)
    expect(sameTurn(t, { role: 'user', content: 'hi' })).toBe(false)
    // a field a plain turn does not have is never the same, even when equal
    const odd = { ...t, meta: 1 }
    expect(sameTurn(odd, { ...odd })).toBe(false)
  })
})

describe('changedTurn', () => {
  it('finds the first turn of h[from, to) that is not turns[at, …), or -1', () => {
    const turns = history.map((t) => ({ ...t }))
    expect(changedTurn(history, 0, history.length, turns, 0)).toBe(-1)
    expect(changedTurn(history, 3, 8, turns, 3)).toBe(-1)
    const edited = [...history.slice(0, 5), { ...history[5]!, content: 'edited' }, ...history.slice(6)]
    expect(changedTurn(edited, 0, edited.length, turns, 0)).toBe(5)
    expect(changedTurn(edited, 6, edited.length, turns, 6)).toBe(-1)
    // compared at an offset: the memo keeps the leading turns, then the read ones
    expect(changedTurn(history, 4, 8, turns.slice(4), 0)).toBe(-1)
    expect(changedTurn(history, 4, 8, turns.slice(3), 0)).toBe(4)
  })
})

describe('notPlain', () => {
  it('says why turns are not plain: another shape, or a text longer than the per-item cap', () => {
    expect(notPlain(history, 0, undefined, gpt4o)).toBeUndefined()
    expect(notPlain([...history, { role: 'user', content: [{ _tag: 'Text', text: 'hi' }] }], 0, undefined, gpt4o)).toBe('the history holds turns other than { role, content: string }')
    // a turn past `from` only
    expect(notPlain([{ role: 'tool', content: 1 }, ...history], 1, undefined, gpt4o)).toBeUndefined()
    const long = { role: 'user', content: 'the compile script was renamed again '.repeat(40) }
    expect(notPlain([...history, long], 0, 106, gpt4o)).toBe('a turn is longer than the per-item cap')
    expect(notPlain([...history, long], 0, 1000, gpt4o)).toBeUndefined()
    expect(notPlain([...history, long], 0, undefined, gpt4o)).toBeUndefined()
  })

  it('asks the shape of a history with fields beyond the plain ones', () => {
    // OpenAI's tool-call fields are an SDK's mark
    const sdk = [...history, { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }]
    expect(notPlain(sdk, 0, undefined, gpt4o)).not.toBeUndefined()
  })
})

describe('notAppended', () => {
  it('takes the memo’s history with plain turns appended, and says why not otherwise', async () => {
    const memo = await memoOf()
    const turns = request.history as ReadonlyArray<{ readonly role: string; readonly content: string }>
    const more = { role: 'user', content: 'And now?', timestamp: NOW }
    expect(notAppended(memo, [...turns, more], gpt4o)).toBeUndefined()
    expect(notAppended(memo, turns, gpt4o)).toBeUndefined()
    expect(notAppended(memo, turns.slice(0, -1), gpt4o)).toBe('the history is shorter than before')
    // the last turn, which the build read, edited
    const edited = [...turns.slice(0, -1), { ...turns[turns.length - 1]!, content: 'edited' }]
    expect(notAppended(memo, [...edited, more], gpt4o)).toBe(`history[${turns.length - 1}] changed`)
    // the leading system turn edited
    expect(notAppended(memo, [{ role: 'system', content: 'You are verbose.' }, ...turns.slice(1), more], gpt4o)).toBe('history[0] changed')
    expect(notAppended(memo, [...turns, { role: 'user', content: [{ _tag: 'Text', text: 'hi' }] }], gpt4o)).toBe('the history holds turns other than { role, content: string }')
    // counts under an encoding that does not add up at word ends
    expect(notAppended(memo, [...turns, more], estimateTokenizer())).toBe('counts under estimate do not add up at word ends')
  })

  it('checks the new turns against the memo’s cap', async () => {
    const memo = await memoOf()
    const turns = request.history as ReadonlyArray<unknown>
    const long = { role: 'user', content: 'the compile script was renamed again '.repeat(40) }
    expect(memo.cap).toBe(106)
    expect(notAppended(memo, [...turns, long], gpt4o)).toBe('a turn is longer than the per-item cap')
    expect(notAppended({ ...memo, cap: undefined }, [...turns, long], gpt4o)).toBeUndefined()
  })
})
