/** Reading a doc's fenced blocks, for the tests that check docs show what their code really does. */
import { readFileSync } from 'node:fs'
import { expect } from 'vitest'

/** The fenced block after the first occurrence of `marker` in the doc at `path`. */
export const blockAfter = (path: string, marker: string): string => {
  const doc = readFileSync(path, 'utf8')
  const at = doc.indexOf(marker)
  if (at < 0) throw new Error(`${path}: no ${JSON.stringify(marker)}`)
  const start = doc.indexOf('\n', doc.indexOf('```', at)) + 1
  return doc.slice(start, doc.indexOf('\n```', start))
}

/** Where a doc shows an example file and what it prints. */
export interface ShownExample {
  /** The doc, from the repository root (`docs/caching.md`). */
  readonly doc: string
  /** The example file, from the repository root (`examples/cache.ts`). */
  readonly example: string
  /** The example's `main`: what it prints. */
  readonly main: () => string | Promise<string>
  /** The marker before the block that shows the file. Default `## Example`. */
  readonly shownAfter?: string
  /** The marker before the block that shows what it prints. Default `It prints:`. */
  readonly printsAfter?: string
}

/**
 * Checks that a doc shows an example file as it is (so the sample is type-checked with the
 * project) and exactly what it prints; returns what it printed, for the test's own checks.
 */
export const showsExample = async (e: ShownExample): Promise<string> => {
  expect(blockAfter(e.doc, e.shownAfter ?? '## Example')).toBe(readFileSync(e.example, 'utf8').trimEnd())
  const printed = await e.main()
  expect(blockAfter(e.doc, e.printsAfter ?? 'It prints:')).toBe(printed)
  return printed
}
