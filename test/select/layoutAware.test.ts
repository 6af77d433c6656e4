import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { build } from '../../src/pipeline.js'
import type { Selected } from '../../src/phase.js'
import { layoutAware, layoutOverheads, layoutProbe } from '../../src/select/layoutAware.js'
import { prepare } from '../../src/select/selector.js'
import type { Packet } from '../../src/packet.js'
import type { Structurer } from '../../src/structure/structurer.js'
import { estimate, renderText, sectionsOf, type Document, type Section } from '../../src/structure/document.js'
import { prefixOf } from '../../src/structure/items.js'
import { labelsFor } from '../../src/structure/labels.js'
import { sectioned } from '../../src/structure/sectioned.js'
import { gpt4o, NOW } from '../helpers.js'
import { gathered } from './fixtures.js'

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

describe('layoutAware measuring its layout on probes', () => {
  const passages = Array.from({ length: 12 }, (_, i) => ({
    id: `doc:${i}`,
    type: 'evidence' as const,
    source: `doc-${i % 4}`,
    content: `The build fails ${i} times because the compile script is missing; rename it and rerun ${WORDS.slice(0, 5 + (i % 9)).join(' ')}.`,
  }))

  it('charges each packet its decoration and separator joined with its text, and a section its opening, exactly', async () => {
    const g = await gathered({ query: 'Why does the build fail?', instructions: 'Be brief.', history: turns.slice(0, 30), packets: passages }, { maxTokens: 1200, maxHistoryMessages: Number.POSITIVE_INFINITY })
    const layout = sectioned()
    const prepared = prepare(g)
    const probe = layoutProbe(layout, g, prepared)
    const labels = labelsFor('en')
    const probeOf = (ps: ReadonlyArray<Packet>) => layout({ ...g, _phase: 'selected', selected: ps.map((p) => ({ packet: p, tokens: gpt4o.count(p.content), scores: prepared.scores.get(p.id)! })), scores: prepared.scores })
    const always = prepared.always
    const base = gpt4o.count(renderText(probeOf(always)))
    expect(probe.reserve).toBe(base - always.reduce((t, p) => t + gpt4o.count(p.content), 0))
    for (const p of g.packets.filter((x) => !always.includes(x))) {
      expect([p.id, probe.joined(p)]).toEqual([p.id, gpt4o.count(`${prefixOf(p, labels)}${p.content}\n`) - gpt4o.count(p.content)])
      const section = probe.section.of(p)!
      expect(section).toBe(p.type === 'history' ? 'context' : 'evidence')
      expect([p.id, probe.section.opening(section, p)]).toEqual([p.id, gpt4o.count(renderText(probeOf([...always, p]))) - base - gpt4o.count(p.content) - probe.joined(p)])
    }
  })

  it('reads how a layout without `decorate` shows each packet from one layout of every candidate', async () => {
    const g = await gathered({ query: 'Why does the build fail?', history: turns.slice(0, 10), packets: passages }, { maxTokens: 1200, maxHistoryMessages: Number.POSITIVE_INFINITY })
    const own: Structurer = (s) => sectioned()(s)
    const prepared = prepare(g)
    const calls: number[] = []
    const counting: Structurer = (s) => {
      calls.push(s.selected.length)
      return own(s)
    }
    const probe = layoutProbe(counting, g, prepared)
    const known = layoutProbe(sectioned(), g, prepared)
    for (const p of g.packets) {
      expect(probe.joined(p)).toBe(known.joined(p))
      expect(probe.section.of(p)).toBe(known.section.of(p))
    }
    // the probe of the always-kept packets, then one of every candidate
    expect(calls).toEqual([prepared.always.length, g.packets.length])
  })

  it('splits an estimate into the fixed text and each item\'s content, decoration and separator', async () => {
    const g = await gathered({ query: 'Why does the build fail?', history: turns.slice(0, 30), packets: passages }, { maxTokens: 1200, maxHistoryMessages: Number.POSITIVE_INFINITY })
    const s = layoutAware(sectioned())(g)
    const doc = sectioned()(s)
    const meter = s.env.meter
    const o = layoutOverheads(doc, meter, new Map(s.selected.map((x) => [x.packet.id, x.packet.type])))
    const items = sectionsOf(doc).flatMap((sec) => sec.items.filter((i) => i.packetId !== undefined).map((i) => ({ type: byType(s, i.packetId!), cost: meter.text(i.prefix) + meter.text(sec.separator), tokens: i.tokens })))
    expect(items.map((i) => i.type)).toContain('evidence')
    expect(items.map((i) => i.type)).toContain('history')
    expect(o.raw + items.reduce((t, i) => t + i.tokens + i.cost, 0)).toBe(estimate(doc, meter))
    expect(o.fixed).toBe(Math.max(0, o.raw))
    for (const type of ['evidence', 'history'] as const) expect(o.perType.get(type)).toBe(Math.max(...items.filter((i) => i.type === type).map((i) => i.cost)))
    expect(o.widest).toBe(Math.max(...o.perType.values()))
  })
})

const byType = (s: Selected, id: string): string | undefined => s.selected.find((x) => x.packet.id === id)?.packet.type
