import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { escapeText, renderXml } from '../../src/chunks/xml.js'
import { seeded } from '../prop.js'
import { parseXml, xmlVisible } from '../xml.js'

// any UTF-16 text: controls, lone surrogates, U+FFFE, and markup pieces
const unit = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('<', '>', '&', '"', "'", '/', '\n', '\r', '\t', 'a', 'tool_result', '&lt;', ']]>', '\u001b[2J', '\ud83d\ude00', '\u0085', '\u007f'),
)
const hostile = fc.oneof(fc.string(), fc.string({ unit }))

describe('XML escaping', () => {
  it('is well-formed for a strict parser, which gives back the text (what XML cannot hold, made visible), and never opens another element', () => {
    fc.assert(
      fc.property(hostile, hostile, (body, attr) => {
        const xml = renderXml({ tag: 'tool_result', attrs: [['id', 'c'], ['tool', attr]], body })
        const parsed = parseXml(xml)
        expect(parsed.name).toBe('tool_result')
        expect(parsed.children).toEqual([])
        expect(parsed.text).toBe(`\n${xmlVisible(body)}\n`)
        expect(parsed.attributes).toEqual({ id: 'c', tool: xmlVisible(attr) })
        // the whole opening tag stays on the first line, whatever the attribute holds
        expect(xml.split('\n')[0]).toMatch(/^<tool_result id="c" tool="[^"\n]*">$/)
      }),
      seeded(500),
    )
  })

  it('gives back exactly the text that holds only characters XML can carry', () => {
    const carried = fc.string({ unit: fc.oneof(fc.constantFrom('<', '>', '&', ']]>', '\r', '\r\n', '\t', '\u0085', '\u007f', 'x', '😀'), fc.string()) })
    fc.assert(
      fc.property(carried, (text) => {
        fc.pre(xmlVisible(text) === text)
        expect(parseXml(`<t>${escapeText(text)}</t>`).text).toBe(text)
      }),
      seeded(500),
    )
  })
})
