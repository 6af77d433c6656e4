import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import { describe, expect, it } from 'vitest'
import { truncate } from '../src/compress/truncate.js'
import { gatherer } from '../src/gather/gatherer.js'
import { additional, instructions, task } from '../src/gather/builtins.js'
import type { SimpleMessage } from '../src/phase.js'
import { build, compress, gather, select, structure } from '../src/pipeline.js'
import { defaultSelector } from '../src/select/selector.js'
import { sectioned } from '../src/structure/sectioned.js'
import { right as unwrap } from './helpers.js'
import { template } from '../src/structure/template.js'
import { gpt4o, MINUTE, NOW, run } from './helpers.js'

const history: SimpleMessage[] = Array.from({ length: 40 }, (_, i) => ({
  role: i % 2 ? 'assistant' : 'user',
  content: `Turn ${i}: we looked at the build script and the compile step once more, without luck.`,
  timestamp: NOW - (40 - i) * MINUTE,
}))

describe('build', () => {
  it('builds within the budget and reports the exact count of the output', async () => {
    const r = await run(
      build(
        {
          query: 'Why does the build fail?',
          instructions: 'You are a build assistant.',
          history,
          packets: [
            { id: 'why', type: 'evidence', content: 'The build fails because package.json has no compile script.', source: 'ci-log' },
            { id: 'off', type: 'evidence', content: 'Lunch is at noon.', source: 'calendar' },
          ],
        },
        { tokenizer: gpt4o, now: NOW, config: { maxTokens: 500, maxHistoryMessages: 40 } },
      ),
    )
    expect(r.tokenCount).toBe(gpt4o.count(r.output))
    expect(r.tokenCount).toBeLessThanOrEqual(r.budget.available)
    expect(r.budget).toEqual({ maxTokens: 500, reserved: 75, available: 425, used: r.tokenCount })
    expect(r.tokenCountExact).toBe(true)
    expect(r.included.slice(0, 3)).toEqual(['instructions', 'task', 'why'])
    expect(r.excluded).toContainEqual({ id: 'off', reason: 'below_min_relevance', detail: 'relevance 0 < 0.3' })
    expect(r.output).toContain('[Source: ci-log] The build fails')
    // the newest turns are kept, contiguous
    const kept = r.included.filter((id) => id.startsWith('history:')).map((id) => Number(id.split(':')[1]))
    expect(kept.length).toBeGreaterThan(3)
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 40 - kept.length + i))
    expect(r.sections.map((s) => s.name)).toEqual(['instructions', 'task', 'evidence', 'context', 'output'])
    // turns that cannot fit are never made packets; they are reported as one range
    expect(r.excluded.find((e) => e.id.startsWith('history:0'))).toMatchObject({ reason: 'over_budget' })
  })

  it('leaves room for the layout, so the compressor does not drop what was selected', async () => {
    const packets = Array.from({ length: 30 }, (_, i) => ({ id: `e${i}`, type: 'evidence' as const, content: `Build fact ${i}: the compile step needs script ${i}.`, source: `doc-${i}` }))
    for (const maxTokens of [150, 260, 400, 700]) {
      const r = await run(build({ query: 'build compile script', instructions: 'Be precise.', history, packets }, { tokenizer: gpt4o, now: NOW, config: { maxTokens, maxHistoryMessages: 40 } }))
      expect(r.excluded.filter((e) => e.reason === 'truncated')).toEqual([])
      expect(r.tokenCount).toBeGreaterThan(r.budget.available * 0.85)
    }
  })

  it('composes as pipe(gather, select, structure, compress) with any stage swapped', async () => {
    const shout = gatherer('shout', () => [{ id: 'x', type: 'custom', content: 'BUILD NOTES' }])
    const onlyTask = (s: ReturnType<ReturnType<typeof defaultSelector>>) => ({ ...s, selected: s.selected.filter((x) => x.packet.type === 'task') })
    const r = await pipe(
      { query: 'build' },
      gather([task(), shout], { tokenizer: gpt4o, now: NOW }),
      select((g) => onlyTask(defaultSelector()(g))),
      structure(sectioned({ output: false })),
      compress(truncate()),
    )()
    expect(unwrap(r).output).toBe('[Task]\nUser question: build')
  })

  it('says so when even the instructions cannot fit, and still fits', async () => {
    const r = await run(
      build({ query: 'q', instructions: 'Always follow the policy. '.repeat(300) }, { tokenizer: gpt4o, now: NOW, config: { maxTokens: 200 } }),
    )
    expect(r.tokenCount).toBeLessThanOrEqual(170)
    expect(r.warnings.map((w) => w._tag)).toContain('InstructionsTruncated')
    expect(r.truncated[0]).toMatchObject({ id: 'instructions' })
    expect(r.output).toContain('... (content truncated)')
    expect(r.output.startsWith('[Role & Policies]\nAlways follow the policy.')).toBe(true)
  })

  it('keeps P0 that fits only because its heading and text merge into fewer tokens (found by a property test)', async () => {
    // "[Role & Policies]\n" and "\n 构建" count 5 + 4 = 9 tokens apart but 8 together
    const r = await run(build({ query: '', instructions: '\n 构建' }, { tokenizer: gpt4o, now: NOW, config: { maxTokens: 8, reserveRatio: 0 } }))
    expect(r.output).toBe('[Role & Policies]\n\n 构建')
    expect(r.tokenCount).toBe(8)
  })

  it('with compression off, never cuts text and still never exceeds the budget', async () => {
    const r = await run(
      build(
        { query: 'data', instructions: 'Be brief.', packets: [{ id: 'big', type: 'custom', content: 'data '.repeat(500), priority: 1 }] },
        { tokenizer: gpt4o, now: NOW, config: { maxTokens: 100, enableCompression: false } },
      ),
    )
    expect(r.truncated).toEqual([])
    expect(r.tokenCount).toBeLessThanOrEqual(85)
    expect(r.excluded.find((e) => e.id === 'big')?.reason).toBe('over_budget')
  })

  it('reports a failed gatherer as a failure and an exclusion, and fails the build in fail mode', async () => {
    const down = gatherer('vector-db', async () => {
      throw new Error('connection refused')
    })
    const r = await run(build({ query: 'q' }, { tokenizer: gpt4o, now: NOW, gatherers: [down] }))
    expect(r.failures).toEqual([{ gatherer: 'vector-db', reason: 'error', message: 'connection refused' }])
    expect(r.excluded).toContainEqual({ id: 'gatherer:vector-db', reason: 'gatherer_failure', detail: 'error: connection refused' })
    const failed = await build({ query: 'q' }, { tokenizer: gpt4o, now: NOW, gatherers: [down], onError: 'fail' })()
    expect(E.isLeft(failed) && failed.left).toMatchObject({ _tag: 'GatherError', gatherer: 'vector-db' })
  })

  it('reports packets a template has no place for', async () => {
    const r = await run(
      pipe(
        { query: 'build', packets: [{ id: 'e', type: 'evidence' as const, content: 'build log', relevance: 1 }] },
        gather([task(), gatherer('p', ({ request }) => request.packets ?? [])], { tokenizer: gpt4o, now: NOW }),
        select(),
        structure(unwrap(template('Q: {{task}}'))),
        compress(),
      ),
    )
    expect(r.output).toBe('Q: build')
    expect(r.excluded).toContainEqual({ id: 'e', reason: 'not_in_layout', detail: 'the layout has no place for this packet' })
  })

  it('rejects bad input with an error naming the field', async () => {
    const bad = await build({ query: 'q', history: [{ role: 'bot', content: 'x' }] } as never, { tokenizer: gpt4o })()
    expect(E.isLeft(bad) && bad.left.message).toBe('history[0].role: must be one of system, user, assistant, tool (got "bot")')
    const cfg = await build({ query: 'q' }, { tokenizer: gpt4o, config: { reserveRatio: 1 } })()
    expect(E.isLeft(cfg) && cfg.left.message).toBe('config.reserveRatio: must be in [0, 1) (got 1)')
  })

  it('drops a duplicate id and says which', async () => {
    const r = await run(
      build({ query: 'q', packets: [{ id: 'task', type: 'custom', content: 'sneaky' }] }, { tokenizer: gpt4o, now: NOW, gatherers: [instructions()] }),
    )
    expect(r.excluded).toContainEqual({ id: 'task', reason: 'duplicate_id', detail: 'another packet (from custom) already has this id' })
    expect(r.output).toContain('User question: q')
  })

  it('keeps every packet after a duplicate, in order, and reports each duplicate', async () => {
    const packets = ['a', 'task', 'b', 'a', 'c'].map((id) => ({ id, type: 'custom' as const, content: id }))
    const g = await run(gather([task(), additional()], { tokenizer: gpt4o, now: NOW })({ query: 'q', packets }))
    expect(g.packets.map((p) => [p.id, p.content])).toEqual([
      ['task', 'q'],
      ['a', 'a'],
      ['b', 'b'],
      ['c', 'c'],
    ])
    expect(g.excluded.map((x) => [x.id, x.reason])).toEqual([
      ['task', 'duplicate_id'],
      ['a', 'duplicate_id'],
    ])
    expect(g.warnings.map((w) => w._tag)).toEqual(['DuplicateId', 'DuplicateId'])
  })
})
