/**
 * SKILL.md frontmatter: the block between the first two `---` lines, parsed with a real YAML
 * parser (nanobot v0.1.4 split `key: value` lines by hand and broke on quotes and nesting).
 * `metadata` may be a mapping or, as nanobot writes it, a JSON string on one line; both
 * are read.
 *
 * @module
 */
import { parseDocument } from 'yaml'

/** A split SKILL.md. `problem` says why `data` is empty when the frontmatter was unusable. */
export interface Frontmatter {
  readonly data: Readonly<Record<string, unknown>>
  readonly body: string
  readonly problem?: { readonly line: number; readonly message: string }
}

/** How many alias expansions a frontmatter may need before it counts as an alias bomb. */
export const MAX_ALIASES = 100

const FENCE = /^---[ \t]*\n(?:([\s\S]*?)\n)?---[ \t]*(?:\n|$)/

/**
 * Splits `text` (LF line endings) into parsed frontmatter and body. No frontmatter gives
 * empty data and the whole text as body; invalid YAML of any kind (syntax, duplicate keys,
 * an alias bomb, a list instead of a mapping) gives empty data, the body after the fence,
 * and a problem with its 1-based line in the file. Never throws.
 *
 * @example
 * parseFrontmatter('---\nname: weather\n---\n# Weather\n')
 * // { data: { name: 'weather' }, body: '# Weather\n' }
 * @category utils
 */
export const parseFrontmatter = (text: string): Frontmatter => {
  const fence = FENCE.exec(text)
  if (fence === null) return { data: {}, body: text }
  const body = text.slice(fence[0].length)
  const doc = parseDocument(fence[1] ?? '')
  const error = doc.errors[0]
  if (error !== undefined) {
    // +1: the YAML starts on the line after the opening fence
    const line = (error.linePos?.[0].line ?? 1) + 1
    return { data: {}, body, problem: { line, message: `frontmatter is not valid YAML: ${firstLine(error.message)}` } }
  }
  let data: unknown
  try {
    // a handful of aliases is normal; thousands ("billion laughs") only exhaust memory
    data = doc.toJS({ maxAliasCount: MAX_ALIASES })
  } catch (e) {
    return { data: {}, body, problem: { line: 2, message: `frontmatter cannot be read: ${firstLine(e instanceof Error ? e.message : String(e))}` } }
  }
  if (data == null) return { data: {}, body }
  return isRecord(data)
    ? { data, body }
    : { data: {}, body, problem: { line: 2, message: 'frontmatter must be a mapping of keys to values' } }
}

/** The result of reading `metadata`: the mapping, or why it could not be read. */
export type Metadata =
  | { readonly _tag: 'Ok'; readonly value: Readonly<Record<string, unknown>> }
  | { readonly _tag: 'Invalid'; readonly message: string }

/**
 * The `metadata` field as a mapping: a YAML mapping as is, a JSON string decoded, absent as
 * `{}`.
 *
 * @example
 * readMetadata('{"nanobot":{"requires":{"bins":["gh"]}}}') // Ok({ nanobot: { requires: … } })
 * @category utils
 */
export const readMetadata = (raw: unknown): Metadata => {
  if (raw == null || raw === '') return { _tag: 'Ok', value: {} }
  if (isRecord(raw)) return { _tag: 'Ok', value: raw }
  if (typeof raw !== 'string') return { _tag: 'Invalid', message: 'metadata must be a mapping or a JSON object string' }
  try {
    const value: unknown = JSON.parse(raw)
    return isRecord(value) ? { _tag: 'Ok', value } : { _tag: 'Invalid', message: 'metadata JSON must be an object' }
  } catch (e) {
    return { _tag: 'Invalid', message: `metadata is not valid JSON: ${e instanceof Error ? e.message : String(e)}` }
  }
}

/** A plain object (not an array or null). */
export const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The parser's first message line, without its own "at line …" (we give the file's line). */
const firstLine = (s: string): string => (s.split('\n')[0] ?? s).replace(/ at line \d+, column \d+:?$/, '')
