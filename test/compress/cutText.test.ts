import { describe, expect, it } from 'vitest'
import { escapeText } from '../../src/chunks/xml.js'
import { cutText } from '../../src/compress/cutText.js'
import { gpt4o } from '../helpers.js'

describe('cutText', () => {
  const text = 'The first sentence is here. The second sentence follows it. The third one ends the paragraph.\nA new line starts here and goes on for a while.'
  const total = gpt4o.count(text)

  it('keeps the head, cut at a sentence boundary', () => {
    const head = cutText(text, 14, 'head', gpt4o, total)
    expect(head).toBe('The first sentence is here. The second sentence follows it.')
    expect(gpt4o.count(head)).toBeLessThanOrEqual(14)
  })

  it('keeps the tail, starting at a line boundary', () => {
    const tail = cutText(text, 13, 'tail', gpt4o, total)
    expect(tail).toBe('A new line starts here and goes on for a while.')
  })

  it('never splits a character (Chinese, emoji)', () => {
    const zh = '构建失败的原因是缺少编译脚本🎉🎉🎉需要在package.json中添加compile脚本然后重新运行测试'
    const n = gpt4o.count(zh)
    for (let k = 1; k < n; k++) {
      const head = cutText(zh, k, 'head', gpt4o, n)
      expect(head).not.toMatch(/[\uD800-\uDBFF]$/)
      expect(zh.startsWith(head)).toBe(true)
      const tail = cutText(zh, k, 'tail', gpt4o, n)
      expect(tail).not.toMatch(/^[\uDC00-\uDFFF]/)
      expect(zh.endsWith(tail)).toBe(true)
    }
  })

  it('returns the text unchanged when it fits, and nothing for a zero budget', () => {
    expect(cutText(text, total, 'head', gpt4o, total)).toBe(text)
    expect(cutText(text, 0, 'head', gpt4o, total)).toBe('')
  })

  it('never cuts inside a character reference of escaped XML text', () => {
    const escaped = escapeText('a<b&&c<<d"e>f]]>g\r\u0085'.repeat(40))
    const n = gpt4o.count(escaped)
    for (let k = 1; k < n; k++) {
      const head = cutText(escaped, k, 'head', gpt4o, n)
      expect(head).not.toMatch(/&#?[A-Za-z0-9]*$/)
      const tail = cutText(escaped, k, 'tail', gpt4o, n)
      expect(tail).not.toMatch(/^#?[A-Za-z0-9]*;/)
    }
  })
})
