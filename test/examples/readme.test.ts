import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { build } from '../../src/index.js'
import { gpt4o, run } from '../helpers.js'

const readme = readFileSync('README.md', 'utf8')

/** The fenced block after a marker line in the README. */
const blockAfter = (marker: string): string => {
  const at = readme.indexOf(marker)
  const start = readme.indexOf('```\n', at) + 4
  return readme.slice(start, readme.indexOf('\n```', start))
}

describe('README', () => {
  it('starts with the two commands', () => {
    expect(readme.split('\n').slice(0, 6).join('\n')).toContain('npm install && npm run demo')
    expect(readme.split('\n').slice(0, 6).join('\n')).toContain('npm test')
  })

  it('has every section of the manual, each once', () => {
    const sections = readme.split('\n').filter((l) => l.startsWith('## '))
    expect(sections).toEqual([
      '## What it does',
      '## The everyday job: `fitMessages`',
      '## A worked example',
      '## The pipeline, stage by stage',
      '## Entry points',
      '## Guides',
      '## Performance',
      '## Caveats',
    ])
  })

  it('is read in one sitting: at most 30 KB', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(30 * 1024)
  })

  it('keeps the benchmark table between the markers the bench writes to', () => {
    const perf = readme.slice(readme.indexOf('## Performance'))
    expect(perf.indexOf('<!-- bench:start -->')).toBeGreaterThan(0)
    expect(perf.indexOf('<!-- bench:end -->')).toBeGreaterThan(perf.indexOf('<!-- bench:start -->'))
  })

  it('shows the worked example output that the code really produces', async () => {
    const r = await run(
      build(
        {
          query: 'Why does the CI build fail?',
          instructions: 'You are the build assistant. Give the exact command to run.',
          history: [
            { role: 'user', content: 'The CI build fails since this morning.' },
            { role: 'assistant', content: 'Which step fails? Please paste the error.' },
            { role: 'user', content: 'npm ERR! Missing script: "compile"' },
          ],
          packets: [
            { type: 'evidence', content: 'The compile script was renamed to build in v2.', source: 'CHANGELOG.md' },
            { type: 'evidence', content: 'Lunch is at noon.', source: 'calendar' },
          ],
        },
        { tokenizer: gpt4o, config: { maxTokens: 1000 } },
      ),
    )
    expect(r.output).toBe(blockAfter('The output:'))
    expect(r.budget.available).toBe(850)
    expect(r.excluded).toEqual([expect.objectContaining({ reason: 'below_min_relevance', detail: 'relevance 0 < 0.3' })])
  })
})
