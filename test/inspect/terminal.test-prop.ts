import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { explain } from '../../src/inspect/explain.js'
import { renderExplain } from '../../src/inspect/terminal.js'
import { stripAnsi, width } from '../../src/inspect/width.js'
import type { PacketInput } from '../../src/packet.js'
import { build } from '../../src/pipeline.js'
import { gpt4o, NOW, run } from '../helpers.js'
import { seeded } from '../prop.js'

const text = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }))
const packet: fc.Arbitrary<PacketInput> = fc.record({
  id: fc.option(text.filter((s) => s.length > 0), { nil: undefined }),
  type: fc.constantFrom('evidence', 'task_state', 'custom', 'instructions'),
  content: fc.oneof(text, fc.constant('the build fails because the compile step is missing '.repeat(30))),
  source: text,
}).map((p) => (p.id === undefined ? { type: p.type, content: p.content, source: p.source } : p) as PacketInput)

describe('renderExplain (properties)', () => {
  it('every line fits the width, with and without colour, for any packets and budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(packet, { maxLength: 8, selector: (p) => p.id ?? Symbol() }),
        fc.integer({ min: 60, max: 3000 }),
        fc.integer({ min: 20, max: 200 }),
        async (packets, maxTokens, cols) => {
          const r = await run(build({ query: 'why does the build fail', instructions: 'You help with builds.', packets }, { tokenizer: gpt4o, now: NOW, config: { maxTokens } }))
          const t = explain(r)
          const plain = renderExplain(t, { width: cols })
          const coloured = renderExplain(t, { width: cols, color: true })
          expect(stripAnsi(coloured)).toBe(plain)
          expect(plain).not.toContain('\u001b')
          for (const line of plain.split('\n')) expect(width(line)).toBeLessThanOrEqual(cols)
          // every packet is counted once across the section rows
          expect(t.sections.reduce((n, s) => n + s.kept + s.truncated + s.dropped, 0)).toBe(r.packets.length)
        },
      ),
      seeded(60),
    )
  })
})
