import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { makeConfig } from '../../src/config.js'
import { additional, history, instructions, task } from '../../src/gather/builtins.js'
import { gatherer, type GatherInput } from '../../src/gather/gatherer.js'
import { answerOf, settleAll } from '../../src/gather/own.js'
import type { Request } from '../../src/phase.js'
import type { Tokenizer } from '../../src/tokenize/tokenizer.js'
import { gpt4o, left, NOW, right } from '../helpers.js'

const request: Request = {
  query: 'Why does the build fail?',
  instructions: ['Be brief.', 'Cite sources.'],
  history: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'hi', timestamp: '2025-12-31T10:00:00Z' },
    { role: 'assistant', content: 'hello' },
  ],
  packets: [
    { type: 'evidence', content: 'Node 20 is needed.', source: 'ci.md', timestamp: '2025-12-31T11:00:00Z' },
    { id: 'e2', type: 'custom', content: 'a note', metadata: { path: 'a.md' }, tokens: 3 },
  ],
}
const input = (tokenizer: Tokenizer = gpt4o): GatherInput => ({ request, config: right(makeConfig({ maxHistoryMessages: 2 })), now: NOW, tokenizer, signal: new AbortController().signal })
const own = () => [instructions(), task(), history(), additional()]
const throwing: Tokenizer = { ...gpt4o, lowerBound: () => { throw new Error('no bounds today') } }

describe('settleAll', () => {
  it("answers for gssc's own gatherers what they answer as tasks, in their order", async () => {
    const tasks = await Promise.all(own().map(async (g) => right(await g(input())())))
    const settled = right(settleAll(own(), input())!)
    expect(settled.packets).toEqual(tasks.flatMap((t) => t.packets))
    expect(settled.excluded).toEqual(tasks.flatMap((t) => t.excluded ?? []))
    expect(settled.failures).toEqual([])
    expect(settled.packets.map((p) => p.id)).toEqual(['instructions:0', 'instructions:1', 'task', 'history:0', 'history:1', 'history:2', expect.stringMatching(/^evidence:/), 'e2'])
    // the request's packets completed: an ISO timestamp read, defaults filled, the given count kept
    expect(settled.packets.at(-2)).toMatchObject({ priority: 2, timestamp: Date.parse('2025-12-31T11:00:00Z'), source: 'ci.md', metadata: {} })
    expect(settled.packets.at(-1)).toMatchObject({ priority: 4, source: 'custom', metadata: { path: 'a.md' }, tokens: 3 })
  })

  it("leaves gatherers that are not all gssc's own to run as tasks", () => {
    expect(settleAll([...own(), gatherer('mine', () => [])], input())).toBeUndefined()
    expect(settleAll([task(), 'not a gatherer' as never], input())).toBeUndefined()
    expect(answerOf(gatherer('mine', () => []))).toBeUndefined()
  })

  it('reports a throw as a failure naming the gatherer, as its task does; with onError fail it is the answer', async () => {
    const failure = { gatherer: 'history', reason: 'error', message: 'no bounds today' }
    expect(left(await history()(input(throwing))())).toEqual(failure)
    const kept = right(settleAll(own(), input(throwing))!)
    expect(kept.failures).toEqual([failure])
    expect(kept.packets.map((p) => p.id)).toEqual(['instructions:0', 'instructions:1', 'task', expect.stringMatching(/^evidence:/), 'e2'])
    const failed = settleAll(own(), input(throwing), { onError: 'fail' })!
    expect(E.isLeft(failed) && failed.left).toEqual(failure)
  })
})
