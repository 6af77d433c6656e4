import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { main } from '../../examples/adapters.js'
import { blockAfter } from './blocks.js'

const doc = readFileSync('docs/adapters.md', 'utf8')
const example = readFileSync('examples/adapters.ts', 'utf8')

describe('docs/adapters.md', () => {
  it('shows samples taken as they are from examples/adapters.ts (type-checked with the project)', () => {
    const samples = [...doc.matchAll(/```ts\n([\s\S]*?)\n```/g)].map((m) => m[1]!)
    expect(samples.length).toBeGreaterThanOrEqual(6)
    for (const s of samples) expect(example).toContain(s)
  })

  it('shows what the example prints: every shape back unchanged', () => {
    expect(blockAfter('docs/adapters.md', 'It prints:')).toBe(main())
    expect(main()).not.toContain('false')
  })
})
