/**
 * The in-memory rebuild gives what a cold build of the same request gives: output, count and
 * report (everything but `stats` and the rebuild data), over random histories, appends and
 * budgets, and falls back to a cold build when the previous result cannot be appended to.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { build, type BuildResult, type ChatMessage, type Request, type SimpleMessage } from '../../src/index.js'
import { gpt4o, NOW, MINUTE } from '../helpers.js'
import { joinStress, seeded } from '../prop.js'

type Turn = SimpleMessage | ChatMessage

const WORDS = ['the', 'build', 'fails', 'because', 'rename', 'node', '构建', '失败', '。', '，', 'const x = 1;', '{"ok":true}', 'Why?', "it's", '\n', '  ', '-', '42']
const sentence = fc.array(fc.constantFrom(...WORDS), { maxLength: 60 }).map((ws) => ws.join(' '))
const text = fc.oneof({ weight: 3, arbitrary: sentence }, { weight: 1, arbitrary: joinStress(40) })
const plain = (role: 'user' | 'assistant', content: string, t: number): SimpleMessage => ({ role, content, timestamp: NOW - t * MINUTE })
const turns = (n: number, offset = 0) => fc.array(text, { minLength: n, maxLength: n }).map((cs) => cs.map((c, i) => plain((i + offset) % 2 === 0 ? 'user' : 'assistant', c, 1000 - i - offset)))

/** A tool round in gssc's own messages: a call and its result. */
const toolRound = (i: number): ReadonlyArray<ChatMessage> => [
  { role: 'assistant', parts: [{ _tag: 'ToolCall', id: `call_${i}`, name: 'read', args: { path: `src/${i}.ts` } }] },
  { role: 'tool', parts: [{ _tag: 'ToolResult', callId: `call_${i}`, name: 'read', content: [{ _tag: 'Text', text: `export const x${i} = ${i}` }], isError: false }] },
]

/** The layout's settings: its labels' language, and how many turns the window may hold. */
interface Layout {
  readonly locale: 'en' | 'zh'
  readonly maxHistoryMessages: number
}
const EN: Layout = { locale: 'en', maxHistoryMessages: Number.POSITIVE_INFINITY }

const options = (maxTokens: number, layout: Layout = EN) => ({ tokenizer: gpt4o, now: NOW, rebuildable: true, config: { maxTokens, ...layout } })

const built = async (request: Request, maxTokens: number, previous?: BuildResult | BuildResult['prefix'], layout: Layout = EN): Promise<BuildResult> => {
  const r = await build(request, { ...options(maxTokens, layout), ...(previous === undefined ? {} : { previous }) })()
  if (E.isLeft(r)) throw new Error(r.left.message)
  return r.right
}

/** A result without what differs between a rebuild and a cold build by design: how it was made. */
const comparable = (r: BuildResult): object => {
  const { stats: _stats, rebuild: _rebuild, ...rest } = r
  return rest
}

/**
 * Rebuilds `next` from `previous` and builds it cold (with the same `previous` prefix): both,
 * compared. The rebuild asked `rebuildable: false` too, which takes fewer numbers (it makes
 * no memo): the same result.
 */
const both = async (next: Request, maxTokens: number, previous: BuildResult, layout: Layout = EN) => {
  const rebuilt = await built(next, maxTokens, previous, layout)
  const cold = await built(next, maxTokens, previous.prefix, layout)
  expect(comparable(rebuilt)).toEqual(comparable(cold))
  expect(JSON.stringify(comparable(rebuilt))).toBe(JSON.stringify(comparable(cold)))
  expect(rebuilt.tokenCount).toBe(gpt4o.count(rebuilt.output))
  const once = await build(next, { ...options(maxTokens, layout), previous, rebuildable: false })()
  if (E.isLeft(once)) throw new Error(once.left.message)
  expect(once.right.stats.rebuild?.mode).toBe(rebuilt.stats.rebuild?.mode)
  expect(JSON.stringify(comparable(once.right))).toBe(JSON.stringify(comparable(cold)))
  return { rebuilt, cold }
}

describe('rebuild: appending to the previous result', () => {
  it('gives a cold build’s result over random histories, appends and budgets', async () => {
    let incremental = 0
    let budgetBound = 0
    let pushedOut = 0
    let cases = 0
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 40 }).chain((n) => fc.tuple(turns(n), fc.array(turns(1, n), { minLength: 1, maxLength: 3 }))),
        fc.integer({ min: 150, max: 2500 }),
        fc.boolean(),
        fc.option(fc.constantFrom('You are the build assistant.', '你是构建助手。'), { nil: undefined }),
        fc.record({ locale: fc.constantFrom('en' as const, 'zh' as const), maxHistoryMessages: fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 1, max: 45 })) }),
        async ([history, appends], maxTokens, system, instructions, layout) => {
          const lead: ReadonlyArray<Turn> = system ? [{ role: 'system', content: 'Answer briefly.' }] : []
          const request = (h: ReadonlyArray<Turn>): Request => ({ query: 'Why does the build fail?', ...(instructions === undefined ? {} : { instructions }), history: [...lead, ...h] })
          let previous = await built(request(history), maxTokens, undefined, layout)
          let grown: ReadonlyArray<Turn> = history
          for (const [k, more] of appends.entries()) {
            // each append is a new turn of the other speaker, so the conversation alternates
            grown = [...grown, ...more.map((t) => ({ ...t, role: (grown.length + k) % 2 === 0 ? ('user' as const) : ('assistant' as const) }))]
            const { rebuilt } = await both(request(grown), maxTokens, previous, layout)
            cases++
            if (rebuilt.stats.rebuild?.mode === 'incremental') incremental++
            // the budget ended the window (the fill left a turn out for want of room)
            if (rebuilt.stats.rebuild?.mode === 'incremental' && rebuilt.excluded.some((x) => x.reason === 'over_budget' && /^history:\d+$/.test(x.id))) budgetBound++
            if (previous.included.some((id) => id.startsWith('history:') && !rebuilt.included.includes(id))) pushedOut++
            previous = rebuilt
          }
        },
      ),
      seeded(60),
    )
    // the property is about the fast path: most cases must take it, some pushing older turns out
    expect(incremental).toBeGreaterThan(cases / 2)
    expect(budgetBound).toBeGreaterThan(cases / 10)
    expect(pushedOut).toBeGreaterThan(0)
  })

  it('appends to a 2,000-turn history, pushing the oldest turns out, chained', async () => {
    const history = Array.from({ length: 2000 }, (_, i) => plain(i % 2 === 0 ? 'user' : 'assistant', `turn ${i}: the build fails because the compile script is missing, rename it and rerun`, 2000 - i))
    let previous = await built({ query: 'What now?', history }, 2000)
    let grown: ReadonlyArray<SimpleMessage> = history
    for (let k = 0; k < 4; k++) {
      grown = [...grown, ...Array.from({ length: k + 1 }, (_, j) => plain(j % 2 === 0 ? 'user' : 'assistant', `one more (${k}.${j}): still failing after the rename`, 0))]
      const { rebuilt } = await both({ query: 'What now?', history: grown }, 2000, previous)
      // the budget ends the window: the rebuild charges each turn its join, and the newest the context's opening
      expect(rebuilt.stats.rebuild).toEqual({ mode: 'incremental', newTurns: k + 1 })
      expect(rebuilt.excluded.some((x) => x.reason === 'over_budget' && /^history:\d+$/.test(x.id))).toBe(true)
      expect(rebuilt.excluded[0]?.id).toMatch(/^history:0\.\.\d+$/)
      previous = rebuilt
    }
  })
})

describe('rebuild: the data for the next build', () => {
  it('is carried by a cold build asked to be rebuildable, and by a rebuild unless asked rebuildable: false', async () => {
    const history = Array.from({ length: 40 }, (_, i) => plain(i % 2 === 0 ? 'user' : 'assistant', `turn ${i}: the compile script was renamed`, 40 - i))
    const previous = await built({ query: 'Why?', history }, 300)
    const next: Request = { query: 'Why?', history: [...history, plain('user', 'And now?', 0)] }
    const { rebuildable: _, ...plainOptions } = options(300)
    const once = await build(next, { ...plainOptions, previous, rebuildable: false })()
    if (E.isLeft(once)) throw new Error(once.left.message)
    expect(once.right.stats.rebuild).toEqual({ mode: 'incremental', newTurns: 1 })
    expect(once.right.rebuild).toBeUndefined()
    // a chain without the flag: every link carries the data for the next and stays incremental
    let link: BuildResult = previous
    for (const k of [1, 2, 3]) {
      const grown: Request = { query: 'Why?', history: [...history, ...Array.from({ length: k }, (_, i) => plain('user', `And now ${i}?`, 0))] }
      const r = await build(grown, { ...plainOptions, previous: link })()
      if (E.isLeft(r)) throw new Error(r.left.message)
      expect(r.right.stats.rebuild).toEqual({ mode: 'incremental', newTurns: 1 })
      expect(r.right.rebuild?.length).toBe(40 + k)
      link = r.right
    }
    const { rebuilt } = await both(next, 300, previous)
    expect(rebuilt.rebuild?.length).toBe(41)
    // what the window count is made from: the output's window, split at its ends, and the text around it
    expect(rebuilt.rebuild?.output).toMatchObject({ to: 41, tokens: rebuilt.tokenCount })
    expect(rebuilt.rebuild?.frame?.opening).toBeGreaterThan(0)
  })
})

describe('rebuild: falling back to a cold build', () => {
  const history = Array.from({ length: 30 }, (_, i) => plain(i % 2 === 0 ? 'user' : 'assistant', `turn ${i}: the compile script was renamed`, 30 - i))
  const request: Request = { query: 'Why?', instructions: 'Be brief.', history }
  const next: Request = { ...request, history: [...history, plain('user', 'And now?', 0)] }

  it('when the query, the instructions, the config, the clock or an older turn changed', async () => {
    const previous = await built(request, 600)
    const cases: ReadonlyArray<readonly [Request, number, string]> = [
      [{ ...next, query: 'Why not?' }, 600, 'the query or instructions changed'],
      [{ ...next, instructions: 'Be thorough.' }, 600, 'the query or instructions changed'],
      [next, 700, 'the config changed'],
      [{ ...next, history: [...history.slice(0, 29), plain('assistant', 'edited', 1), plain('user', 'And now?', 0)] }, 600, 'history[29] changed'],
      [{ ...next, history: history.slice(0, 20) }, 600, 'the history is shorter than before'],
    ]
    for (const [req, maxTokens, why] of cases) {
      const { rebuilt } = await both(req, maxTokens, previous)
      expect(rebuilt.stats.rebuild).toEqual({ mode: 'cold', fallback: why })
    }
    const later = await build(next, { ...options(600), now: NOW + MINUTE, previous })()
    expect(E.isRight(later) && later.right.stats.rebuild).toEqual({ mode: 'cold', fallback: '`now` changed' })
  })

  it('when the history holds tool-call units, or the previous result is only a prefix', async () => {
    const tools: ReadonlyArray<Turn> = [...history.slice(0, 10), ...toolRound(1), ...history.slice(10)]
    const previous = await built({ ...request, history: tools }, 600)
    expect(previous.rebuild).toBeUndefined()
    const { rebuilt } = await both({ ...request, history: [...tools, ...toolRound(2)] }, 600, previous)
    expect(rebuilt.stats.rebuild).toEqual({ mode: 'cold', fallback: 'the previous result has no rebuild data' })
    // a plain history, then a tool round appended: the new turns are not plain
    const plainPrevious = await built(request, 600)
    const withTools = await both({ ...request, history: [...history, ...toolRound(3)] }, 600, plainPrevious)
    expect(withTools.rebuilt.stats.rebuild).toEqual({ mode: 'cold', fallback: 'the history holds turns other than { role, content: string }' })
  })

  it('when an appended turn of role and text carries an SDK’s field', async () => {
    const previous = await built(request, 600)
    const call = { role: 'assistant', content: 'Reading it.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{}' } }] }
    const result = { role: 'tool', content: 'export const x = 1', tool_call_id: 'call_1' }
    const { rebuilt } = await both({ ...request, history: [...history, call, result] } as unknown as Request, 600, previous)
    expect(rebuilt.stats.rebuild).toEqual({ mode: 'cold', fallback: "the history is in an SDK's shape" })
  })

  it('when the previous build was not asked to be rebuildable: it carries nothing for a rebuild', async () => {
    const { rebuildable: _, ...plainOptions } = options(600)
    const r = await build(request, plainOptions)()
    if (E.isLeft(r)) throw new Error(r.left.message)
    expect(r.right.rebuild).toBeUndefined()
    expect((await built(request, 600)).rebuild).toBeDefined()
    const { rebuilt } = await both(next, 600, r.right)
    expect(rebuilt.stats.rebuild).toEqual({ mode: 'cold', fallback: 'the previous result has no rebuild data' })
  })

  it('and gives an invalid appended turn the cold build’s error', async () => {
    const previous = await built(request, 600)
    const r = await build({ ...request, history: [...history, { role: 'bot', content: 'x' }] } as unknown as Request, { ...options(600), previous })()
    expect(E.isLeft(r) && r.left.message).toMatch(/^history\[30\]\.role/)
  })
})
