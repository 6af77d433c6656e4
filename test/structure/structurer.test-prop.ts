/**
 * `Structurer.decorate`: what a layout says about how it shows a packet, before laying
 * anything out, is what it shows when it lays the packet out (its item's prefix and suffix,
 * its section's name and separator), for every built-in layout and any packet.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Packet, PacketType, Priority } from '../../src/packet.js'
import type { Gathered, Selection } from '../../src/phase.js'
import { decorationsIn } from '../../src/select/layoutAware.js'
import { chat } from '../../src/structure/chat.js'
import { minimal } from '../../src/structure/minimal.js'
import { sectioned } from '../../src/structure/sectioned.js'
import type { Structurer } from '../../src/structure/structurer.js'
import { template } from '../../src/structure/template.js'
import { inputOrder } from '../../src/structure/structurer.js'
import { xml } from '../../src/structure/xml.js'
import { seeded } from '../prop.js'
import { gathered } from '../select/fixtures.js'

const tmpl = template('Rules: {{instructions}}\n\nAsk: {{task}}\n\nFacts:\n{{evidence}}\n\n{{output}}')
if (E.isLeft(tmpl)) throw new Error(tmpl.left.message)

const LAYOUTS: ReadonlyArray<readonly [string, Structurer]> = [
  ['sectioned', sectioned()],
  ['sectioned zh', sectioned({ locale: 'zh' })],
  ['minimal', minimal()],
  ['template', tmpl.right],
  ['chat', chat()],
  ['xml', xml()],
]

const TYPES: ReadonlyArray<PacketType> = ['instructions', 'task', 'task_state', 'evidence', 'history', 'custom']

const packetArb = fc.record({
  type: fc.constantFrom(...TYPES),
  priority: fc.constantFrom<Priority>(0, 1, 2, 3, 4),
  source: fc.constantFrom('rag', 'doc "a" <b>', 'history', 'memory', 'evidence', 'chunks'),
  role: fc.constantFrom('user', 'assistant', 'system', 'tool'),
  content: fc.string({ maxLength: 40 }),
  chunk: fc.boolean(),
})

describe('Structurer.decorate', () => {
  it("is how the layout shows the packet when it lays it out, for every built-in layout", async () => {
    const g: Gathered = await gathered({ query: 'What next?', instructions: 'Be brief.' })
    const always: Selection[] = g.packets.map((p) => ({ packet: p, tokens: 1, scores: { relevance: undefined, recency: 1, composite: 0.3 } }))
    fc.assert(
      fc.property(packetArb, fc.constantFrom(...LAYOUTS), (x, [, layout]) => {
        const p: Packet = {
          id: 'probe',
          type: x.type,
          priority: x.priority,
          content: x.content,
          timestamp: 0,
          source: x.chunk ? 'chunks' : x.source,
          metadata: x.chunk ? { chunkId: 'c', role: x.role } : { role: x.role },
        }
        const s = { ...g, _phase: 'selected' as const, selected: [...always, { packet: p, tokens: 1, scores: always[0]!.scores }], scores: new Map(), packets: [...g.packets, p] }
        expect(inputOrder(s).get('probe')).toBe(g.packets.length)
        expect(layout.decorate?.(p, g.env)).toEqual(decorationsIn(layout(s)).get('probe'))
      }),
      seeded(600),
    )
  })
})
