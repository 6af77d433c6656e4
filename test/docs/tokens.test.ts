import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { main as calibrateExample } from '../../examples/calibrate.js'

const doc = readFileSync('docs/tokens.md', 'utf8')

/** The fenced block after a marker in the doc. */
const blockAfter = (marker: string): string => {
  const at = doc.indexOf(marker)
  const start = doc.indexOf('\n', doc.indexOf('```', at)) + 1
  return doc.slice(start, doc.indexOf('\n```', start))
}

describe('docs/tokens.md', () => {
  it('shows examples/calibrate.ts as it is, and what it prints', async () => {
    expect(blockAfter('`examples/calibrate.ts`, run by')).toBe(readFileSync('examples/calibrate.ts', 'utf8').trimEnd())
    expect(blockAfter('It prints:')).toBe(await calibrateExample())
  })
})
