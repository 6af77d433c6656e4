import { describe, expect, it } from 'vitest'
import { compressMarkdown } from '../../../src/compress/content/index.js'
import { gpt4o } from '../../helpers.js'

const para = (topic: string, n: number): string => Array.from({ length: n }, (_, i) => `Line ${i} about ${topic}, with enough words to cost tokens.`).join('\n')

const doc = `# Guide

${para('the intro', 10)}

## Install

\`\`\`sh
${Array.from({ length: 10 }, (_, i) => `npm install package-${i}`).join('\n')}
\`\`\`

## Use

${para('usage', 12)}

### Details

${para('details', 8)}
`

describe('compressMarkdown', () => {
  it('keeps every heading with the first lines under it', () => {
    const r = compressMarkdown(doc, 120, gpt4o)
    expect(r._tag).toBe('Fitted')
    if (r._tag !== 'Fitted') return
    expect(r.tokens).toBeLessThanOrEqual(120)
    for (const h of ['# Guide', '## Install', '## Use', '### Details']) expect(r.text).toContain(h)
    expect(r.text).toContain('Line 0 about usage')
    expect(r.text).not.toContain('Line 9 about usage')
  })

  it('closes a fenced block it cuts open', () => {
    const r = compressMarkdown(doc, 120, gpt4o)
    const text = r._tag === 'Fitted' ? r.text : ''
    expect(text).toMatch(/```sh\n(npm install package-\d\n)*```\n\[\.\.\. \d+ lines?\]/)
    expect((text.match(/```/g) ?? []).length % 2).toBe(0)
  })

  it('drops the deepest headings last of all', () => {
    const r = compressMarkdown(doc, 12, gpt4o)
    expect(r._tag === 'Fitted' && r.text).toContain('# Guide')
    expect(r._tag === 'Fitted' && r.text).not.toContain('### Details')
  })
})
