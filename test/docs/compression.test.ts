import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { main } from '../../examples/compression.js'

import { blockAfter as block } from './blocks.js'

const blockAfter = (marker: string): string => block('docs/compression.md', marker)

describe('docs/compression.md', () => {
  it('shows examples/compression.ts as it is (type-checked with the project), and what it prints', async () => {
    expect(blockAfter('## Example')).toBe(readFileSync('examples/compression.ts', 'utf8').trimEnd())
    expect(blockAfter('It prints:')).toBe(await main())
  })

  it('the example keeps the JSON valid and the error line of the log', async () => {
    const [json, log] = (await main()).split('\n\n')
    expect(() => JSON.parse(json!.split('\n')[1]!)).not.toThrow()
    expect(log).toContain('src/app.ts(12,5): error TS2304: Cannot find name "retry".')
  })
})
