/**
 * The TypeScript/JavaScript front end of the code compressor: an outline (bodies, comments,
 * top-level statements) from the TypeScript compiler's parser.
 *
 * `typescript` is an optional peer dependency, loaded only when code is compressed: it is
 * 20+ MB that a user who never compresses code should not need, and the parser alone (no type
 * checker, no program) is what a skeleton needs. Items are cut synchronously, so on Node it is
 * required synchronously ({@link requireTypeScript}, through Node's own loader, which caches
 * it: gssc keeps no module state); elsewhere (a browser bundle) pass the module as the
 * `typescript` option, from {@link loadTypeScript} (a dynamic import). Without it, JavaScript
 * and TypeScript are cut as text.
 *
 * @module
 */
import type * as TS from 'typescript'
import { nodeRequire } from '../../tokenize/ranks.js'
import type { LineRange, Outline } from './skeleton.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The `typescript` module, as gssc sees it: opaque here, so that gssc's types do not need
 * `typescript` installed; any version 5 module fits.
 */
export interface TypeScriptModule {
  readonly createSourceFile: (...args: never[]) => unknown
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The `typescript` module when it is installed, else undefined. A dynamic import, on a
 * specifier bundlers leave alone, so a browser bundle of the core does not pull it in.
 *
 * @example
 * const typescript = await loadTypeScript()
 * compressContent(source, 300, tokenizer, { path: 'app.ts' }, { typescript })
 * @category constructors
 * @since 0.1.0
 */
export const loadTypeScript = async (): Promise<TypeScriptModule | undefined> => {
  const specifier = ['type', 'script'].join('')
  try {
    const m = (await import(/* @vite-ignore */ specifier)) as { readonly default?: TypeScriptModule } & TypeScriptModule
    return typeof m.createSourceFile === 'function' ? m : m.default
  } catch {
    return undefined
  }
}

/**
 * The `typescript` module, required synchronously on Node when it is installed; undefined
 * elsewhere or when it is not.
 *
 * @category constructors
 * @since 0.1.0
 */
export const requireTypeScript = (): TypeScriptModule | undefined => {
  try {
    return nodeRequire()?.('typescript') as TypeScriptModule | undefined
  } catch {
    return undefined
  }
}

/**
 * The outline of a TypeScript or JavaScript source (`jsx` for `.tsx`/`.jsx`), read with the
 * `typescript` module given. Syntax errors are tolerated: a read tool's window into
 * the middle of a file does not parse cleanly, and the parser's recovery still finds its
 * functions; the skeleton is made of the input's own lines either way.
 *
 * @category utils
 * @since 0.1.0
 */
export const typescriptOutline = (typescript: TypeScriptModule, source: string, jsx = false): Outline => {
  const ts = typescript as unknown as typeof TS
  const sf = ts.createSourceFile(jsx ? 'x.tsx' : 'x.ts', source, ts.ScriptTarget.Latest, true, jsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const line = (pos: number): number => sf.getLineAndCharacterOfPosition(pos).line
  const bodies: Array<LineRange & { readonly name: string }> = []
  const visit = (node: TS.Node): void => {
    const body = bodyOf(ts, node)
    if (body !== undefined) {
      const open = line(body.getStart(sf))
      const close = line(body.getEnd())
      if (close - open > 1) bodies.push({ from: open + 1, to: close, name: nameOf(ts, node, sf) })
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  const statements = sf.statements.map((s) => ({
    from: line(s.getStart(sf)),
    to: line(s.getEnd()) + 1,
    isImport: ts.isImportDeclaration(s) || ts.isImportEqualsDeclaration(s),
    isExported:
      ts.isExportDeclaration(s) ||
      ts.isExportAssignment(s) ||
      (ts.canHaveModifiers(s) && (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)),
    members: membersOf(ts, s).map((m) => line(m.getStart(sf))),
  }))
  return { bodies, comments: commentLines(ts, sf), statements }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** The block body of a function-like node or a class static block. */
const bodyOf = (ts: typeof TS, node: TS.Node): TS.Node | undefined =>
  (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined && ts.isBlock(node.body as TS.Node)) ||
  ts.isClassStaticBlockDeclaration(node)
    ? ((node as { readonly body: TS.Node }).body)
    : undefined

/** The members of a class, interface or enum statement (a `declare`d namespace's statements too). */
const membersOf = (ts: typeof TS, s: TS.Statement): ReadonlyArray<TS.Node> =>
  ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isEnumDeclaration(s) ? [...s.members] : []

/** A function's name as a reader would look for it: its own, or the binding it is assigned to. */
const nameOf = (ts: typeof TS, node: TS.Node, sf: TS.SourceFile): string => {
  const own = (node as { readonly name?: TS.Node }).name
  if (own !== undefined) return own.getText(sf)
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  const parent = node.parent
  if (parent !== undefined && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)))
    return parent.name.getText(sf)
  return '(anonymous)'
}

/** Lines that hold only comment text, found with the scanner (so `//` in a string is not one). */
const commentLines = (ts: typeof TS, sf: TS.SourceFile): ReadonlyArray<LineRange> => {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, sf.languageVariant, sf.text)
  const lineAt = (pos: number): number => sf.getLineAndCharacterOfPosition(pos).line
  // lines holding any token that is not a comment or whitespace
  const code = new Set<number>()
  const comments = new Set<number>()
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    const from = lineAt(scanner.getTokenStart())
    const to = lineAt(scanner.getTokenEnd())
    const target = kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia ? comments : kind === ts.SyntaxKind.NewLineTrivia || kind === ts.SyntaxKind.WhitespaceTrivia ? undefined : code
    for (let l = from; l <= to && target !== undefined; l++) target.add(l)
  }
  return [...comments].filter((l) => !code.has(l)).sort((a, b) => a - b).map((l) => ({ from: l, to: l + 1 }))
}
