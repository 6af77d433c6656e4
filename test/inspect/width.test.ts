import { describe, expect, it } from 'vitest'
import { bar, barFraction, eighths } from '../../src/inspect/bar.js'
import { clean, fit, padEnd, padStart, width, wrap } from '../../src/inspect/width.js'

describe('width', () => {
  it('counts CJK as two columns and combining marks as none', () => {
    expect(width('abc')).toBe(3)
    expect(width('构建日志')).toBe(8)
    expect(width('e\u0301')).toBe(1)
    expect(width('\u001b[31mred\u001b[39m')).toBe(3)
  })

  it('cuts to a width with an ellipsis, never splitting a wide character over the limit', () => {
    expect(fit('evidence:very-long-id', 10)).toBe('evidence:…')
    expect(fit('short', 10)).toBe('short')
    expect(fit('构建日志失败', 7)).toBe('构建日…')
    expect(width(fit('构建日志失败', 6))).toBeLessThanOrEqual(6)
    expect(padEnd('ab', 4)).toBe('ab  ')
    expect(padStart('构', 4)).toBe('  构')
  })

  it('wraps at words', () => {
    expect(wrap('one two three four', 9)).toEqual(['one two', 'three', 'four'])
    expect(wrap('averyveryverylongword x', 6)).toEqual(['avery…', 'x'])
  })

  it('makes control characters visible', () => {
    expect(clean('a\nb\u001b[2Jc\u0000')).toBe('a b␛[2Jc␀')
  })
})

describe('bar', () => {
  it('draws eighths of a cell and pads to the width', () => {
    expect(bar(0.5, 10)).toBe('█████     ')
    expect(bar(0.05, 10)).toBe('▌         ')
    expect(bar(0.03, 10)).toBe('▎         ')
    expect(bar(1.7, 4)).toBe('████')
    expect(bar(0, 3)).toBe('   ')
    expect(eighths(0.0001, 10)).toBe(1)
  })

  it('reads back what it drew', () => {
    for (const f of [0, 0.1, 0.333, 0.5, 0.92, 1]) expect(Math.abs(barFraction(bar(f, 29), 29) - f)).toBeLessThanOrEqual(1 / (29 * 8))
  })
})
