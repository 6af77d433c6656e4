/**
 * layoutAware's one fill, charged from probe layouts, is exact for a history in the default
 * layout: the selection it makes fits as laid out without the compressor cutting or dropping
 * anything, and
 * the newest turn it leaves out would not have fitted, whatever the turns hold (word ends,
 * punctuation and line breaks that merge with the labels and separators around them).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { build } from '../../src/pipeline.js'
import { renderText, type Document, type Section } from '../../src/structure/document.js'
import { labelsFor } from '../../src/structure/labels.js'
import { gpt4o, NOW, run } from '../helpers.js'
import { joinStress, seeded } from '../prop.js'

const turn = fc.record({ role: fc.constantFrom('user' as const, 'assistant' as const), content: joinStress(30).filter((t) => t.trim().length > 0) })

describe('layoutAware on a history', () => {
  it('fills exactly: nothing cut, and the newest turn left out would not fit', async () => {
    const speaker = labelsFor('en').speaker
    await fc.assert(
      fc.asyncProperty(fc.array(turn, { minLength: 2, maxLength: 60 }), fc.integer({ min: 120, max: 900 }), fc.boolean(), async (turns, maxTokens, instructions) => {
        const r = await run(
          build(
            { query: 'What now?', ...(instructions ? { instructions: 'Answer briefly.' } : {}), history: turns },
            { tokenizer: gpt4o, now: NOW, config: { maxTokens, reserveRatio: 0, maxHistoryMessages: Number.POSITIVE_INFINITY } },
          ),
        )
        // the compressor neither cut nor dropped what the selection took
        expect(r.truncated).toEqual([])
        expect(r.excluded.filter((x) => x.reason === 'truncated')).toEqual([])
        expect(r.tokenCount).toBe(gpt4o.count(r.output))
        const kept = r.included.filter((id) => id.startsWith('history:')).map((id) => Number(id.slice('history:'.length)))
        const oldest = kept.length === 0 ? turns.length : Math.min(...kept)
        if (oldest === 0) return
        const t = turns[oldest - 1]!
        const doc = r.doc as Document
        const context = doc.blocks.find((b): b is Section => b._tag === 'Section' && b.name === 'context')
        // the turn left out put back in front of the kept ones, in the build's own layout (or as its only turn)
        const item = { packetId: `history:${oldest - 1}`, prefix: speaker(t.role), text: t.content, tokens: gpt4o.count(t.content) }
        if (context === undefined) return
        const withTurn: Document = { ...doc, blocks: doc.blocks.map((b) => (b === context ? ({ ...context, items: [item, ...context.items] } satisfies Section) : b)) }
        expect(gpt4o.count(renderText(withTurn))).toBeGreaterThan(r.budget.available)
      }),
      seeded(200, 3000),
    )
  })
})
