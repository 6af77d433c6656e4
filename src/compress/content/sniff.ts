/**
 * Choosing a content compressor: what the caller says first (a content type, a language, a
 * file path's extension), then what the text looks like. Sniffing reads at most the first
 * 200 lines, except for JSON, which must parse whole to count as JSON.
 *
 * @module
 */
import { linesOf, withoutGutter } from './lines.js'
import { ERROR_LINE, WARNING_LINE, lineShape } from './log.js'
import { jsonTree } from './json.js'
import type { CodeLanguage, ContentHint, ContentKind } from './model.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What a text was taken for. */
export interface Sniffed {
  readonly kind: ContentKind
  /** For `code`: the language. */
  readonly language?: CodeLanguage
  /** For TypeScript/JavaScript: whether JSX syntax is allowed (`.tsx`, `.jsx`). */
  readonly jsx?: boolean
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * What a text holds: the hint's `contentType`, then its `language`, then its `path`'s
 * extension, then the text itself. A JSON hint on text that does not parse is not trusted.
 *
 * @example
 * sniff('{"a": [1, 2]}') // { kind: 'json' }
 * sniff('x', { path: 'src/app.tsx' }) // { kind: 'code', language: 'typescript', jsx: true }
 * @category utils
 * @since 0.1.0
 */
export const sniff = (text: string, hint: ContentHint = {}): Sniffed => {
  const declared = fromContentType(hint.contentType) ?? fromLanguage(hint.language) ?? fromPath(hint.path)
  if (declared !== undefined) return declared.kind === 'json' && jsonTree(text) === undefined ? fromText(text) : declared
  return fromText(text)
}

/**
 * Reads the usual hint fields from packet metadata: `contentType` (or `mimeType`),
 * `language`, and `path` (or `file`, `filePath`, `file_path`).
 *
 * @category utils
 * @since 0.1.0
 */
export const hintOf = (metadata: Readonly<Record<string, unknown>>): ContentHint => {
  const str = (...keys: ReadonlyArray<string>): string | undefined =>
    keys.map((k) => metadata[k]).find((v): v is string => typeof v === 'string')
  const contentType = str('contentType', 'mimeType')
  const language = str('language')
  const path = str('path', 'file', 'filePath', 'file_path')
  return {
    ...(contentType === undefined ? {} : { contentType }),
    ...(language === undefined ? {} : { language }),
    ...(path === undefined ? {} : { path }),
  }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const code = (language: CodeLanguage, jsx = false): Sniffed => ({ kind: 'code', language, ...(jsx ? { jsx } : {}) })

const fromLanguage = (language: string | undefined): Sniffed | undefined => {
  switch (language?.toLowerCase()) {
    case 'typescript':
    case 'ts':
      return code('typescript')
    case 'tsx':
      return code('typescript', true)
    case 'javascript':
    case 'js':
      return code('javascript')
    case 'jsx':
      return code('javascript', true)
    case 'python':
    case 'py':
      return code('python')
    case 'json':
      return { kind: 'json' }
    case 'markdown':
    case 'md':
      return { kind: 'markdown' }
    case 'log':
      return { kind: 'log' }
    default:
      return undefined
  }
}

const fromContentType = (type: string | undefined): Sniffed | undefined => {
  if (type === undefined) return undefined
  const t = type.toLowerCase().split(';')[0]!.trim()
  if (t === 'application/json' || t.endsWith('+json') || t === 'json') return { kind: 'json' }
  if (t === 'text/markdown' || t === 'markdown') return { kind: 'markdown' }
  if (t === 'text/x-log' || t === 'log') return { kind: 'log' }
  const sub = /^(?:text|application)\/(?:x-)?(.+)$/.exec(t)?.[1]
  return fromLanguage(sub === 'ecmascript' ? 'javascript' : sub)
}

/** File extensions, by the language name {@link fromLanguage} reads. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'jsx',
  py: 'python',
  pyi: 'python',
  json: 'json',
  md: 'markdown',
  markdown: 'markdown',
  log: 'log',
}

const fromPath = (path: string | undefined): Sniffed | undefined => {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path ?? '')?.[1]?.toLowerCase()
  return ext === undefined || !Object.hasOwn(EXTENSIONS, ext) ? undefined : fromLanguage(EXTENSIONS[ext])
}

const TS_LINE = /^(?:import\s.+from\s|import\s+['"]|export\s|(?:async\s+)?function[\s*]|(?:abstract\s+)?class\s+\w|interface\s+\w|type\s+\w+(?:<.*>)?\s*=|const\s+\w+|let\s+\w+|enum\s+\w)/
const PY_LINE = /^(?:from\s+[\w.]+\s+import\s|import\s+[\w.]+\s*$|(?:async\s+)?def\s+\w+\s*\(|class\s+\w+\s*[(:]|if\s+__name__\s*==)/
const MD_LINE = /^(?: {0,3}#{1,6}\s|\s*[-*+]\s|\s*\d+\.\s|```|~~~|>\s|\|.*\|\s*$)/
const LOG_LINE = /^\s*(?:\[?\d{4}-\d\d-\d\d|\[?\d\d:\d\d:\d\d|\[(?:INFO|DEBUG|WARN|ERROR|TRACE)\]|(?:INFO|DEBUG|WARN|WARNING|ERROR|TRACE|FATAL)\b|npm (?:ERR!|WARN)|>\s|\$\s|at\s+\S+\s+\(|\S+\.\w+[(:]\d+)/

/** Sniffs the text itself, on its first 200 lines (JSON aside). */
const fromText = (text: string): Sniffed => {
  const trimmed = text.trimStart()
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && jsonTree(text) !== undefined) return { kind: 'json' }
  const lines = withoutGutter(linesOf(text).slice(0, 200)).filter((l) => l.trim() !== '')
  if (lines.length < 2) return { kind: 'text' }
  const share = (re: RegExp): number => lines.filter((l) => re.test(l)).length / lines.length
  const starts = (re: RegExp): number => lines.filter((l) => re.test(l.trimStart())).length
  if (starts(/^#{1,6}\s/) > 0 && share(MD_LINE) >= 0.15 && starts(TS_LINE) + starts(PY_LINE) === 0) return { kind: 'markdown' }
  const ts = lines.filter((l) => TS_LINE.test(l)).length
  const py = lines.filter((l) => PY_LINE.test(l)).length
  const braces = share(/[{;]\s*$|^\s*[})]/)
  if (ts >= 2 && braces >= 0.2) return code('typescript')
  if (py >= 2 && share(/:\s*$/) >= 0.05) return code('python')
  const repeats = lines.filter((l, i) => i > 0 && lineShape(l) === lineShape(lines[i - 1]!)).length / lines.length
  if (share(LOG_LINE) >= 0.2 || lines.some((l) => ERROR_LINE.test(l) || WARNING_LINE.test(l)) || repeats >= 0.3) return { kind: 'log' }
  return { kind: 'text' }
}
