/**
 * Runs several gatherers as one, in parallel or in sequence, each under a time limit.
 * With `onError: 'continue'` a failing or hanging gatherer is reported in `failures` and the
 * others' packets are kept; with `'fail'` the first failure fails the whole gather.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { show } from '../error.js'
import type { Exclusion, GatherFailure, Warning } from '../phase.js'
import { isImmediate, named, withTimeout, type Gatherer, type GatherInput, type GatherOutput } from './gatherer.js'
import { settleAll } from './own.js'

/** How a composite runs its gatherers. */
export interface CompositeOptions {
  /** Run all at once (default) or one after another. */
  readonly parallel?: boolean
  /** Per-gatherer time limit in milliseconds; default 30 000. */
  readonly timeoutMs?: number
  /** `continue` (default): report failures and go on. `fail`: fail fast. */
  readonly onError?: 'continue' | 'fail'
  readonly name?: string
}

/** The default per-gatherer time limit. */
export const DEFAULT_TIMEOUT_MS = 30_000

/**
 * @example
 * composite([instructions(), task(), history(), rag(search, { topK: 5 })], { parallel: true, timeoutMs: 2000 })
 * @category combinators
 * @since 0.1.0
 */
export const composite = (gatherers: ReadonlyArray<Gatherer>, options: CompositeOptions = {}): Gatherer => {
  const name = options.name ?? 'composite'
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const failFast = options.onError === 'fail'
  const run =
    (input: GatherInput): TE.TaskEither<GatherFailure, GatherOutput> =>
    async () => {
      const settled = settleAll(gatherers, input, options)
      if (settled !== undefined) return settled
      // gssc's own gatherers read no signal and settle at once (see `immediate`): with only
      // those there is nothing to abort, and no controller is made
      const controller = gatherers.every((g) => typeof g === 'function' && isImmediate(g)) ? undefined : new AbortController()
      const forward = (): void => controller?.abort(input.signal.reason)
      if (controller !== undefined) input.signal.addEventListener('abort', forward, { once: true })
      const child = controller === undefined ? input : { ...input, signal: controller.signal }
      const one = (g: Gatherer, i: number): Promise<E.Either<GatherFailure, GatherOutput>> =>
        typeof g !== 'function'
          ? Promise.resolve(E.left({ gatherer: `${name}[${i}]`, reason: 'error', message: `must be a gatherer function (got ${show(g)})` }))
          : withTimeout(g.name === '' ? named(`${name}[${i}]`, g) : g, timeoutMs)(child)()
      try {
        const results: Array<E.Either<GatherFailure, GatherOutput>> = []
        if (options.parallel === false) {
          for (const [i, g] of gatherers.entries()) {
            const r = await one(g, i)
            results.push(r)
            if (failFast && E.isLeft(r)) break
          }
        } else if (failFast) {
          // Promise.all settles at the first rejection: a failure stops the wait for the others
          const failing = gatherers.map((g, i) =>
            one(g, i).then((r) => (E.isLeft(r) ? Promise.reject(r) : r)),
          )
          try {
            results.push(...(await Promise.all(failing)))
          } catch (r) {
            return r as E.Left<GatherFailure>
          }
        } else results.push(...(await Promise.all(gatherers.map((g, i) => one(g, i)))))
        const packets = []
        const failures: GatherFailure[] = []
        const excluded: Exclusion[] = []
        const warnings: Warning[] = []
        for (const r of results) {
          if (E.isLeft(r)) {
            if (failFast) return r
            failures.push(r.left)
          } else {
            for (const p of r.right.packets) packets.push(p)
            failures.push(...r.right.failures)
            excluded.push(...(r.right.excluded ?? []))
            warnings.push(...(r.right.warnings ?? []))
          }
        }
        return E.right({ packets, failures, excluded, warnings })
      } finally {
        if (controller !== undefined) {
          controller.abort(new Error(`${name} finished`))
          input.signal.removeEventListener('abort', forward)
        }
      }
    }
  return named(name, run)
}

