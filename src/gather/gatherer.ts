/**
 * The gatherer contract. A gatherer is a named function from the request to a TaskEither of
 * packets; its failures are values that the build reports, never silently dropped.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { Config } from '../config.js'
import { describeThrown } from '../error.js'
import type { Packet, PacketInput } from '../packet.js'
import type { Exclusion, GatherFailure, Request, Warning } from '../phase.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { checkOutput, checkPackets } from './check.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What a gatherer receives. `signal` aborts when its time is up or the build fails fast. */
export interface GatherInput {
  readonly request: Request
  readonly config: Config
  /** The build's clock, epoch milliseconds. */
  readonly now: number
  readonly signal: AbortSignal
  /** The build's tokenizer, for gatherers that cap or bound their output in tokens. */
  readonly tokenizer: Tokenizer
  /** The build reads every history turn (`GatherOptions.readAllHistory`), not only those that can fit. */
  readonly readAllHistory?: boolean
}

/**
 * What a gatherer yields: packets, the failures of any gatherers nested inside it, and
 * candidates it left out itself (with the reason), so nothing vanishes unreported.
 */
export interface GatherOutput {
  readonly packets: ReadonlyArray<Packet>
  readonly failures: ReadonlyArray<GatherFailure>
  readonly excluded?: ReadonlyArray<Exclusion>
  /** What the sources said that the report should carry (`SourceProblem`s). */
  readonly warnings?: ReadonlyArray<Warning>
}

/** Packets a gatherer function found, what it left out on purpose, and what its source said. */
export interface GatheringWithExclusions {
  readonly packets: ReadonlyArray<PacketInput>
  readonly excluded: ReadonlyArray<Exclusion>
  readonly warnings?: ReadonlyArray<Warning>
}

/** What a plain gatherer function returns: packets, or packets with what it left out and why. */
export type Gathering = ReadonlyArray<PacketInput> | GatheringWithExclusions

/** A named source of packets. */
export interface Gatherer {
  readonly name: string
  (input: GatherInput): TE.TaskEither<GatherFailure, GatherOutput>
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Makes a gatherer from a plain (sync or async) function returning packets (or packets and
 * what it left out, and why). A throw or rejection becomes a `GatherFailure` naming the
 * gatherer; so does a packet that is not valid (checked like a request's packets), naming
 * its index.
 *
 * @example
 * const notes = gatherer('notes', async ({ request }) => [{ type: 'custom', content: await loadNotes(request.query) }])
 * @category constructors
 * @since 0.1.0
 */
export const gatherer = (
  name: string,
  run: (input: GatherInput) => Gathering | Promise<Gathering>,
): Gatherer =>
  named(
    name,
    (input) => async () => {
      try {
        const out = await run(input)
        const { packets, excluded, warnings } = Array.isArray(out) ? { packets: out as ReadonlyArray<PacketInput>, excluded: undefined, warnings: undefined } : (out as GatheringWithExclusions)
        return E.map((checked: ReadonlyArray<Packet>): GatherOutput => ({
          packets: checked,
          failures: [],
          ...(excluded === undefined ? {} : { excluded }),
          ...(warnings === undefined ? {} : { warnings }),
        }))(checkPackets(name, packets, input.now))
      } catch (e) {
        return E.left({ gatherer: name, reason: 'error' as const, message: describeThrown(e) })
      }
    },
  )

/**
 * Gives a gatherer function its name (a function's own `name` is read-only).
 *
 * @category constructors
 * @since 0.1.0
 */
export const named = (
  name: string,
  run: (input: GatherInput) => TE.TaskEither<GatherFailure, GatherOutput>,
): Gatherer => Object.defineProperty(run, 'name', { value: name }) as Gatherer

/**
 * Gives a built-in gatherer its name and marks its packets as complete: they are made by
 * gssc from input already checked (the request's history turns), so the answer's shape is
 * checked but its packets are not checked and completed a second time. Not exported from
 * the package: a user's gatherer is always checked in full.
 *
 * @category constructors
 */
export const builtin = (name: string, run: (input: GatherInput) => TE.TaskEither<GatherFailure, GatherOutput>): Gatherer =>
  Object.defineProperty(named(name, run), BUILT_IN, { value: true })

/** The mark {@link builtin} sets; a symbol, so no JSON or user field can carry it. */
const BUILT_IN = Symbol('gssc.builtin')

/** The mark {@link immediate} sets. */
const IMMEDIATE = Symbol('gssc.immediate')

/**
 * Marks one of gssc's own gatherers that runs no user code and awaits nothing outside the
 * build (instructions, task, history, the request's packets): it settles within the
 * microtasks of its call, before any timer can fire, so a time limit cannot end it and no
 * one reads its abort signal. {@link withTimeout} and `composite` then run it without a
 * timer or an `AbortController` (a plain build made five of each). A gatherer that awaits a
 * retriever, a file or a user's function must not be marked: it would lose its time limit.
 *
 * @category constructors
 */
export const immediate = (g: Gatherer): Gatherer => Object.defineProperty(g, IMMEDIATE, { value: true })

/** Whether {@link immediate} marked `g`. */
export const isImmediate = (g: Gatherer): boolean => (g as { readonly [IMMEDIATE]?: boolean })[IMMEDIATE] === true

/**
 * Runs a gatherer with a time limit. On timeout the gatherer's signal is aborted (so a
 * well-behaved retriever stops its request) and a `timeout` failure is returned. What it
 * returns is checked (`checkOutput`): a malformed answer or packet becomes a failure naming
 * the gatherer.
 *
 * @category combinators
 * @since 0.1.0
 */
export const withTimeout =
  (g: Gatherer, timeoutMs: number) =>
  (input: GatherInput): TE.TaskEither<GatherFailure, GatherOutput> =>
  () => {
    const checked = (answer: Promise<unknown>): Promise<E.Either<GatherFailure, GatherOutput>> =>
      answer
        .then((r: unknown) => checkOutput(g.name, r, input.now, (g as { readonly [BUILT_IN]?: boolean })[BUILT_IN] === true))
        .catch((e: unknown) => E.left<GatherFailure>({ gatherer: g.name, reason: 'error', message: describeThrown(e) }))
    // settles before any timer could fire (see `immediate`): no limit to keep, no signal to abort
    if (isImmediate(g)) return checked(Promise.resolve().then(() => g(input)()))
    const controller = new AbortController()
    const forward = (): void => controller.abort(input.signal.reason)
    input.signal.addEventListener('abort', forward, { once: true })
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = new Promise<E.Either<GatherFailure, GatherOutput>>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new Error(`timed out after ${timeoutMs} ms`))
        resolve(E.left({ gatherer: g.name, reason: 'timeout', message: `no answer within ${timeoutMs} ms` }))
      }, timeoutMs)
    })
    const run = checked(Promise.resolve().then(() => g({ ...input, signal: controller.signal })()))
    return Promise.race([run, timedOut]).finally(() => {
      clearTimeout(timer)
      input.signal.removeEventListener('abort', forward)
    })
  }
