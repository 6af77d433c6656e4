/**
 * A fill's record of what it left out, worded when read: the words must be exactly those the
 * fill would have made at the time, however many entries share a detail.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { packet } from '../../src/packet.js'
import type { Exclusion, ExclusionReason } from '../../src/phase.js'
import { leave, leaveNeeding, leftOut, needsText, worded } from '../../src/select/leftOut.js'
import type { Unit } from '../../src/select/selector.js'
import { seeded } from '../prop.js'

const unitOf = (index: number, size: number): Unit => ({
  packets: Array.from({ length: size }, (_, k) => packet({ id: `p${index}.${k}`, type: 'evidence', content: `passage ${index}` }, 0)),
  priority: 2,
  history: false,
  score: 0.5,
  index,
})

type Entry =
  | { readonly kind: 'plain'; readonly size: number; readonly reason: ExclusionReason; readonly detail: string }
  | { readonly kind: 'needs'; readonly size: number; readonly tokens: number; readonly atLeast: boolean; readonly remaining: number }

const entry: fc.Arbitrary<Entry> = fc.oneof(
  fc.record({ kind: fc.constant('plain' as const), size: fc.integer({ min: 1, max: 3 }), reason: fc.constantFrom<ExclusionReason>('below_min_relevance', 'duplicate_id'), detail: fc.string({ maxLength: 12 }) }),
  // few distinct numbers, so entries share details (what the wording's memo is for) and a
  // `remaining` comes back after another one
  fc.record({ kind: fc.constant('needs' as const), size: fc.integer({ min: 1, max: 3 }), tokens: fc.integer({ min: 1, max: 4 }), atLeast: fc.boolean(), remaining: fc.integer({ min: 0, max: 2 }) }),
)

describe('leftOut', () => {
  it('words each entry as the fill would have worded it then, one exclusion per packet, in order', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), (entries) => {
        const record = leftOut()
        const eager: Exclusion[] = []
        entries.forEach((e, i) => {
          const u = unitOf(i, e.size)
          if (e.kind === 'plain') {
            leave(record, u, e.reason, e.detail)
            for (const p of u.packets) eager.push({ id: p.id, reason: e.reason, detail: e.detail })
          } else {
            leaveNeeding(record, u, e.tokens, e.atLeast, e.remaining)
            for (const p of u.packets) eager.push({ id: p.id, reason: 'over_budget', detail: needsText(u, e.tokens, e.atLeast, e.remaining) })
          }
        })
        expect(worded(record)).toEqual(eager)
      }),
      seeded(500),
    )
  })

  it('says "at least" for a lower bound and names the rest of a group', () => {
    expect(needsText(unitOf(0, 1), 48, true, 12)).toBe('needs at least 48 tokens, 12 left')
    expect(needsText(unitOf(0, 3), 48, false, 12)).toBe('needs 48 tokens with the 2 other packet(s) of its group, 12 left')
  })
})
