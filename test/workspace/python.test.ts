import { describe, expect, it } from 'vitest'
import { pyStrip, pyTruthy } from '../../src/workspace/python.js'

describe('Python semantics nanobot relies on', () => {
  it("strips Python's whitespace, which is not JavaScript's", () => {
    expect(pyStrip('\u001c\u0085 x \u3000\n')).toBe('x')
    // U+FEFF is whitespace to JavaScript's trim, not to Python's strip
    expect(pyStrip('\ufeffx ')).toBe('\ufeffx')
    expect('\ufeffx '.trim()).toBe('x')
    expect(pyStrip(`"'quoted'"`, `"'`)).toBe('quoted')
    expect(pyStrip('""', '"')).toBe('')
  })

  it('has Python truthiness', () => {
    expect([false, 0, '', null, undefined, [], {}].map(pyTruthy)).toEqual([false, false, false, false, false, false, false])
    expect([true, 1, 'false', '0', [0], { a: 0 }, Number.NaN].map(pyTruthy)).toEqual([true, true, true, true, true, true, true])
  })
})
