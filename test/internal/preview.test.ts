import { describe, expect, it } from 'vitest'
import { clip, preview } from '../../src/internal/preview.js'

describe('preview', () => {
  it('puts the text on one line and cuts it with …', () => {
    expect(preview('Why does\n  the build fail?', 12)).toBe('Why does th…')
    expect(preview('  short \t', 12)).toBe('short')
  })
  it('never cuts between the halves of a surrogate pair', () => {
    expect(clip('ab😀cd', 4)).toBe('ab…')
    expect(clip('abc😀d', 5)).toBe('abc…')
    expect(clip('abc😀de', 6)).toBe('abc😀…')
    expect(clip('abcd', 4)).toBe('abcd')
  })
})
