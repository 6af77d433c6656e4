import { describe, expect, it } from 'vitest'
import { defaultSelector } from '../../src/select/selector.js'
import { renderText } from '../../src/structure/document.js'
import { parseTemplate, template } from '../../src/structure/template.js'
import { left, right } from '../helpers.js'
import { gathered } from '../select/fixtures.js'

describe('template', () => {
  it('fills placeholders (whitespace inside braces allowed) and keeps the fixed text', async () => {
    const s = defaultSelector()(
      await gathered({ query: 'Why?', instructions: 'Rules.', packets: [{ id: 'e', type: 'evidence', content: 'Because.', source: 'kb', relevance: 1 }] }),
    )
    const t = right(template('<rules>{{ instructions }}</rules>\nQ: {{task}}\nSources:\n{{evidence}}\n{{state}}'))
    expect(renderText(t(s))).toBe('<rules>Rules.</rules>\nQ: Why?\nSources:\n[Source: kb] Because.\n')
  })

  it('rejects an unknown placeholder, naming it and listing the known ones', () => {
    const e = left(parseTemplate('Hello {{tasks}}'))
    expect(e.placeholder).toBe('tasks')
    expect(e.message).toContain('{{tasks}}')
    expect(e.message).toContain('{{task}}')
  })

  it('rejects a placeholder used twice', () => {
    expect(left(template('{{task}} and {{task}}')).message).toMatch(/more than once/)
  })

  it('rejects an unclosed placeholder, or any {{ that opens none, naming line and column', () => {
    const cases: ReadonlyArray<readonly [string, string, RegExp]> = [
      ['Q: {{task', 'task', /\{\{task\}\}: not closed with \}\} \(line 1, column 4\)/],
      ['Rules\n{{instructions}}\n\nQ: {{ task }\n', 'task', /line 4, column 4/],
      ['{{task}} then {{', '', /not closed with \}\} \(line 1, column 15\)/],
      ['{{ {{task}}', '', /not closed/],
      ['{{evidence}\n{{task}}', 'evidence', /not closed/],
    ]
    for (const [text, placeholder, message] of cases) {
      const e = left(parseTemplate(text))
      expect([e._tag, e.placeholder]).toEqual(['TemplateError', placeholder])
      expect(e.message).toMatch(message)
    }
    // a lone brace or a closing pair is text
    expect(right(parseTemplate('{ "a": {"b": 1}} {{task}}'))).toHaveLength(2)
  })

  it('parses into text and slots', () => {
    expect(right(parseTemplate('a{{task}}b'))).toEqual([
      { _tag: 'Text', text: 'a' },
      { _tag: 'Slot', name: 'task' },
      { _tag: 'Text', text: 'b' },
    ])
  })
})
