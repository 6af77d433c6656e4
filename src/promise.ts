/**
 * The Promise facade, for code that does not use fp-ts: a `TaskEither` run to a Promise that
 * resolves with the result, or rejects with the `GsscError` (as an `Error`, so it has a stack
 * and works with `catch (e) { e.message }`, carrying every field of the error value).
 *
 * A `TaskEither` is a function: forgetting its trailing `()` in JavaScript gives a function,
 * neither Left nor Right. The facade's functions return real Promises, so `await` just works.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { GsscError } from './error.js'
import { build, type BuildOptions } from './pipeline.js'
import type { Renderer } from './output.js'
import type { Request } from './phase.js'
import type { BuildResult } from './report.js'

/** A `GsscError` as an `Error`: what the facade rejects with. */
export type GsscFailure = Error & GsscError

/**
 * The error value as an `Error` with its fields.
 *
 * @category utils
 * @since 0.2.0
 */
export const toFailure = (e: GsscError): GsscFailure => Object.assign(new Error(e.message), e)

/**
 * Runs a `TaskEither`: resolves with its Right, rejects with its Left as a {@link GsscFailure}.
 *
 * @example
 * const result = await toPromise(build(request))
 * @category utils
 * @since 0.2.0
 */
export const toPromise = async <A>(task: TE.TaskEither<GsscError, A>): Promise<A> => {
  const r = await task()
  if (E.isLeft(r)) throw toFailure(r.left)
  return r.right
}

/**
 * `build` as a Promise: the default pipeline in one call, for code outside fp-ts.
 *
 * @example
 * try {
 *   const { output, tokenCount } = await buildContext({ query, instructions, history }, { config: { maxTokens: 4000 } })
 * } catch (e) {
 *   console.error(e.message) // e.g. "config.maxTokens: must be a positive integer (got 0)"
 * }
 * @category stages
 * @since 0.2.0
 */
export function buildContext(request: Request, options?: BuildOptions<string>): Promise<BuildResult<string>>
export function buildContext<O>(request: Request, options: BuildOptions<O> & { readonly renderer: Renderer<O> }): Promise<BuildResult<O>>
export function buildContext<O>(request: Request, options?: BuildOptions<O>): Promise<BuildResult<O>> {
  return toPromise(build(request, options as BuildOptions<O> & { readonly renderer: Renderer<O> }))
}
