import { describe, expect, it } from 'vitest'
import { parseJson, stripBom } from '../src/json.js'
import { left, right } from './helpers.js'

describe('parseJson', () => {
  it('accepts a BOM', () => {
    expect(right(parseJson('a.json', '\ufeff{"a": 1}'))).toEqual({ a: 1 })
    expect(stripBom('\ufeffx')).toBe('x')
  })

  it('names line and column of a syntax error, on one line, also where V8 gives no position', () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ['[{"role": "user"},\n', 'h.json:2:1: not valid JSON: the text ends too early: a value is expected'],
      ['[1,2,', 'h.json:1:6: not valid JSON: the text ends too early: a value is expected'],
      ['{\n  "a": 1,\n  "b": 2,\n}', 'h.json:4:1: not valid JSON: a property name in double quotes is expected'],
      ['[\n  {"a": tru}\n]', 'h.json:2:9: not valid JSON: unexpected text'],
      ['{"a": "line\nbreak"}', 'h.json:1:7: not valid JSON: a string is not closed'],
      ['{"a": "bell\u0007"}', 'h.json:1:7: not valid JSON: a control character in a string (write it as an escape such as \\n)'],
      ['[1 2]', "h.json:1:4: not valid JSON: ',' is expected"],
      ['{"a": 1} x', 'h.json:1:10: not valid JSON: unexpected text'],
      ['// note\n{}', 'h.json:1:1: not valid JSON: comments are not allowed in JSON'],
      ['', 'h.json:1:1: not valid JSON: the text ends too early: a value is expected'],
      ['\ufeff[1,\n', 'h.json:2:1: not valid JSON: the text ends too early: a value is expected'],
    ]
    for (const [text, message] of cases) {
      const e = left(parseJson('h.json', text))
      expect(e.message).toBe(message)
      expect(e.message).not.toContain('\n')
    }
  })

  it('counts lines from where the text starts in its file (one line of JSON Lines)', () => {
    expect(left(parseJson('p.jsonl', '{"a": }', 7))).toMatchObject({ input: 'p.jsonl', line: 7, column: 7 })
  })
})
