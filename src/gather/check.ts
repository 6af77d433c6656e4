/**
 * Checks what a gatherer returns before any later stage reads it. Gatherers are often the
 * user's own code (a retriever, a memory store), so their packets are validated exactly like
 * a request's packets (`packetProblem`): a bad one becomes a failure naming the gatherer and
 * the packet's index (`packets[3].content: must be a string`), not a `TypeError` thrown from
 * deep inside the selector or a renderer.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { describeThrown, show } from '../error.js'
import { isRecord } from '../messageProblem.js'
import { packet, type Packet, type PacketInput } from '../packet.js'
import type { Exclusion, GatherFailure, Warning } from '../phase.js'
import { packetProblem } from '../request.js'
import type { GatherOutput } from './gatherer.js'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const failure = (gatherer: string, message: string): GatherFailure => ({ gatherer, reason: 'error', message })

/**
 * Checks and completes the packets a gatherer returned: each must pass `packetProblem`.
 *
 * @category utils
 * @since 0.1.0
 */
export const checkPackets = (gatherer: string, packets: unknown, now: number): E.Either<GatherFailure, ReadonlyArray<Packet>> => {
  if (!Array.isArray(packets)) return E.left(failure(gatherer, `must return an array of packets (got ${show(packets)})`))
  const out: Packet[] = []
  for (let i = 0; i < packets.length; i++) {
    const p: unknown = packets[i]
    const problem = packetProblem(p)
    if (problem !== undefined) return E.left(failure(gatherer, `packets[${i}]${problem[0]}: ${problem[1]}`))
    out.push(packet(p as PacketInput, now))
  }
  return E.right(out)
}

const isFailure = (v: unknown): v is GatherFailure =>
  isRecord(v) && typeof v['gatherer'] === 'string' && (v['reason'] === 'error' || v['reason'] === 'timeout') && typeof v['message'] === 'string'

const isExclusion = (v: unknown): v is Exclusion => isRecord(v) && typeof v['id'] === 'string' && typeof v['reason'] === 'string'

/**
 * Checks a gatherer's whole answer: an `Either` of a failure or `{ packets, failures, excluded? }`.
 * Anything else (a plain array, a Left holding a thrown error) is turned into a failure
 * naming the gatherer. `complete`: the packets come from a built-in gatherer and are taken
 * as they are.
 *
 * @category utils
 * @since 0.1.0
 */
export const checkOutput = (gatherer: string, r: unknown, now: number, complete = false): E.Either<GatherFailure, GatherOutput> => {
  if (!isRecord(r) || (r['_tag'] !== 'Left' && r['_tag'] !== 'Right'))
    return E.left(failure(gatherer, `must resolve to an Either of { packets, failures } (got ${show(r)})`))
  if (r['_tag'] === 'Left') return E.left(isFailure(r['left']) ? r['left'] : failure(gatherer, describeThrown(r['left'])))
  const out = r['right']
  if (!isRecord(out)) return E.left(failure(gatherer, `must resolve to Right({ packets, failures }) (got ${show(out)})`))
  // a built-in gatherer's packets are complete and made from checked input (see `builtin`)
  const packets = complete && Array.isArray(out['packets']) ? E.right(out['packets'] as ReadonlyArray<Packet>) : checkPackets(gatherer, out['packets'], now)
  if (E.isLeft(packets)) return packets
  const failures = out['failures'] ?? []
  if (!Array.isArray(failures) || !failures.every(isFailure))
    return E.left(failure(gatherer, `failures: must be an array of { gatherer, reason, message } (got ${show(failures)})`))
  const excluded = out['excluded'] ?? []
  if (!Array.isArray(excluded) || !excluded.every(isExclusion))
    return E.left(failure(gatherer, `excluded: must be an array of { id, reason } (got ${show(excluded)})`))
  const warnings = out['warnings'] ?? []
  if (!Array.isArray(warnings) || !warnings.every((w) => isRecord(w) && typeof w['_tag'] === 'string' && typeof w['message'] === 'string'))
    return E.left(failure(gatherer, `warnings: must be an array of { _tag, message } (got ${show(warnings)})`))
  return E.right({ packets: packets.right, failures, excluded, warnings: warnings as ReadonlyArray<Warning> })
}
