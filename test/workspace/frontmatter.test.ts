import { describe, expect, it } from 'vitest'
import { parseFrontmatter, readMetadata } from '../../src/workspace/frontmatter.js'

describe('parseFrontmatter', () => {
  it('splits YAML frontmatter from the body', () => {
    expect(parseFrontmatter('---\nname: weather\nalways: true\n---\n# Weather\n')).toEqual({ data: { name: 'weather', always: true }, body: '# Weather\n' })
    expect(parseFrontmatter('---\n---\nbody')).toEqual({ data: {}, body: 'body' })
    expect(parseFrontmatter('# No frontmatter\n---\nx: 1\n---\n')).toEqual({ data: {}, body: '# No frontmatter\n---\nx: 1\n---\n' })
  })

  it('reads real YAML: quotes, nesting and lists that a line splitter gets wrong', () => {
    const fm = parseFrontmatter('---\nname: "tmux: sessions"\nmetadata:\n  nanobot:\n    requires: { bins: [tmux, "git"] }\n---\n')
    expect(fm.data).toEqual({ name: 'tmux: sessions', metadata: { nanobot: { requires: { bins: ['tmux', 'git'] } } } })
  })

  it('reports invalid YAML with its line in the file, and keeps the body', () => {
    expect(parseFrontmatter('---\nname: x\ndescription: [oops\n---\nBody\n')).toEqual({
      data: {},
      body: 'Body\n',
      problem: { line: 3, message: 'frontmatter is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]' },
    })
    expect(parseFrontmatter('---\n- a\n- b\n---\nBody').problem).toEqual({ line: 2, message: 'frontmatter must be a mapping of keys to values' })
  })
})

describe('readMetadata', () => {
  it('accepts a mapping or the JSON string nanobot writes', () => {
    expect(readMetadata({ nanobot: { always: true } })).toEqual({ _tag: 'Ok', value: { nanobot: { always: true } } })
    expect(readMetadata('{"nanobot":{"emoji":"🐙","requires":{"bins":["gh"]}}}')).toEqual({ _tag: 'Ok', value: { nanobot: { emoji: '🐙', requires: { bins: ['gh'] } } } })
    expect(readMetadata(undefined)).toEqual({ _tag: 'Ok', value: {} })
  })

  it('says what is wrong with anything else', () => {
    expect(readMetadata('{"nanobot":')).toMatchObject({ _tag: 'Invalid', message: expect.stringMatching(/^metadata is not valid JSON/) })
    expect(readMetadata('[1]')).toEqual({ _tag: 'Invalid', message: 'metadata JSON must be an object' })
    expect(readMetadata(42)).toEqual({ _tag: 'Invalid', message: 'metadata must be a mapping or a JSON object string' })
  })
})
