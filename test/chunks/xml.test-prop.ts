import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { renderXml } from '../../src/chunks/xml.js'
import { seeded } from '../prop.js'
import { count, parse } from './xmlReader.js'

describe('XML escaping', () => {
  it('round-trips any text and attribute value, and never opens or closes another element', () => {
    const hostile = fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom('<', '>', '&', '"', "'", '/', '\n', '\r', '\t', 'a', 'tool_result', '&lt;', ']]>') }))
    fc.assert(
      fc.property(hostile, hostile, (body, attr) => {
        const xml = renderXml({ tag: 'tool_result', attrs: [['id', 'c'], ['tool', attr]], body })
        expect(count(xml, '<tool_result')).toBe(1)
        expect(count(xml, '</tool_result>')).toBe(1)
        const parsed = parse(xml)
        expect(parsed.body).toBe(body)
        expect(parsed.attrs.tool).toBe(attr)
        // the whole opening tag stays on the first line, whatever the attribute holds
        expect(xml.split('\n')[0]).toMatch(/^<tool_result id="c" tool="[^"\n]*">$/)
      }),
      seeded(500),
    )
  })
})
