import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { utf8Length } from '../../src/tokenize/utf8.js'
import { seeded } from '../prop.js'

const encoder = new TextEncoder()

describe('utf8Length', () => {
  it('is what TextEncoder writes, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (s) => {
        expect(utf8Length(s)).toBe(encoder.encode(s).length)
      }),
      seeded(200),
    )
    expect(utf8Length('a世😀\ud800x\udc00')).toBe(1 + 3 + 4 + 3 + 1 + 3)
  })
})
