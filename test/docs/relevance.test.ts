import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { main } from '../../examples/semantic.js'
import { blockAfter } from './blocks.js'

const DOC = 'docs/relevance.md'

describe('docs/relevance.md', () => {
  it('shows examples/semantic.ts as it is, and what it prints', async () => {
    expect(blockAfter(DOC, '`examples/semantic.ts`, run by')).toBe(readFileSync('examples/semantic.ts', 'utf8').trimEnd())
    const printed = await main()
    expect(blockAfter(DOC, 'It prints:')).toBe(printed)
    // keywords leave the paraphrased note out; the embeddings keep it
    expect(printed).toMatch(/keywords:\n {2}note:expiry +relevance 0\.20 +dropped \(below_min_relevance\)/)
    expect(printed).toMatch(/embeddings:\n {2}note:expiry +relevance 0\.4\d +kept/)
  })
})
