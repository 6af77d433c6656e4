import { describe, expect, it } from 'vitest'
import { main } from '../../examples/compression.js'
import { showsExample } from './blocks.js'

describe('docs/compression.md', () => {
  it('shows examples/compression.ts as it is (type-checked with the project), and what it prints', async () => {
    await showsExample({ doc: 'docs/compression.md', example: 'examples/compression.ts', main })
  })

  it('the example keeps the JSON valid and the error line of the log', async () => {
    const [json, log] = (await main()).split('\n\n')
    expect(() => JSON.parse(json!.split('\n')[1]!)).not.toThrow()
    expect(log).toContain('src/app.ts(12,5): error TS2304: Cannot find name "retry".')
  })
})
