import { describe, expect, it } from 'vitest'
import { main } from '../../examples/budget-shares.js'
import { showsExample } from './blocks.js'

describe('docs/budget-shares.md', () => {
  it('shows examples/budget-shares.ts as it is, and what it prints', async () => {
    const printed = await showsExample({ doc: 'docs/budget-shares.md', example: 'examples/budget-shares.ts', main, shownAfter: '`examples/budget-shares.ts`, run by' })
    expect(printed).toMatch(/^\{\}: 0 turns/)
    expect(printed).toMatch(/"floor":0\.3\}\}: [23]\d turns/)
  })
})
