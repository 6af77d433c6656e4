/**
 * Validation of a build request at the edge: a bad field is an error naming it
 * (`history[3].role`), never a silent skip.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { readHistory } from './adapters/detect.js'
import type { Decoded } from './adapters/shape.js'
import { inputError, show, type InputError } from './error.js'
import type { ChatMessage } from './message.js'
import { extrasProblem, isRecord, messageProblem, partProblem, partsProblem, ROLES, type Problem } from './messageProblem.js'
import { PACKET_TYPES } from './packet.js'
import type { Request } from './phase.js'
import { timestampProblem } from './timestamp.js'

const PRIORITIES = [0, 1, 2, 3, 4]

/**
 * How far back a build can read a history: the history gatherer walks back from the newest
 * turn and stops once the turns' token lower bounds (plus one per turn) exceed the budget,
 * so no turn older than that is ever read.
 */
export interface HistoryReach {
  /** The available budget, in tokens. */
  readonly budget: number
  /** The build tokenizer's lower bound (`Tokenizer.lowerBound`). */
  readonly lowerBound: (text: string) => number
  /**
   * Whether the per-item cap cuts a turn's text (`capEnd`); default: no cap. The history
   * gatherer bounds what the cut leaves, not the whole text, so such a turn counts nothing
   * here: it must not end the check before the gatherer's walk ends.
   */
  readonly cut?: (text: string) => boolean
  /**
   * The history gatherer's message limit (`config.maxHistoryMessages`), when the build's
   * history gatherer is the default one: no turn before the last `window` after the leading
   * system turns is read, so none is checked. Default: no limit.
   */
  readonly window?: number
}

/**
 * Checks a request's shape. Every history turn is checked, unless `reach` is given: then
 * only the turns a build can read are (the leading system turns, and the newest turns back
 * to where their lower bounds pass the budget), so a build's cost does not grow with the
 * length of a history it only reads the end of. Turns older than that are never read; the
 * history gatherer reports them as one range.
 *
 * @example
 * validateRequest({ query: 'hi', history: [{ role: 'bot', content: 'x' }] })
 * // Left(history[0].role: must be one of system, user, assistant, tool (got "bot"))
 * @category constructors
 * @since 0.1.0
 */
export const validateRequest = (request: unknown, reach?: HistoryReach): E.Either<InputError, Request> => {
  if (!isRecord(request)) return E.left(inputError('request', `must be an object (got ${show(request)})`))
  if (typeof request['query'] !== 'string') return E.left(inputError('query', `must be a string (got ${show(request['query'])})`))
  const ins = request['instructions']
  if (ins !== undefined && typeof ins !== 'string') {
    if (!Array.isArray(ins)) return E.left(inputError('instructions', `must be a string or an array of strings (got ${show(ins)})`))
    const bad = ins.findIndex((x) => typeof x !== 'string')
    if (bad >= 0) return E.left(inputError(`instructions[${bad}]`, `must be a string (got ${show(ins[bad])})`))
  }
  const history = request['history']
  let read: ReadonlyArray<ChatMessage> | undefined
  if (history !== undefined) {
    if (!Array.isArray(history)) return E.left(inputError('history', `must be an array (got ${show(history)})`))
    const turns = readTurns(history, reach)
    if (E.isLeft(turns)) return turns
    read = turns.right
  }
  const packets = request['packets']
  if (packets !== undefined) {
    if (!Array.isArray(packets)) return E.left(inputError('packets', `must be an array (got ${show(packets)})`))
    // an index loop: `entries()` makes a pair for each of a thousand passages
    for (let i = 0; i < packets.length; i++) {
      const problem = packetProblem(packets[i])
      if (problem !== undefined) return E.left(inputError(`packets[${i}]${problem[0]}`, problem[1]))
    }
  }
  const media = request['media']
  if (media !== undefined) {
    if (!Array.isArray(media)) return E.left(inputError('media', `must be an array of image parts (got ${show(media)})`))
    for (const [i, m] of media.entries()) {
      if (!isRecord(m) || m['_tag'] !== 'Image') return E.left(inputError(`media[${i}]`, `must be an image part { _tag: 'Image', source } (got ${show(m)})`))
      const problem = partProblem(m)
      if (problem !== undefined) return E.left(inputError(`media[${i}]${problem[0]}`, problem[1]))
    }
  }
  return E.right((read === undefined ? request : { ...request, history: read }) as unknown as Request)
}

const ROLE_SET: ReadonlySet<unknown> = new Set(ROLES)

type BadTurn = readonly [number, Problem]

/** The turns a build can read (see {@link HistoryReach}): `[0, lead]` and `[from, length)`. */
export interface Reachable {
  readonly lead: number
  readonly from: number
}

/**
 * The turns a build can read: the leading system turns and the one after them, then newest
 * first until the bounds pass the budget. A turn's bound here never exceeds the gatherer's
 * (parts count 0, a turn that is not an object too, and so does a text the per-item cap
 * cuts, since the gatherer bounds what the cut leaves), so this reaches at least as far back as
 * the gatherer's walk. The in-memory rebuild (`src/rebuild/`) keeps these turns to compare.
 *
 * @category utils
 */
export const reachOf = (history: ReadonlyArray<unknown>, reach: HistoryReach): Reachable => {
  let lead = 0
  while (lead < history.length - 1 && isRecord(history[lead]) && (history[lead] as { readonly role?: unknown }).role === 'system') lead++
  const { cut } = reach
  // the oldest turn the gatherer's window lets in (its leading system turns are `[0, lead)`)
  const oldest = reach.window === undefined ? lead : Math.max(lead, history.length - reach.window)
  let bound = 0
  let i = history.length - 1
  for (; i > lead && i >= oldest && bound <= reach.budget; i--) {
    const turn = history[i]
    const content = isRecord(turn) ? turn['content'] : undefined
    bound += (typeof content === 'string' && (cut === undefined || !cut(content)) ? reach.lowerBound(content) : 0) + 1
  }
  return { lead, from: i + 1 }
}

/** The first bad turn in `[from, to)`; a hot loop: a turn's path is built only when it is wrong. */
const firstBadTurn = (history: ReadonlyArray<unknown>, from: number, to: number): BadTurn | undefined => {
  for (let i = from; i < to; i++) {
    const problem = turnProblem(history[i])
    if (problem !== undefined) return [i, problem]
  }
  return undefined
}

/**
 * A history as gssc messages when it is in an SDK's shape (read whole by its adapter, which
 * pairs calls and results across it), or `undefined` for gssc's own and plain turns, which
 * are checked. With `reach`, the shape is told from, and plain turns checked in, only the
 * turns a build can read, so a build's cost does not grow with the history's length; an
 * error is always named from the whole history.
 */
const readTurns = (history: ReadonlyArray<unknown>, reach: HistoryReach | undefined): E.Either<InputError, ReadonlyArray<ChatMessage> | undefined> => {
  const r = reach === undefined ? undefined : reachOf(history, reach)
  // one array of the turns read, not two slices and their spread
  let read: ReadonlyArray<unknown> = history
  if (r !== undefined && r.from > r.lead + 1) {
    const turns: unknown[] = []
    for (let i = 0; i <= r.lead; i++) turns.push(history[i])
    for (let i = r.from; i < history.length; i++) turns.push(history[i])
    read = turns
  }
  const sdk = readHistory(read)
  // an SDK shape, or an error in the turns read: the whole history, as its adapter reads it
  if (read !== history && (E.isLeft(sdk) || sdk.right !== undefined)) return E.map((d: Decoded | undefined) => d?.messages)(readHistory(history))
  if (E.isLeft(sdk) || sdk.right !== undefined) return E.map((d: Decoded | undefined) => d?.messages)(sdk)
  const bad = r === undefined || read === history ? firstBadTurn(history, 0, history.length) : (firstBadTurn(history, 0, r.lead + 1) ?? firstBadTurn(history, r.from, history.length))
  return bad === undefined ? E.right(undefined) : E.left(inputError(`history[${bad[0]}]${bad[1][0]}`, bad[1][1]))
}

/**
 * What is wrong with a history turn, or undefined: a `{ role, content, timestamp?, name? }`
 * turn (content a string or an array of parts) or a structured `{ role, parts }` one.
 *
 * @category utils
 */
export const turnProblem = (m: unknown): Problem | undefined => {
  if (!isRecord(m)) return ['', `must be an object with role and content (got ${show(m)})`]
  if (m['content'] === undefined && m['parts'] !== undefined) return messageProblem(m)
  if (!ROLE_SET.has(m['role'])) return ['.role', `must be one of ${ROLES.join(', ')} (got ${show(m['role'])})`]
  const content = m['content']
  if (typeof content !== 'string' && !Array.isArray(content)) return ['.content', `must be a string or an array of parts (got ${show(content)})`]
  return (typeof content === 'string' ? undefined : partsProblem(content, 'content')) ?? extrasProblem(m)
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
  const ts = p['timestamp'] === undefined ? undefined : timestampProblem(p['timestamp'])
  if (ts !== undefined) return ['.timestamp', ts]
  const rel = p['relevance']
  if (rel !== undefined && !(typeof rel === 'number' && rel >= 0 && rel <= 1)) return ['.relevance', `must be a number in [0, 1] (got ${show(rel)})`]
  if (p['source'] !== undefined && typeof p['source'] !== 'string') return ['.source', `must be a string (got ${show(p['source'])})`]
  if (p['metadata'] !== undefined && !isRecord(p['metadata'])) return ['.metadata', `must be an object (got ${show(p['metadata'])})`]
  if (p['group'] !== undefined && typeof p['group'] !== 'string') return ['.group', `must be a string (got ${show(p['group'])})`]
  const tokens = p['tokens']
  if (tokens !== undefined && !(Number.isSafeInteger(tokens) && (tokens as number) >= 0)) return ['.tokens', `must be a non-negative integer (got ${show(tokens)})`]
  if (p['message'] !== undefined) {
    const problem = messageProblem(p['message'])
    if (problem !== undefined) return [`.message${problem[0]}`, problem[1]]
  }
  return undefined
}
