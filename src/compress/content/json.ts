/**
 * The JSON compressor: arrays keep their first and last items around a `"... N more items"`
 * marker, objects their first members around a `"...": "N more keys"` member, long strings
 * their start with `... [N more chars]`, and values nested past a depth become one summary
 * string. The result is always valid JSON, made of the input's own keys and scalars (their
 * source text, so `1.50` and big integers survive as written) plus those markers, written
 * compactly.
 *
 * Parsing is `jsonc-parser`'s, in strict mode (no comments, no trailing commas): it gives
 * each value's source offsets, which `JSON.parse` does not.
 *
 * @module
 */
import { parseTree, type Node, type ParseError } from 'jsonc-parser'
import type { Tokenizer } from '../../tokenize/tokenizer.js'
import { fitLadder, type Rendering } from './ladder.js'
import { declined, type ContentCompressor, type ContentResult, type Removal } from './model.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** How much of each container and string a rung keeps. */
interface Rung {
  /** Array items kept (head and tail). */
  readonly items: number
  /** Object members kept, first ones. */
  readonly keys: number
  /** String characters kept. */
  readonly chars: number
  /** Containers nested deeper than this become a summary string. */
  readonly depth: number
}

const ALL = Number.POSITIVE_INFINITY

/** Gentlest first. Keys (the schema) go last: values and repeats carry less meaning. */
const RUNGS: ReadonlyArray<Rung> = [
  { items: ALL, keys: ALL, chars: ALL, depth: ALL },
  { items: 64, keys: ALL, chars: 2000, depth: ALL },
  { items: 32, keys: ALL, chars: 1000, depth: ALL },
  { items: 16, keys: ALL, chars: 500, depth: ALL },
  { items: 10, keys: ALL, chars: 240, depth: ALL },
  { items: 6, keys: 64, chars: 120, depth: ALL },
  { items: 4, keys: 32, chars: 80, depth: 12 },
  { items: 2, keys: 16, chars: 48, depth: 8 },
  { items: 2, keys: 8, chars: 32, depth: 6 },
  { items: 1, keys: 6, chars: 24, depth: 4 },
  { items: 1, keys: 4, chars: 16, depth: 3 },
  { items: 1, keys: 3, chars: 12, depth: 2 },
  { items: 0, keys: 2, chars: 8, depth: 1 },
  { items: 0, keys: 0, chars: 8, depth: 0 },
]

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The parsed tree of a strict JSON text, or undefined when it is not one.
 *
 * @category utils
 * @since 0.1.0
 */
export const jsonTree = (text: string): Node | undefined => {
  const errors: ParseError[] = []
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false })
  return errors.length === 0 ? root : undefined
}

/**
 * Compresses a JSON text (see the module comment). Declines text that is not strict JSON.
 *
 * @example
 * compressJson(JSON.stringify({ rows: Array.from({ length: 100 }, (_, i) => i) }), 60, tokenizer)
 * // Fitted: {"rows":[0,1,…,"... 68 more items",…,99]}
 * @category compressors
 * @since 0.1.0
 */
export const compressJson: ContentCompressor = (text: string, targetTokens: number, counter: Tokenizer): ContentResult => {
  const root = jsonTree(text)
  if (root === undefined) return declined('not strict JSON')
  return fitLadder(RUNGS.length, (i) => renderJson(text, root, RUNGS[i]!), targetTokens, counter)
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** The marker string for `n` array items left out. */
export const moreItems = (n: number): string => `... ${n} more item${n === 1 ? '' : 's'}`

const moreKeys = (n: number): string => `${n} more key${n === 1 ? '' : 's'}`

/** A JSONPath-like step: `.name` for identifier keys, `["…"]` otherwise. */
const step = (key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`)

/** Never end a kept string between the halves of a surrogate pair. */
const codePointCut = (s: string, end: number): number => {
  const c = s.charCodeAt(end - 1)
  return c >= 0xd800 && c <= 0xdbff ? end - 1 : end
}

const renderJson = (source: string, root: Node, rung: Rung): Rendering => {
  const removed: Removal[] = []
  const raw = (n: Node): string => source.slice(n.offset, n.offset + n.length)
  const walk = (n: Node, path: string, depth: number): string => {
    // jsonc-parser's node type, in a recursive walk over every node: a switch whose every case
    // returns, so a new node type fails to compile (the function would lack a return)
    switch (n.type) {
      case 'string': {
        const value = n.value as string
        if (value.length <= rung.chars) return raw(n)
        const end = codePointCut(value, rung.chars)
        removed.push({ _tag: 'StringChars', path, chars: value.length - end })
        return JSON.stringify(`${value.slice(0, end)}... [${value.length - end} more chars]`)
      }
      case 'number':
      case 'boolean':
      case 'null':
        return raw(n)
      case 'array': {
        const items = n.children ?? []
        if (depth >= rung.depth && items.length > 0) {
          removed.push({ _tag: 'Subtree', path, values: items.length })
          return JSON.stringify(`[... ${items.length} items]`)
        }
        if (items.length <= rung.items) return `[${items.map((c, i) => walk(c, `${path}[${i}]`, depth + 1)).join(',')}]`
        const head = Math.ceil(rung.items / 2)
        const tail = rung.items - head
        const gap = items.length - head - tail
        removed.push({ _tag: 'ArrayItems', path, items: gap })
        const kept = [
          ...items.slice(0, head).map((c, i) => walk(c, `${path}[${i}]`, depth + 1)),
          JSON.stringify(moreItems(gap)),
          ...items.slice(items.length - tail).map((c, i) => walk(c, `${path}[${head + gap + i}]`, depth + 1)),
        ]
        return `[${kept.join(',')}]`
      }
      case 'object': {
        const members = n.children ?? []
        if (depth >= rung.depth && members.length > 0) {
          removed.push({ _tag: 'Subtree', path, values: members.length })
          return JSON.stringify(`{... ${members.length} keys}`)
        }
        const shown = members.slice(0, rung.keys).map((p) => {
          const [key, value] = p.children as [Node, Node]
          return `${raw(key)}:${walk(value, path + step(key.value as string), depth + 1)}`
        })
        const left = members.length - shown.length
        if (left > 0) {
          removed.push({ _tag: 'ObjectKeys', path, keys: left })
          shown.push(`"...":${JSON.stringify(moreKeys(left))}`)
        }
        return `{${shown.join(',')}}`
      }
      case 'property':
        // properties are only reached through their object
        return raw(n)
    }
  }
  return { text: walk(root, '$', 0), removed }
}
