/**
 * What should survive compressing a text, by kind, and how much of it an output kept:
 * - JSON: key paths (`$.results[].title`, array indices blurred), read from the output with
 *   a tolerant parse, so a cut-off (invalid) JSON text is credited with what it still shows;
 * - logs: error lines, verbatim;
 * - code: declaration lines (functions, methods, classes, interfaces, types; Python `def`
 *   and `class`), verbatim, for sources that parse (fragments have none);
 * - Markdown: heading lines, verbatim.
 * Used by `scripts/quality-content.ts` and the survival test on the real fixtures.
 *
 * @module
 */
import { parseTree, type Node } from 'jsonc-parser'
import { ERROR_LINE, jsonTree, type Sniffed } from '../src/compress/content/index.js'
import { linesOf, withoutGutter } from '../src/compress/content/lines.js'
import ts from 'typescript'

/** What should survive a text, and where in it the last of them ends. */
export interface Survivors {
  readonly what: string
  readonly items: ReadonlyArray<string>
  /** The end offset in the original text of the first occurrence of the last item. */
  readonly lastEnd: number
  /** How many of `items` an output kept. */
  readonly keptIn: (output: string) => number
}

/** JSON key paths with their first offsets. */
const keyPaths = (root: Node | undefined): Map<string, number> => {
  const paths = new Map<string, number>()
  const walk = (n: Node, path: string): void => {
    if (n.type === 'object')
      for (const p of n.children ?? []) {
        const [k, v] = p.children ?? []
        if (k === undefined || k.value === '...') continue
        const sub = `${path}.${String(k.value)}`
        if (!paths.has(sub)) paths.set(sub, k.offset + k.length)
        if (v !== undefined) walk(v, sub)
      }
    if (n.type === 'array') for (const c of n.children ?? []) walk(c, `${path}[]`)
  }
  if (root !== undefined) walk(root, '$')
  return paths
}

/** Lines matching `pick`, distinct, with the end offset of each one's first occurrence. */
const lineSurvivors = (what: string, text: string, pick: (line: string, bare: string) => boolean): Survivors => {
  const lines = linesOf(text)
  const bare = withoutGutter(lines)
  const ends = new Map<string, number>()
  let offset = 0
  lines.forEach((l, i) => {
    offset += l.length + 1
    if (l.trim() !== '' && pick(l, bare[i]!) && !ends.has(l)) ends.set(l, offset - 1)
  })
  const items = [...ends.keys()]
  return {
    what,
    items,
    lastEnd: Math.max(0, ...ends.values()),
    keptIn: (output) => {
      const out = new Set(linesOf(output))
      return items.filter((l) => out.has(l)).length
    },
  }
}

/**
 * Declaration lines of a TypeScript/JavaScript source, from the compiler's parser; none for
 * a text with syntax errors (a read tool's window into the middle of a file), where the
 * parser's recovery makes no trustworthy ground truth.
 */
const tsDeclarationLines = (bare: string): Set<number> => {
  const found = new Set<number>()
  const sf = ts.createSourceFile('x.ts', bare, ts.ScriptTarget.Latest, true)
  // parseDiagnostics is internal, but it is how the parser reports syntax errors without a program
  if (((sf as unknown as { readonly parseDiagnostics?: ReadonlyArray<unknown> }).parseDiagnostics ?? []).length > 0) return found
  const visit = (n: ts.Node): void => {
    const named =
      ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isClassDeclaration(n) || ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n)
    if (named && n.name !== undefined) found.add(sf.getLineAndCharacterOfPosition(n.name.getStart(sf)).line)
    ts.forEachChild(n, visit)
  }
  visit(sf)
  return found
}

/**
 * What should survive `text`, taken for `sniffed`; undefined for plain text.
 *
 * @example
 * survivorsOf(log, { kind: 'log' }).keptIn(compressed) // error lines kept
 */
export const survivorsOf = (text: string, sniffed: Sniffed): Survivors | undefined => {
  switch (sniffed.kind) {
    case 'json': {
      const paths = keyPaths(jsonTree(text))
      return {
        what: 'JSON key paths',
        items: [...paths.keys()],
        lastEnd: Math.max(0, ...paths.values()),
        keptIn: (output) => {
          const kept = keyPaths(parseTree(output) ?? undefined)
          return [...paths.keys()].filter((p) => kept.has(p)).length
        },
      }
    }
    case 'log':
      return lineSurvivors('error lines', text, (l) => ERROR_LINE.test(l))
    case 'markdown': {
      // headings outside fenced code blocks (a `# comment` in a shell block is no heading)
      let fence: string | undefined
      const headings = new Set<string>()
      for (const l of linesOf(text)) {
        const f = /^ {0,3}(`{3,}|~{3,})/.exec(l)?.[1]
        if (f !== undefined) fence = fence === undefined ? f : f.startsWith(fence[0]!) && f.length >= fence.length ? undefined : fence
        else if (fence === undefined && /^ {0,3}#{1,6}\s/.test(l)) headings.add(l)
      }
      return lineSurvivors('headings', text, (l) => headings.has(l))
    }
    case 'code': {
      if (sniffed.language === 'python')
        return lineSurvivors('declarations', text, (_, bare) => /^\s*(async\s+def|def|class)\s+\w/.test(bare))
      const lines = linesOf(text)
      const decl = tsDeclarationLines(withoutGutter(lines).join('\n'))
      const byLine = new Set(lines.filter((_, i) => decl.has(i)))
      return lineSurvivors('declarations', text, (l) => byLine.has(l))
    }
    case 'text':
      return undefined
  }
}
