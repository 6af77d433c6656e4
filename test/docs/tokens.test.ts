import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { main as calibrateExample } from '../../examples/calibrate.js'
import { main as openWeightsExample } from '../../examples/open-weights.js'
import { blockAfter } from './blocks.js'

const DOC = 'docs/tokens.md'

describe('docs/tokens.md', () => {
  it('shows examples/calibrate.ts as it is, and what it prints', async () => {
    expect(blockAfter(DOC, '`examples/calibrate.ts`, run by')).toBe(readFileSync('examples/calibrate.ts', 'utf8').trimEnd())
    expect(blockAfter(DOC, 'It prints:')).toBe(await calibrateExample())
  })

  it('shows examples/open-weights.ts as it is, and what it prints', async () => {
    expect(blockAfter(DOC, '`examples/open-weights.ts`, run by')).toBe(readFileSync('examples/open-weights.ts', 'utf8').trimEnd())
    expect(blockAfter(DOC, 'It prints (Llama 3):')).toBe(await openWeightsExample())
  }, 60_000)
})
