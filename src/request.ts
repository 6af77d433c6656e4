/**
 * Validation of a build request at the edge: a bad field is an error naming it
 * (`history[3].role`), never a silent skip.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { inputError, show, type InputError } from './error.js'
import { PACKET_TYPES } from './packet.js'
import type { Request } from './phase.js'

const ROLES = ['system', 'user', 'assistant', 'tool']
const PRIORITIES = [0, 1, 2, 3, 4]

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Checks a request's shape.
 *
 * @example
 * validateRequest({ query: 'hi', history: [{ role: 'bot', content: 'x' }] })
 * // Left(history[0].role: must be one of system, user, assistant, tool (got "bot"))
 * @category constructors
 * @since 0.1.0
 */
export const validateRequest = (request: unknown): E.Either<InputError, Request> => {
  if (!isRecord(request)) return E.left(inputError('request', `must be an object (got ${show(request)})`))
  if (typeof request['query'] !== 'string') return E.left(inputError('query', `must be a string (got ${show(request['query'])})`))
  const ins = request['instructions']
  if (ins !== undefined && typeof ins !== 'string' && !(Array.isArray(ins) && ins.every((x) => typeof x === 'string')))
    return E.left(inputError('instructions', `must be a string or an array of strings (got ${show(ins)})`))
  const history = request['history']
  if (history !== undefined) {
    if (!Array.isArray(history)) return E.left(inputError('history', `must be an array (got ${show(history)})`))
    // a hot loop on long histories: the path of a turn is built only when it is wrong
    for (let i = 0; i < history.length; i++) {
      const problem = turnProblem(history[i])
      if (problem !== undefined) return E.left(inputError(`history[${i}]${problem[0]}`, problem[1]))
    }
  }
  const packets = request['packets']
  if (packets !== undefined) {
    if (!Array.isArray(packets)) return E.left(inputError('packets', `must be an array (got ${show(packets)})`))
    for (const [i, p] of packets.entries()) {
      const problem = packetProblem(p)
      if (problem !== undefined) return E.left(inputError(`packets[${i}]${problem[0]}`, problem[1]))
    }
  }
  const media = request['media']
  if (media !== undefined) {
    if (!Array.isArray(media)) return E.left(inputError('media', `must be an array of image parts (got ${show(media)})`))
    for (const [i, m] of media.entries())
      if (!isRecord(m) || m['_tag'] !== 'Image' || !isRecord(m['source']))
        return E.left(inputError(`media[${i}]`, `must be an image part { _tag: 'Image', source } (got ${show(m)})`))
  }
  return E.right(request as unknown as Request)
}

const ROLE_SET: ReadonlySet<unknown> = new Set(ROLES)

/** What is wrong with a history turn, as `[field suffix, problem]`, or undefined. */
const turnProblem = (m: unknown): readonly [string, string] | undefined => {
  if (!isRecord(m)) return ['', `must be an object with role and content (got ${show(m)})`]
  if (!ROLE_SET.has(m['role'])) return ['.role', `must be one of ${ROLES.join(', ')} (got ${show(m['role'])})`]
  const content = m['content']
  if (typeof content !== 'string' && !Array.isArray(content) && !Array.isArray(m['parts']))
    return ['.content', `must be a string or an array of parts (got ${show(content)})`]
  const ts = m['timestamp']
  if (ts !== undefined && !(typeof ts === 'number' && Number.isFinite(ts)) && !(typeof ts === 'string' && !Number.isNaN(Date.parse(ts))))
    return ['.timestamp', `must be epoch milliseconds or an ISO-8601 date (got ${show(ts)})`]
  return undefined
}

/**
 * What is wrong with a packet input, as `[field suffix, problem]`, or undefined.
 *
 * @category utils
 */
export const packetProblem = (p: unknown): readonly [string, string] | undefined => {
  if (!isRecord(p)) return ['', `must be an object (got ${show(p)})`]
  if (!PACKET_TYPES.includes(p['type'] as never)) return ['.type', `must be one of ${PACKET_TYPES.join(', ')} (got ${show(p['type'])})`]
  if (typeof p['content'] !== 'string') return ['.content', `must be a string (got ${show(p['content'])})`]
  if (p['id'] !== undefined && (typeof p['id'] !== 'string' || p['id'] === '')) return ['.id', `must be a non-empty string (got ${show(p['id'])})`]
  if (p['priority'] !== undefined && !PRIORITIES.includes(p['priority'] as number)) return ['.priority', `must be 0, 1, 2, 3 or 4 (got ${show(p['priority'])})`]
  const ts = p['timestamp']
  if (ts !== undefined && !(typeof ts === 'number' && Number.isFinite(ts))) return ['.timestamp', `must be epoch milliseconds (got ${show(ts)})`]
  const rel = p['relevance']
  if (rel !== undefined && !(typeof rel === 'number' && rel >= 0 && rel <= 1)) return ['.relevance', `must be a number in [0, 1] (got ${show(rel)})`]
  if (p['source'] !== undefined && typeof p['source'] !== 'string') return ['.source', `must be a string (got ${show(p['source'])})`]
  if (p['metadata'] !== undefined && !isRecord(p['metadata'])) return ['.metadata', `must be an object (got ${show(p['metadata'])})`]
  return undefined
}
