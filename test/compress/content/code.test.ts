import { describe, expect, it } from 'vitest'
import typescript from 'typescript'
import { compressCode, compressContent, loadTypeScript, requireTypeScript } from '../../../src/compress/content/index.js'
import { gpt4o } from '../../helpers.js'

const body = (n: number): string => Array.from({ length: n }, (_, i) => `    total += values[${i}] * ${i} // step ${i}`).join('\n')

const ts = `import { readFile } from 'node:fs/promises'
import type { Config } from './config.js'

/** Sums the values. */
export function sum(values: number[]): number {
    let total = 0
${body(30)}
    return total
}

export class Store {
    private items: string[] = []
    add(item: string): void {
${body(20)}
    }
    get size(): number {
        return this.items.length
    }
}

export const load = async (path: string): Promise<Config> => {
${body(25)}
    return JSON.parse(await readFile(path, 'utf8'))
}
`

const py = `import os
from typing import List


class Store:
    """A store."""

    def add(self, item: str) -> None:
${body(20).replace(/\/\//g, '#').replace(/^/gm, '    ')}

    def size(self) -> int:
        return len(self.items)


def load(path: str,
         strict: bool = False) -> dict:
${body(25).replace(/\/\//g, '#')}
    return {}
`

describe('compressCode', () => {
  it('TypeScript: keeps imports and signatures, elides bodies and names them', () => {
    const r = compressCode('typescript', { typescript })(ts, 150, gpt4o)
    expect(r._tag).toBe('Fitted')
    if (r._tag !== 'Fitted') return
    expect(r.tokens).toBeLessThanOrEqual(150)
    for (const line of ["import { readFile } from 'node:fs/promises'", 'export function sum(values: number[]): number {', 'export class Store {', '    add(item: string): void {', 'export const load = async (path: string): Promise<Config> => {'])
      expect(r.text).toContain(line)
    expect(r.text).not.toContain('step 3')
    expect(r.removed.filter((x) => x._tag === 'Body').map((x) => (x as { readonly name: string }).name)).toEqual(expect.arrayContaining(['sum', 'add', 'load']))
  })

  it('keeps the line-number gutter of a read tool', () => {
    const numbered = ts.split('\n').map((l, i) => `${String(i + 1).padStart(6)}→${l}`).join('\n')
    const r = compressCode('typescript', { typescript })(numbered, 200, gpt4o)
    expect(r._tag === 'Fitted' && r.text).toContain('     5→export function sum(values: number[]): number {')
  })

  it('Python: keeps imports, classes and def lines (a signature over two lines too)', () => {
    const r = compressCode('python')(py, 100, gpt4o)
    expect(r._tag).toBe('Fitted')
    if (r._tag !== 'Fitted') return
    for (const line of ['import os', 'class Store:', '    def add(self, item: str) -> None:', 'def load(path: str,', '         strict: bool = False) -> dict:'])
      expect(r.text).toContain(line)
    expect(r.text).not.toContain('step 3')
    expect(r.text).toContain('    # ... 26 lines')
    expect(r.removed.filter((x) => x._tag === 'Body').map((x) => (x as { readonly name: string }).name)).toEqual(['add', 'load'])
  })

  it('loads the optional peer when code is compressed (on Node by itself); without it, TypeScript is cut as text and says why', async () => {
    expect((await loadTypeScript())?.createSourceFile).toBe(typescript.createSourceFile)
    expect(requireTypeScript()?.createSourceFile).toBe(typescript.createSourceFile)
    expect(compressContent(ts, 150, gpt4o, { path: 'a.ts' })._tag).toBe('Compressed')
    const r = compressContent(ts, 150, gpt4o, { path: 'a.ts' }, { typescript: false })
    expect(r._tag === 'Cut' && r.reason).toMatch(/needs the `typescript` module/)
  })

  it('declines when even the barest skeleton does not fit', () => {
    expect(compressCode('typescript', { typescript })(ts, 3, gpt4o)._tag).toBe('Declined')
  })
})
