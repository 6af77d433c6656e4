import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { main } from '../../examples/budget-shares.js'
import { blockAfter } from './blocks.js'

const DOC = 'docs/budget-shares.md'

describe('docs/budget-shares.md', () => {
  it('shows examples/budget-shares.ts as it is, and what it prints', async () => {
    expect(blockAfter(DOC, '`examples/budget-shares.ts`, run by')).toBe(readFileSync('examples/budget-shares.ts', 'utf8').trimEnd())
    const printed = await main()
    expect(blockAfter(DOC, 'It prints:')).toBe(printed)
    expect(printed).toMatch(/^\{\}: 0 turns/)
    expect(printed).toMatch(/"floor":0\.3\}\}: [23]\d turns/)
  })
})
