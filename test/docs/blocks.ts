/** Reading a doc's fenced blocks, for the tests that check docs show what their code really does. */
import { readFileSync } from 'node:fs'

/** The fenced block after the first occurrence of `marker` in the doc at `path`. */
export const blockAfter = (path: string, marker: string): string => {
  const doc = readFileSync(path, 'utf8')
  const at = doc.indexOf(marker)
  if (at < 0) throw new Error(`${path}: no ${JSON.stringify(marker)}`)
  const start = doc.indexOf('\n', doc.indexOf('```', at)) + 1
  return doc.slice(start, doc.indexOf('\n```', start))
}
