import { describe, expect, it } from 'vitest'
import { main } from '../../examples/semantic.js'
import { showsExample } from './blocks.js'

describe('docs/relevance.md', () => {
  it('shows examples/semantic.ts as it is, and what it prints', async () => {
    const printed = await showsExample({ doc: 'docs/relevance.md', example: 'examples/semantic.ts', main, shownAfter: '`examples/semantic.ts`, run by' })
    // keywords leave the paraphrased note out; the embeddings keep it
    expect(printed).toMatch(/keywords:\n {2}note:expiry +relevance 0\.20 +dropped \(below_min_relevance\)/)
    expect(printed).toMatch(/embeddings:\n {2}note:expiry +relevance 0\.4\d +kept/)
  })
})
