/**
 * The rebuilt report (`src/rebuild/report.ts`): a cold build's packets and exclusions, made
 * from the previous report, whose entries are kept (the same objects) where they say what
 * they said before, and made again where the turn's place changed.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { build, type BuildResult, type Request } from '../../src/index.js'
import { gpt4o, MINUTE, NOW } from '../helpers.js'

const WORDS = ['构建失败因为编译脚本缺少', '我们需要检查节点版本缓存', 'the build fails', '部署证书测试周一发布说明', 'const x = await build(config);']
const say = (i: number) => `turn ${i}: ${Array.from({ length: 1 + (i * 7) % 9 }, (_, k) => WORDS[(i + k) % WORDS.length]).join(', ')}`
const history = Array.from({ length: 300 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: say(i), timestamp: NOW - (300 - i) * MINUTE }))

const built = async (r: Request, previous?: BuildResult): Promise<BuildResult> => {
  const b = await build(r, { tokenizer: gpt4o, now: NOW, config: { maxTokens: 1200, maxHistoryMessages: Number.POSITIVE_INFINITY }, rebuildable: true, ...(previous === undefined ? {} : { previous }) })()
  if (E.isLeft(b)) throw new Error(b.left.message)
  return b.right
}

describe('rebuilt report', () => {
  it("is a cold build's, keeping the previous entries that say the same", async () => {
    let previous = await built({ query: 'Why?', history })
    let h = history
    for (const k of [0, 1, 2]) {
      h = [...h, { role: h.length % 2 === 0 ? 'user' : 'assistant', content: `one more (${k}): ${say(k + 3)}`, timestamp: NOW }]
      const rebuilt = await built({ query: 'Why?', history: h }, previous)
      const cold = await built({ query: 'Why?', history: h })
      expect(rebuilt.stats.rebuild).toEqual({ mode: 'incremental', newTurns: 1 })
      expect(rebuilt.packets).toEqual(cold.packets)
      expect(rebuilt.excluded).toEqual(cold.excluded)
      // turns left out behind both windows, and kept by both, keep their entries (the same objects)
      const before = new Map(previous.packets.map((p) => [p.id, p]))
      const kept = rebuilt.packets.filter((p) => before.get(p.id) === p)
      expect(kept.length).toBeGreaterThan(rebuilt.packets.length / 2)
      expect(kept.some((p) => p.status === 'dropped')).toBe(true)
      expect(kept.some((p) => p.status === 'kept')).toBe(true)
      // the new turn's entry is new, scored as a cold build scores it
      const last = rebuilt.packets.find((p) => p.id === `history:${h.length - 1}`)
      expect(before.has(last!.id)).toBe(false)
      expect(last!.scores).toEqual(cold.packets.find((p) => p.id === last!.id)!.scores)
      // the turn the fill missed says why, in the cold build's words
      const miss = rebuilt.packets.find((p) => p.status === 'dropped' && p.detail !== undefined && p.detail.startsWith('needs'))
      expect(miss).toBeDefined()
      previous = rebuilt
    }
  })
})
