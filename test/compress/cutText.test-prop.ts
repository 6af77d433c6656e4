import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cutCounted } from '../../src/compress/cutText.js'
import { gpt4o } from '../helpers.js'
import { joinStress, seeded } from '../prop.js'

describe('cutCounted (properties)', () => {
  it('fits within the limit, keeps a head of the text after the lead, and counts the result exactly', () => {
    const lead = '## Long-term Memory\n'
    fc.assert(
      fc.property(joinStress(400, 'large'), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 32 }), (body, share, minKept) => {
        const total = gpt4o.count(lead + body)
        const limit = Math.max(1, Math.floor((total * share) / 100))
        const cut = cutCounted(lead, body, limit, { label: 'memory/MEMORY.md', estimated: false }, total, minKept, gpt4o)
        if (cut === undefined) return
        expect(cut.tokens).toBeLessThanOrEqual(limit)
        expect(cut.tokens).toBe(gpt4o.count(lead + cut.text))
        const marker = cut.text.lastIndexOf('\n… [truncated: memory/MEMORY.md, kept ')
        expect(marker).toBeGreaterThan(0)
        const kept = cut.text.slice(0, marker)
        expect(body.startsWith(kept)).toBe(true)
        expect(cut.keptTokens).toBe(gpt4o.count(`${lead}${kept}\n`))
        expect(cut.text.slice(marker + 1)).toBe(`… [truncated: memory/MEMORY.md, kept ${cut.keptTokens.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} tokens]`)
      }),
      seeded(400),
    )
  })
})
