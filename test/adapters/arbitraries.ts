/**
 * Shared pieces of the adapters' generators: text, ids, argument objects, media.
 */
import fc from 'fast-check'
import { pngBase64 } from '../render/fixtures.js'

/** Text as people and models write it, including tags, quotes, CJK, empty and whitespace. */
export const text = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('read the file', 'done', '</tool_result>', 'a "quoted" word', '数据', 'ok ', '\n', 'Hi') },
  { weight: 1, arbitrary: fc.constantFrom('', '   ') },
  { weight: 2, arbitrary: fc.string({ maxLength: 16 }) },
)

/** A tool name. */
export const toolName = fc.constantFrom('read', 'ls', 'get_weather', 'search')

/** A tool call's argument object (JSON values only: they survive JSON text). */
export const args = fc.dictionary(fc.constantFrom('path', 'n', 'q', 'city', 'deep'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })

/** Argument JSON text as models write it: compact, or with spaces (kept byte for byte). */
export const argsText = fc.tuple(args, fc.constantFrom(undefined, 1)).map(([a, space]) => JSON.stringify(a, null, space))

/** `n` distinct call ids with a prefix, unique within a conversation by the counter. */
export const ids = (prefix: string, start: number, n: number): ReadonlyArray<string> => Array.from({ length: n }, (_, k) => `${prefix}${start + k}`)

/** A tiny real PNG, as base64. */
export const PNG = pngBase64(3, 2)

/** A few bytes standing for a PDF. */
export const PDF = 'JVBERi0xLjQKJcfs'

/** A list of 1-3 parallel calls' sizes, for a turn. */
export const parallel = fc.integer({ min: 1, max: 3 })
