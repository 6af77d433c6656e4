import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { main } from '../../examples/nanobot-prompt.js'
import { cli } from '../cli/run.js'
import { blockAfter as block, showsExample } from './blocks.js'

const DOC = 'docs/workspaces.md'
const doc = readFileSync(DOC, 'utf8')
const blockAfter = (marker: string): string => block(DOC, marker)

/** A command line split as a POSIX shell would: spaces outside double quotes. */
const words = (line: string): string[] => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!)

describe('docs/workspaces.md', () => {
  it('shows examples/nanobot-prompt.ts as it is (type-checked with the project), and what it prints', async () => {
    await showsExample({ doc: DOC, example: 'examples/nanobot-prompt.ts', main, shownAfter: '`examples/nanobot-prompt.ts`:' })
  })

  it('its command prints the prompt the example builds, on the same clock', async () => {
    const [gssc, ...args] = words(blockAfter('## On the command line'))
    expect(gssc).toBe('gssc')
    const r = await cli(args, { PATH: '/nonexistent' })
    expect(r.code).toBe(0)
    const head = (await main()).split('\n…')[0]!
    expect(r.stdout.startsWith(head)).toBe(true)
    expect(r.stderr).toContain('memory/2026-03-14.md: nanobot 0.1.4 does not read daily notes')
  })

  it('names every version gssc reproduces', () => {
    for (const v of ['`0.1.3`', '`0.1.4`', '`HEAD`', 'v0.1.3.post4', '3852956a71a9']) expect(doc).toContain(v)
  })
})
