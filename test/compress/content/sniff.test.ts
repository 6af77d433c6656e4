import { describe, expect, it } from 'vitest'
import { hintOf, sniff } from '../../../src/compress/content/index.js'

describe('sniff', () => {
  it('trusts a content type, a language or a path first', () => {
    expect(sniff('x = 1', { contentType: 'text/x-python' })).toEqual({ kind: 'code', language: 'python' })
    expect(sniff('x', { path: 'src/App.tsx' })).toEqual({ kind: 'code', language: 'typescript', jsx: true })
    expect(sniff('x', { language: 'markdown' })).toEqual({ kind: 'markdown' })
    expect(sniff('x', { path: 'build.log' })).toEqual({ kind: 'log' })
  })

  it('does not trust a JSON hint on text that is not JSON', () => {
    expect(sniff('plain words', { contentType: 'application/json' }).kind).toBe('text')
  })

  it('recognises JSON, Markdown, TypeScript, Python and logs by their look', () => {
    expect(sniff('  [{"a": 1}]').kind).toBe('json')
    expect(sniff('# Title\n\nSome text\n\n- a point\n- another').kind).toBe('markdown')
    expect(sniff("import { a } from './a.js'\nexport const b = (x: number) => {\n  return a(x);\n}\n")).toEqual({ kind: 'code', language: 'typescript' })
    expect(sniff('import os\nfrom x import y\n\ndef f(a):\n    return a\n')).toEqual({ kind: 'code', language: 'python' })
    expect(sniff('2026-01-01 12:00:00 INFO start\n2026-01-01 12:00:01 ERROR boom').kind).toBe('log')
    expect(sniff('Just a sentence.\nAnd another one.').kind).toBe('text')
  })

  it('reads hints from packet metadata', () => {
    expect(hintOf({ contentType: 'application/json', file_path: 'a.json', other: 1 })).toEqual({ contentType: 'application/json', path: 'a.json' })
  })
})
