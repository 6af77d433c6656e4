import { describe, it } from 'vitest'
import { main as calibrateExample } from '../../examples/calibrate.js'
import { main as openWeightsExample } from '../../examples/open-weights.js'
import { showsExample } from './blocks.js'

const DOC = 'docs/tokens.md'

describe('docs/tokens.md', () => {
  it('shows examples/calibrate.ts as it is, and what it prints', async () => {
    await showsExample({ doc: DOC, example: 'examples/calibrate.ts', main: calibrateExample, shownAfter: '`examples/calibrate.ts`, run by' })
  })

  it('shows examples/open-weights.ts as it is, and what it prints', async () => {
    await showsExample({ doc: DOC, example: 'examples/open-weights.ts', main: openWeightsExample, shownAfter: '`examples/open-weights.ts`, run by', printsAfter: 'It prints (Llama 3):' })
  }, 60_000)
})
