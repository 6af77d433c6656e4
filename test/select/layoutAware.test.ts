import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { build } from '../../src/pipeline.js'
import { renderText, type Document, type Section } from '../../src/structure/document.js'
import { labelsFor } from '../../src/structure/labels.js'
import { gpt4o, NOW } from '../helpers.js'

const WORDS = 'the build fails because the compile script is missing so we rename it and rerun the pipeline after checking node version cache deploy'.split(' ')
const turns = Array.from({ length: 80 }, (_, i) => ({
  role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
  content: Array.from({ length: 8 + ((i * 7) % 23) }, (_, k) => WORDS[(i * 3 + k * 5) % WORDS.length]).join(' '),
}))

describe('layoutAware', () => {
  it('costs each turn as its label and text join, so no build leaves out a turn that would fit', async () => {
    const speaker = labelsFor('en').speaker
    const wasted: number[] = []
    for (let maxTokens = 400; maxTokens <= 2000; maxTokens += 40) {
      const r = await build({ query: 'What next?', history: turns }, { tokenizer: gpt4o, now: NOW, config: { maxTokens, maxHistoryMessages: Number.POSITIVE_INFINITY } })()
      if (E.isLeft(r)) throw new Error(r.left.message)
      const kept = r.right.included.filter((id) => id.startsWith('history:')).map((id) => Number(id.slice('history:'.length)))
      const oldest = Math.min(...kept)
      expect(oldest).toBeGreaterThan(0)
      // the newest turn left out, put back in front of the kept ones in the build's own layout, counted exactly
      const turn = turns[oldest - 1]!
      const doc = r.right.doc as Document
      const withTurn: Document = {
        ...doc,
        blocks: doc.blocks.map((b) =>
          b._tag === 'Section' && b.name === 'context'
            ? ({ ...b, items: [{ packetId: `history:${oldest - 1}`, prefix: speaker(turn.role), text: turn.content, tokens: gpt4o.count(turn.content) }, ...b.items] } satisfies Section)
            : b,
        ),
      }
      if (gpt4o.count(renderText(withTurn)) <= r.right.budget.available) wasted.push(maxTokens)
    }
    expect(wasted).toEqual([])
  })
})
