import { describe, expect, it } from 'vitest'
import { escapeText } from '../../src/chunks/xml.js'
import { countedNote, cutChars, cutCounted, cutFramed, cutText, tokensUpTo } from '../../src/compress/cutText.js'
import type { Tokenizer } from '../../src/tokenize/tokenizer.js'
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

describe('countedNote', () => {
  it('says what was cut, with an exact or an estimated total', () => {
    expect(countedNote('memory/MEMORY.md', 1987, 9000, false)).toBe('… [truncated: memory/MEMORY.md, kept 1,987 of 9,000 tokens]')
    expect(countedNote('memory/MEMORY.md', 1987, 524_288, true)).toBe('… [truncated: memory/MEMORY.md, kept 1,987 of ~524,000 tokens]')
  })
})

describe('cutCounted', () => {
  const lead = '## Long-term Memory\n'
  const lines = Array.from({ length: 40 }, (_, i) => `- Fact number ${i + 1} about the user.`).join('\n')
  const exact = { label: 'memory/MEMORY.md', estimated: false }

  it('cuts at a line end, with the note on its own line counting the lead, counted exactly', () => {
    const total = gpt4o.count(lead + lines)
    expect(total).toBe(365)
    const cut = cutCounted(lead, lines, 60, exact, total, 8, gpt4o)!
    expect(cut.text).toBe(
      '- Fact number 1 about the user.\n- Fact number 2 about the user.\n- Fact number 3 about the user.\n… [truncated: memory/MEMORY.md, kept 32 of 365 tokens]',
    )
    expect(cut.tokens).toBe(gpt4o.count(lead + cut.text))
    expect(cut.tokens).toBeLessThanOrEqual(60)
    expect(cut.keptTokens).toBe(gpt4o.count(`${lead}- Fact number 1 about the user.\n- Fact number 2 about the user.\n- Fact number 3 about the user.\n`))
    // 1,290 characters is more than this limit's window: the total is estimated (it is 365)
    const measured = tokensUpTo(lead + lines, 60, gpt4o)
    expect(measured).toEqual({ tokens: 375, estimated: true })
    expect(cutCounted(lead, lines, 60, { ...exact, estimated: true }, measured.tokens, 8, gpt4o)!.text).toMatch(/kept 32 of ~375 tokens\]$/)
    // counted whole when short enough
    expect(tokensUpTo(lead + lines, 200, gpt4o)).toEqual({ tokens: 365, estimated: false })
  })

  it('cuts CJK text after a full stop, not inside a character', () => {
    const text = '他喜欢喝茶。'.repeat(60)
    const cut = cutCounted(lead, text, 40, exact, gpt4o.count(lead + text), 8, gpt4o)!
    const kept = cut.text.slice(0, cut.text.indexOf('\n… [truncated'))
    expect(kept.endsWith('。')).toBe(true)
    expect(text.startsWith(kept)).toBe(true)
  })

  it('keeps nothing when the lead and minKept tokens do not fit', () => {
    expect(cutCounted(lead, lines, 20, exact, 365, 8, gpt4o)).toBeUndefined()
    expect(cutCounted(lead, lines, 60, exact, 365, 40, gpt4o)).toBeUndefined()
  })

  it('tokenizes only a window of a huge text and estimates its total', () => {
    const huge = '- A fact that repeats itself many times over.\n'.repeat(50_000)
    const counted: number[] = []
    const spy: Tokenizer = { ...gpt4o, count: (t) => (counted.push(t.length), gpt4o.count(t)), prefixEnd: (t, n) => (counted.push(t.length), gpt4o.prefixEnd(t, n)) }
    const measured = tokensUpTo(lead + huge, 500, spy)
    expect(measured.estimated).toBe(true)
    expect(Math.abs(measured.tokens - 500_005) / 500_005).toBeLessThan(0.05)
    const cut = cutCounted(lead, huge, 500, { ...exact, estimated: true }, measured.tokens, 8, spy)!
    expect(cut.text).toMatch(/kept \d{3} of ~\d{3},\d{3} tokens\]$/)
    expect(Math.max(...counted)).toBeLessThan(10_000) // of 2,300,000 characters
  })
})

describe('cutFramed', () => {
  const frame = (head: string): string => `<summary>\n${head}…\n</summary>`
  const text = 'The build failed because a module was missing. '.repeat(40).trim()

  it('keeps the longest head whose frame fits, at a sentence end, counted exactly', () => {
    const cut = cutFramed(text, 40, gpt4o.count(frame('')), frame, gpt4o, gpt4o.count(text))!
    expect(cut.tokens).toBe(gpt4o.count(cut.text))
    expect(cut.tokens).toBeLessThanOrEqual(40)
    expect(cut.text).toBe(frame(cut.head))
    expect(cut.head.endsWith('missing.')).toBe(true)
    expect(text.startsWith(cut.head)).toBe(true)
  })

  it('keeps nothing when the frame leaves less than minKept tokens', () => {
    expect(cutFramed(text, gpt4o.count(frame('')) + 2, gpt4o.count(frame('')), frame, gpt4o, 400, 3)).toBeUndefined()
  })
})

describe('cutChars', () => {
  it('keeps a short text whole', () => {
    expect(cutChars('Short enough.', 13)).toBe('Short enough.')
  })

  it('cuts at a space within the limit, marker included', () => {
    const out = cutChars('The build fails because left-pad is missing from the lock file.', 40)
    expect(out).toBe('The build fails because left-pad is…')
    expect(out.length).toBeLessThanOrEqual(40)
  })

  it('prefers a line break, then a sentence end, to a space', () => {
    expect(cutChars('The first line is here\nsecond line goes on and on', 30)).toBe('The first line is here…')
    expect(cutChars('The first line is here and second line goes on', 30)).toBe('The first line is here and…')
    expect(cutChars('One sentence is here. Another one follows it', 30)).toBe('One sentence is here.…')
  })

  it('never splits a surrogate pair, even with no boundary in reach', () => {
    const text = '😀'.repeat(20)
    const out = cutChars(text, 10)
    expect(out.length).toBeLessThanOrEqual(10)
    expect(out).toBe('😀'.repeat(4) + '…')
    expect(/\p{Cs}/u.test(out)).toBe(false) // no lone surrogate
  })
})
