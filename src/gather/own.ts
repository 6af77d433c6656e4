/**
 * gssc's own gatherers as answers, not tasks. Instructions, task, history and the request's
 * packets read only the checked request and the build's settings: nothing to await, time,
 * abort or check again. A build of those alone (`build` without memory, RAG or gatherers of
 * its own) has them answer in order, synchronously; as gatherer values they behave as any
 * other. Not exported from the package: a user's gatherer is always a task, under its time
 * limit, and its packets are always checked.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { describeThrown } from '../error.js'
import type { Packet } from '../packet.js'
import type { Exclusion, GatherFailure, Warning } from '../phase.js'
import type { CompositeOptions } from './composite.js'
import { builtin, immediate, type Gatherer, type GatherInput, type GatherOutput } from './gatherer.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What one of gssc's own gatherers reads: a gather input less its abort signal, which
 * nothing that settles at once can need.
 */
export type OwnInput = Omit<GatherInput, 'signal'>

/** The answer of one of gssc's own gatherers, made at once (see {@link own}). */
export type OwnAnswer = (input: OwnInput) => GatherOutput

/** The mark {@link own} sets: the answer, to run without a task. */
const ANSWER = Symbol('gssc.answer')

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * One of gssc's own gatherers (instructions, task, history, the request's packets), from
 * its answer: a plain function that reads only the checked request and the build's
 * settings, so it is {@link immediate} and {@link builtin}. A build of those alone runs the
 * answers in order, synchronously (`settleAll`): no task, promise, timer, abort signal or
 * second check of what they made, which a plain build paid for each of the four. As a
 * gatherer value (in a user's `composite`) it answers the same, and a throw (a failing
 * tokenizer) is a failure naming it. Not for a user's gatherer: its packets must be checked.
 *
 * @category constructors
 */
export const own = (name: string, answer: OwnAnswer): Gatherer =>
  Object.defineProperty(immediate(builtin(name, (input) => async () => answered(name, answer, input))), ANSWER, { value: answer })

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** The answer {@link own} gave `g`, if it is one of gssc's own. */
export const answerOf = (g: Gatherer): OwnAnswer | undefined => (g as { readonly [ANSWER]?: OwnAnswer })[ANSWER]

/**
 * An own gatherer's answer as its task would give it: a throw is a failure naming the
 * gatherer, as `withTimeout` reports a rejection.
 *
 * @category utils
 */
export const answered = (name: string, answer: OwnAnswer, input: OwnInput): E.Either<GatherFailure, GatherOutput> => {
  try {
    return E.right(answer(input))
  } catch (e) {
    return E.left({ gatherer: name, reason: 'error', message: describeThrown(e) })
  }
}

/**
 * What `composite` answers for gatherers that are all gssc's own (`own`), made at once: each
 * answer in their order, a throw a failure naming its gatherer (with `onError: 'fail'`, the
 * first one the answer), and the answers merged as `composite` merges them. `undefined` when
 * one of them is not gssc's own: then they run as tasks, under their time limits. The gather
 * stage calls it first, so a plain build makes no task, promise or abort signal to gather.
 *
 * @category utils
 */
export const settleAll = (gatherers: ReadonlyArray<Gatherer>, input: OwnInput, options: Pick<CompositeOptions, 'onError'> = {}): E.Either<GatherFailure, GatherOutput> | undefined => {
  for (const g of gatherers) if (typeof g !== 'function' || answerOf(g) === undefined) return undefined
  // the answers' packets joined once, by `concat`, not pushed one by one into a growing array
  const packets: Array<ReadonlyArray<Packet>> = []
  const failures: GatherFailure[] = []
  const excluded: Exclusion[] = []
  const warnings: Warning[] = []
  for (const g of gatherers) {
    const r = answered(g.name, answerOf(g)!, input)
    if (E.isLeft(r)) {
      if (options.onError === 'fail') return r
      failures.push(r.left)
      continue
    }
    packets.push(r.right.packets)
    for (const f of r.right.failures) failures.push(f)
    for (const x of r.right.excluded ?? []) excluded.push(x)
    for (const w of r.right.warnings ?? []) warnings.push(w)
  }
  return E.right({ packets: ([] as Packet[]).concat(...packets), failures, excluded, warnings })
}
