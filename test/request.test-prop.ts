import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { build } from '../src/pipeline.js'
import { gpt4o, NOW } from './helpers.js'
import { seeded } from './prop.js'

const WORDS = ['build', 'fails', 'the', 'rename', '构建', '失败', '{"ok":true}', 'x=1;', '\n', 'again']

/** A turn's text: short, or long enough for the per-item cap to cut it at small budgets. */
const text = fc.oneof(
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 30 }).map((ws) => ws.join(' ')),
  fc.tuple(fc.constantFrom(...WORDS), fc.integer({ min: 200, max: 4000 })).map(([w, n]) => `${w} `.repeat(n)),
)

const BAD = [
  { turn: { role: 'bot', content: 'not a role' }, input: 'role' },
  { turn: { role: 'user', content: 42 }, input: 'content' },
  { turn: { role: 'user', content: [42] }, input: 'content[0]' },
] as const

/** `history:a..b` covers turn `i` (both ends are in it). */
const inRange = (id: string, i: number): boolean => {
  const m = /^history:(\d+)\.\.(\d+)$/.exec(id)
  return m !== null && Number(m[1]) <= i && i <= Number(m[2])
}

describe('request check and history gatherer', () => {
  it('every turn a build reads has been checked: a bad turn is an error naming it, or it lies in a range never read', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.constantFrom(...BAD),
        fc.integer({ min: 300, max: 20_000 }),
        fc.constantFrom(0.05, 0.25, 1),
        fc.constantFrom(3, 10, Number.POSITIVE_INFINITY),
        async (texts, at, bad, maxTokens, maxItemShare, maxHistoryMessages) => {
          const turns: unknown[] = texts.map((content, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content }))
          const index = at % (turns.length + 1)
          turns.splice(index, 0, bad.turn)
          const r = await build({ query: 'what now?', history: turns } as never, {
            tokenizer: gpt4o,
            now: NOW,
            config: { maxTokens, maxItemShare, maxHistoryMessages },
          })()
          if (r._tag === 'Left') {
            expect(r.left).toMatchObject({ _tag: 'InputError', input: `history[${index}].${bad.input}` })
            return
          }
          // not read: no gatherer failed on it, no packet holds it, and a range says it was left out
          expect(r.right.failures).toEqual([])
          expect(r.right.packets.map((p) => p.id)).not.toContain(`history:${index}`)
          expect(r.right.excluded.some((x) => inRange(x.id, index))).toBe(true)
        },
      ),
      seeded(150, 2000),
    )
  })
})
