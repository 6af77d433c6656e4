/**
 * The engine's `fill` order with `miss: 'cut'` (the workspace prompt's policy) on generated
 * text layouts: per-section joiners, tails and token caps, item caps, priorities, counted
 * markers and all-or-nothing items (groups of one). The budget invariant, the caps and the
 * keep order hold whatever the text, measured with the real tokenizer.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { applyCaps, fitDocument } from '../../src/compress/engine.js'
import { keepOrder } from '../../src/compress/fill.js'
import type { FitPolicy } from '../../src/compress/policy.js'
import { decorationOf, renderText, type Document, type Item, type Section } from '../../src/structure/document.js'
import { meter } from '../../src/tokenize/meter.js'
import { gpt4o } from '../helpers.js'
import { joinStress, seeded } from '../prop.js'

/** Prose in lines and sentences, where cuts have boundaries to find. */
const prose = fc
  .array(fc.array(fc.constantFrom('the', 'user', 'likes', 'tea', 'garden', '构建', '😀', 'x=1;', 'Paris.', 'done!'), { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 40, size: 'large' })
  .map((lines) => lines.map((l) => `- ${l.join(' ')}`).join('\n'))

const itemArb = fc.record({
  head: fc.constantFrom('', '## A\n\n', '### Skill: x\n\n', '- '),
  body: fc.oneof(joinStress(120), prose, prose),
  priority: fc.integer({ min: 0, max: 3 }),
  cap: fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
  counted: fc.boolean(),
  whole: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
  // an estimate below the real count (a compressor's), which only the exact count catches
  under: fc.integer({ min: -6, max: 6 }).map((n) => Math.max(0, n)),
})

const sectionArb = fc.record({
  head: fc.constantFrom('', '# Memory\n\n', '# Skills\n\n<skills>\n'),
  tail: fc.option(fc.constantFrom('\n</skills>', '\n'), { nil: undefined }),
  separator: fc.constantFrom('\n', '\n\n', '\n\n---\n\n'),
  joiner: fc.option(fc.constantFrom('\n\n', ''), { nil: undefined }),
  cap: fc.option(fc.integer({ min: 1, max: 300 }), { nil: undefined }),
  dropFrom: fc.constantFrom('start' as const, 'end' as const),
  items: fc.array(itemArb, { maxLength: 5 }),
})

const m = meter(gpt4o)

type SectionInput = typeof sectionArb extends fc.Arbitrary<infer A> ? A : never

const documentOf = (sections: ReadonlyArray<SectionInput>): Document => ({
  joiner: '\n\n---\n\n',
  blocks: sections.map(
    (s, n): Section => ({
      _tag: 'Section',
      name: `s${n}`,
      rank: n,
      head: s.head,
      separator: s.separator,
      dropFrom: s.dropFrom,
      keep: 'head',
      channel: 'system',
      omitWhenEmpty: true,
      marker: '... (content truncated)',
      ...(s.tail === undefined ? {} : { tail: s.tail }),
      ...(s.joiner === undefined ? {} : { joiner: s.joiner }),
      ...(s.cap === undefined ? {} : { cap: s.cap }),
      items: s.items.map(
        (i, k): Item => ({
          packetId: `s${n}:${k}`,
          prefix: i.head,
          text: i.body,
          // decoration + tokens is the item's exact count, as the workspace states it, or less
          tokens: Math.max(0, gpt4o.count(i.head + i.body) - m.text(i.head) - i.under),
          priority: i.priority,
          ...(i.cap === undefined ? {} : { cap: i.cap }),
          ...(i.counted ? { marker: { label: `file${n}.${k}.md`, estimated: false } } : {}),
          ...(i.whole ? { group: `whole:${n}:${k}` } : {}),
        }),
      ),
    }),
  ),
})

const itemsOf = (doc: Document): ReadonlyMap<string, Item> =>
  new Map(doc.blocks.flatMap((b) => (b._tag === 'Section' ? b.items.map((i) => [i.packetId!, i] as const) : [])))

describe('fitDocument, fill order cutting at the first miss (properties)', () => {
  it('returns the exact count, never over the budget; caps hold; nothing after the first budget miss is kept, and no room it could hold is wasted', () => {
    fc.assert(
      fc.property(fc.array(sectionArb, { maxLength: 4 }), fc.integer({ min: 0, max: 110 }), fc.integer({ min: 1, max: 24 }), fc.boolean(), (sections, share, minKept, lean) => {
        const doc = documentOf(sections)
        // a budget around the layout's own size, so that it cuts somewhere
        const available = Math.max(1, Math.round((share * gpt4o.count(renderText(doc))) / 100))
        const policy: FitPolicy = { order: 'fill', halve: false, cut: true, minKept, miss: 'cut' }
        const capped = applyCaps(doc, policy, m)
        expect(applyCaps(capped, policy, m)).toEqual(capped)
        const cost = (i: Item, s: Section): number => decorationOf(i, m) + i.tokens + (lean ? 0 : m.text(s.separator))
        const fitted = fitDocument(capped, policy, { available, meter: m, measure: (d) => gpt4o.count(renderText(d)), cost })
        const rendered = renderText(fitted.doc)
        expect(fitted.tokens).toBe(gpt4o.count(rendered))
        expect(fitted.tokens).toBeLessThanOrEqual(available)

        const before = itemsOf(capped)
        const after = itemsOf(fitted.doc)
        for (const [id, item] of itemsOf(doc)) {
          const kept = after.get(id)
          if (kept === undefined) continue
          // a kept item is whole, or a head of its own text and a marker; an all-or-nothing item is whole
          if (kept.cut === undefined) expect(kept.text).toBe(item.text)
          else {
            expect(item.group).toBeUndefined()
            const cutAt = kept.text.lastIndexOf('\n')
            expect(item.text.startsWith(kept.text.slice(0, cutAt))).toBe(true)
            if (item.marker !== undefined) {
              expect(kept.text.slice(cutAt + 1)).toMatch(/^… \[truncated: file\d+\.\d+\.md, kept [\d,]+ of [\d,]+ tokens\]$/)
              // a counted cut is counted exactly: decoration and tokens are the item as shown
              expect(decorationOf(kept, m) + kept.tokens).toBe(gpt4o.count(kept.prefix + kept.text))
            }
          }
          // a counted item within its cap, exactly, when its count was exact
          if (item.cap !== undefined && item.marker !== undefined && decorationOf(item, m) + item.tokens === gpt4o.count(item.prefix + item.text)) expect(gpt4o.count(kept.prefix + kept.text)).toBeLessThanOrEqual(item.cap)
        }
        // a section cap bounds the estimated costs of its items
        for (const b of fitted.doc.blocks)
          if (b._tag === 'Section' && b.cap !== undefined) expect(b.items.reduce((sum, i) => sum + decorationOf(i, m) + i.tokens + (lean ? 0 : m.text(b.separator)), 0)).toBeLessThanOrEqual(b.cap)
        if (fitted.nothingFits) return
        // in keep order: after the first unit the budget cut or left out, nothing is kept
        const order = keepOrder(capped)
        const idsOf = (u: (typeof order)[number]): ReadonlyArray<string> => u.items.map((i) => (capped.blocks[u.block] as Section).items[i]!.packetId!)
        const miss = order.findIndex((u) => idsOf(u).some((id) => !fitted.sectionCapped.has(id) && after.get(id) !== before.get(id)))
        if (miss >= 0) for (const u of order.slice(miss + 1)) for (const id of idsOf(u)) expect(after.has(id)).toBe(false)
        // nothing wasted: unless a kept unit is cut for the budget, the first unit left out for it does not fit whole
        const cutForBudget = [...after].some(([id, i]) => !fitted.sectionCapped.has(id) && i !== before.get(id))
        if (miss >= 0 && !cutForBudget) {
          const missed = new Set(idsOf(order[miss]!))
          const keep = (i: Item): ReadonlyArray<Item> => {
            const kept = missed.has(i.packetId!) ? i : after.get(i.packetId!)
            return kept === undefined ? [] : [kept]
          }
          const withMissed: Document = { ...capped, blocks: capped.blocks.map((b) => (b._tag === 'Section' ? { ...b, items: b.items.flatMap(keep) } : b)) }
          const sec = withMissed.blocks[order[miss]!.block] as Section
          const overCap = sec.cap !== undefined && sec.items.reduce((sum, i) => sum + cost(i, sec), 0) > sec.cap
          expect(overCap || gpt4o.count(renderText(withMissed)) > available).toBe(true)
        }
      }),
      seeded(300),
    )
  })
})
