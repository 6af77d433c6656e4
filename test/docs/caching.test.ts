import { describe, expect, it } from 'vitest'
import { main } from '../../examples/cache.js'
import { showsExample } from './blocks.js'

describe('docs/caching.md', () => {
  it('shows examples/cache.ts as it is (type-checked with the project), and what it prints', async () => {
    await showsExample({ doc: 'docs/caching.md', example: 'examples/cache.ts', main })
  })

  it('each turn starts with everything the turn before sent as its stable prefix', async () => {
    const turns = (await main()).split('\n').slice(0, 3)
    const stable = turns.map((t) => Number(/stable prefix (\d+)/.exec(t)![1]))
    const identical = turns.slice(1).map((t) => Number(/\((\d+) identical/.exec(t)![1]))
    expect(identical).toEqual(stable.slice(0, 2))
    expect(turns.slice(1).every((t) => t.endsWith('2 breakpoints'))).toBe(true)
  })
})
