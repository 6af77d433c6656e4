/**
 * `finish`, the build's report: a packet's scores and reason read from the selector's
 * findings by place (`Selected.places`) are the ones looked up by id, whatever the gatherers,
 * the selector and the compressor left out (duplicates, gated passages, passages and turns
 * over the budget, turns a compressor dropped).
 */
import fc from 'fast-check'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { describe, expect, it } from 'vitest'
import { compress, defaultGatherers, gather, select, structure } from '../../src/pipeline.js'
import type { Selected } from '../../src/phase.js'
import { sectioned } from '../../src/structure/sectioned.js'
import { gpt4o, NOW, run } from '../helpers.js'
import { seeded } from '../prop.js'

const WORDS = ['build', 'fails', 'compile', 'script', 'the', 'and', 'rename', 'node', '构建', '42']
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 30 }).map((ws) => ws.join(' '))
const turn = fc.record({ role: fc.constantFrom('user' as const, 'assistant' as const), content: text })
const passage = fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'history:1'), type: fc.constantFrom('evidence' as const, 'custom' as const, 'task_state' as const), content: text, source: fc.constantFrom('doc', 'rag') })

describe('finish', () => {
  it('reports each packet as looking it up by id does, when the selector says its findings by place', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(turn, { maxLength: 30 }), fc.array(passage, { maxLength: 12 }), fc.integer({ min: 80, max: 1500 }), async (history, packets, maxTokens) => {
        const request = { query: 'Why does the build fail after the rename?', instructions: 'Be brief.', history, packets }
        const layout = sectioned()
        const selected = await run(pipe(request, gather(defaultGatherers(), { tokenizer: gpt4o, now: NOW, config: { maxTokens }, layout }), select()))
        const finished = (s: Selected) => run(pipe(TE.right(s), structure(), compress()))
        const { places, ...byId } = selected
        const withPlaces = await finished(selected)
        const withoutPlaces = await finished(byId)
        expect(withPlaces.packets).toEqual(withoutPlaces.packets)
        expect(withPlaces.excluded).toEqual(withoutPlaces.excluded)
        // the property is about the places: most builds must have them
        if (packets.every((p) => p.id !== 'history:1')) expect(places).toBeDefined()
      }),
      seeded(200),
    )
  })
})
