/**
 * Shape checks of chat turns and their parts, for data that arrives untyped (JSON files, a
 * JavaScript caller, a user's gatherer). A problem is `[field path suffix, what is wrong]`,
 * so the caller prefixes where the turn came from: `history[2].content[0]: must be a part …`.
 *
 * They run before anything reads a part: a part of an unknown kind would otherwise reach an
 * exhaustive `switch` deep in a renderer and fail there, far from the input at fault.
 *
 * @module
 */
import { show } from './error.js'
import { timestampProblem } from './timestamp.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** `[field path suffix, problem]`, e.g. `['.content[0]', 'must be a part …']`. */
export type Problem = readonly [string, string]

/** The roles a turn may have. */
export const ROLES: ReadonlyArray<string> = ['system', 'user', 'assistant', 'tool']

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** A plain object (not null, not an array). @category utils */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const ROLE_SET: ReadonlySet<unknown> = new Set(ROLES)
const PART_KINDS = "a part: { _tag: 'Text', text } or an Image, Document, Thinking, ToolCall or ToolResult part"

/** The first field of `o` (by name) that is not of its expected kind. */
const field = (o: Record<string, unknown>, name: string, kind: 'string' | 'boolean' | 'object', optional = false): Problem | undefined => {
  const v = o[name]
  if (optional && v === undefined) return undefined
  const ok = kind === 'object' ? isRecord(v) : typeof v === kind
  return ok ? undefined : [`.${name}`, `must be ${kind === 'object' ? 'an object' : `a ${kind}`} (got ${show(v)})`]
}

const imageProblem = (p: Record<string, unknown>): Problem | undefined => {
  const s = p['source']
  if (!isRecord(s)) return ['.source', `must be { _tag: 'Base64', mimeType, data } or { _tag: 'Url', url } (got ${show(s)})`]
  if (s['_tag'] === 'Base64') return prefixed('.source', field(s, 'mimeType', 'string') ?? field(s, 'data', 'string'))
  if (s['_tag'] === 'Url') return prefixed('.source', field(s, 'url', 'string'))
  return ['.source._tag', `must be "Base64" or "Url" (got ${show(s['_tag'])})`]
}

const documentProblem = (p: Record<string, unknown>): Problem | undefined => {
  const s = p['source']
  const named = field(p, 'name', 'string', true)
  if (named !== undefined) return named
  if (!isRecord(s)) return ['.source', `must be a document source { _tag: 'Base64' | 'Url' | 'Text' | 'FileId', … } (got ${show(s)})`]
  // a decoder of untrusted input: the tag is any value, and `default` names what it got
  switch (s['_tag']) {
    case 'Base64':
      return prefixed('.source', field(s, 'mimeType', 'string') ?? field(s, 'data', 'string'))
    case 'Url':
      return prefixed('.source', field(s, 'url', 'string') ?? field(s, 'mimeType', 'string', true))
    case 'Text':
      return prefixed('.source', field(s, 'mimeType', 'string') ?? field(s, 'text', 'string'))
    case 'FileId':
      return prefixed('.source', field(s, 'id', 'string'))
    default:
      return ['.source._tag', `must be "Base64", "Url", "Text" or "FileId" (got ${show(s['_tag'])})`]
  }
}

const prefixed = (prefix: string, p: Problem | undefined): Problem | undefined => (p === undefined ? undefined : [`${prefix}${p[0]}`, p[1]])

/**
 * What is wrong with one part, or undefined.
 *
 * @example
 * partProblem(42) // ['', "must be a part: { _tag: 'Text', text } or … (got 42)"]
 * @category utils
 * @since 0.1.0
 */
export const partProblem = (p: unknown): Problem | undefined => {
  if (!isRecord(p)) return ['', `must be ${PART_KINDS} (got ${show(p)})`]
  // a decoder of untrusted input: the tag is any value, and `default` names what it got
  switch (p['_tag']) {
    case 'Text':
      return field(p, 'text', 'string') ?? field(p, 'refusal', 'boolean', true)
    case 'Image':
      return imageProblem(p)
    case 'Document':
      return documentProblem(p)
    case 'Thinking':
      return field(p, 'text', 'string') ?? field(p, 'signature', 'string', true) ?? field(p, 'redacted', 'boolean', true)
    case 'ToolCall':
      return field(p, 'id', 'string') ?? field(p, 'name', 'string') ?? field(p, 'args', 'object') ?? field(p, 'argsText', 'string', true)
    case 'ToolResult': {
      const first = field(p, 'callId', 'string') ?? field(p, 'name', 'string') ?? field(p, 'isError', 'boolean')
      if (first !== undefined) return first
      const content = p['content']
      if (!Array.isArray(content)) return ['.content', `must be an array of Text and Image parts (got ${show(content)})`]
      for (let i = 0; i < content.length; i++) {
        const c: unknown = content[i]
        const tag = isRecord(c) ? c['_tag'] : undefined
        if (tag !== 'Text' && tag !== 'Image') return [`.content[${i}]`, `must be a Text or Image part (got ${show(c)})`]
        const inner = partProblem(c)
        if (inner !== undefined) return [`.content[${i}]${inner[0]}`, inner[1]]
      }
      return undefined
    }
    default:
      return ['', `must be ${PART_KINDS} (got ${show(p)})`]
  }
}

/**
 * What is wrong with an array of parts (`key` names the field holding it), or undefined.
 *
 * @category utils
 * @since 0.1.0
 */
export const partsProblem = (parts: ReadonlyArray<unknown>, key: string): Problem | undefined => {
  // a hot loop on long histories: the path is built only for the part at fault
  for (let i = 0; i < parts.length; i++) {
    const problem = partProblem(parts[i])
    if (problem !== undefined) return [`.${key}[${i}]${problem[0]}`, problem[1]]
  }
  return undefined
}

/**
 * What is wrong with a structured turn (`{ role, parts, timestamp?, origin?, stopReason?, name? }`),
 * or undefined.
 *
 * @example
 * messageProblem({ role: 'user', parts: [{ _tag: 'Text', text: 1 }] }) // ['.parts[0].text', 'must be a string (got 1)']
 * @category utils
 * @since 0.1.0
 */
export const messageProblem = (m: unknown): Problem | undefined => {
  if (!isRecord(m)) return ['', `must be a chat message { role, parts } (got ${show(m)})`]
  if (!ROLE_SET.has(m['role'])) return ['.role', `must be one of ${ROLES.join(', ')} (got ${show(m['role'])})`]
  if (!Array.isArray(m['parts'])) return ['.parts', `must be an array of parts (got ${show(m['parts'])})`]
  return partsProblem(m['parts'], 'parts') ?? extrasProblem(m)
}

/**
 * The optional fields every turn may carry. Each read by name first (every turn a build reads
 * comes here; `field`'s read by a key that changes is a slow generic lookup), `field` only
 * for the one at fault.
 *
 * @category utils
 */
export const extrasProblem = (m: Record<string, unknown>): Problem | undefined => {
  const ts = m['timestamp']
  if (ts !== undefined) {
    const problem = timestampProblem(ts)
    if (problem !== undefined) return ['.timestamp', problem]
  }
  const name = m['name']
  const stopReason = m['stopReason']
  const origin = m['origin']
  if ((name === undefined || typeof name === 'string') && (stopReason === undefined || typeof stopReason === 'string') && (origin === undefined || isRecord(origin))) return undefined
  return field(m, 'name', 'string', true) ?? field(m, 'stopReason', 'string', true) ?? field(m, 'origin', 'object', true)
}
