/**
 * `build` with a previous result: when the request is the previous one with turns appended to
 * its history, the result is made from the previous one at the cost of the new turns
 * (`./append.ts`); otherwise the build is cold. Either way the result is the one a cold build
 * gives, and `stats.rebuild` says which it was (and why it was cold). Every default text build
 * of a plain history carries what the next one needs (`rebuild`, `./memo.ts`).
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { makeConfig } from '../config.js'
import type { GsscError } from '../error.js'
import type { Request } from '../phase.js'
import type { BuildOptions } from '../pipeline.js'
import type { BuildResult } from '../report.js'
import { fingerprintOf, type Previous } from '../report/prefix.js'
import { meter, type Meter } from '../tokenize/meter.js'
import { encodingTokenizer, type Tokenizer } from '../tokenize/tokenizer.js'
import { appendRebuild, type Appendable } from './append.js'
import { layoutCosts } from './costs.js'
import { memoOf, type RebuildKey, type RebuildOutcome } from './memo.js'

/** Options that change what a build does beyond the default text build (each read by `ownStage`). */
export const OWN_STAGES = ['renderer', 'structurer', 'selector', 'compressor', 'gatherers', 'memory', 'rag', 'embed', 'layout'] as const satisfies ReadonlyArray<keyof BuildOptions<unknown>>

/**
 * The options of a build that matter here: `BuildOptions`' own fields (a type-only import,
 * so no module cycle), its stages read only for whether they are given.
 */
export type RebuildOptions = Pick<BuildOptions<unknown>, 'config' | 'tokenizer' | 'cache' | 'now' | 'previous' | 'rebuildable'> & {
  readonly [K in (typeof OWN_STAGES)[number]]?: unknown
}

/**
 * The first of {@link OWN_STAGES} the build is given. Named reads, one per stage: a loop over
 * the names would be one keyed read of nine names, which V8 answers from its global lookup
 * cache, cold after a cold build has run (a rebuild reads it once per build).
 */
const ownStage = (o: RebuildOptions): (typeof OWN_STAGES)[number] | undefined =>
  o.renderer !== undefined
    ? 'renderer'
    : o.structurer !== undefined
      ? 'structurer'
      : o.selector !== undefined
        ? 'selector'
        : o.compressor !== undefined
          ? 'compressor'
          : o.gatherers !== undefined
            ? 'gatherers'
            : o.memory !== undefined
              ? 'memory'
              : o.rag !== undefined
                ? 'rag'
                : o.embed !== undefined
                  ? 'embed'
                  : o.layout !== undefined
                    ? 'layout'
                    : undefined

/** The key of a default text build, or why it is not one. */
const keyOf = (request: Request, options: RebuildOptions, before: RebuildKey | undefined): E.Either<string, RebuildKey> => {
  // a JavaScript caller's malformed request: the cold build names what is wrong with it
  if (typeof request !== 'object' || request === null) return E.left('the request is not an object')
  const own = ownStage(options)
  if (own !== undefined) return E.left(`the build has its own ${own}`)
  if (typeof options.now !== 'number') return E.left('`now` is not a number (the report scores recency from it)')
  // the config object the previous build checked: the same settings, not validated again
  if (before !== undefined && before.given === options.config) {
    const tokenizer = options.tokenizer ?? 'default'
    // the previous key itself when nothing differs (a rebuild's common case: nothing to make)
    if (before.tokenizer === tokenizer && before.now === options.now && before.query === request.query && before.instructions === request.instructions) return E.right(before)
    return E.right({ ...before, tokenizer, now: options.now, query: request.query, instructions: request.instructions })
  }
  const config = makeConfig(options.config)
  if (E.isLeft(config)) return E.left('the config is not valid')
  if (Object.values(config.right.types).some((t) => t?.floor !== undefined || t?.cap !== undefined)) return E.left('the config has budget shares')
  return E.right({ config: config.right, given: options.config, tokenizer: options.tokenizer ?? 'default', now: options.now, query: request.query, instructions: request.instructions })
}

/**
 * What a cold build gives a rebuildable result: the result, and the build's meter (its counts and edges give the history walk's bounds again, uncounted).
 */
export type Cold<O> = readonly [BuildResult<O>, Meter]

/** JSON of plain data, infinities kept. */
const json = (v: unknown): string => JSON.stringify(v, (_, x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : x))

/** Why two keys differ, or undefined. */
const keyChange = (a: RebuildKey, b: RebuildKey): string | undefined =>
  a.tokenizer !== b.tokenizer
    ? 'the tokenizer changed'
    : a.now !== b.now
      ? '`now` changed'
      : a.query !== b.query || (a.instructions !== b.instructions && json(a.instructions) !== json(b.instructions))
        ? 'the query or instructions changed'
        : a.given !== b.given && json(a.config) !== json(b.config)
          ? 'the config changed'
          : undefined

const appendable = (p: Previous | undefined): p is Previous & Appendable =>
  typeof p === 'object' && p !== null && 'rebuild' in p && p.rebuild !== undefined && 'doc' in p && typeof (p as { output?: unknown }).output === 'string'

const withOutcome = <O>(r: BuildResult<O>, outcome: RebuildOutcome | undefined): BuildResult<O> =>
  outcome === undefined ? r : { ...r, stats: { ...r.stats, rebuild: outcome } }

/** A cold build that runs in place of a rebuild: carrying the memo when `key` allows and the build is rebuildable; its outcome says why, when there is a reason. */
const coldWith = <O>(
  request: Request,
  cold: () => TE.TaskEither<GsscError, Cold<O>>,
  key: E.Either<string, RebuildKey>,
  rebuildable: boolean,
  fallback: string | undefined,
): TE.TaskEither<GsscError, BuildResult<O>> =>
  pipe(
    cold(),
    TE.map(([r, walked]) => withOutcome(E.isLeft(key) || !rebuildable ? r : remember(request, key.right, r, walked), fallback === undefined ? undefined : { mode: 'cold', fallback })),
  )

/**
 * Runs `cold` unless `options.previous` can be appended to (see the module comment).
 *
 * Module-level functions, not closures made per call: a rebuild runs a few hundred
 * microseconds before V8 optimizes it, and each closure made per call (named, under a
 * loader that keeps names, a property defined on it too) costs a noticeable part of that.
 *
 * @category utils
 */
export const withPrevious = <O>(
  request: Request,
  options: RebuildOptions,
  cold: () => TE.TaskEither<GsscError, Cold<O>>,
): TE.TaskEither<GsscError, BuildResult<O>> => {
  const prev = appendable(options.previous) ? options.previous : undefined
  // a build given a previous one is a link in a chain: it carries the data for the next link
  // unless told otherwise, so a chain never turns cold from its second step on
  const rebuildable = options.rebuildable ?? options.previous !== undefined
  // a plain cold build (nothing to append to, nothing to carry for the next): no key to make
  if (options.previous === undefined && !rebuildable) return pipe(cold(), TE.map(([r]) => r))
  const key = keyOf(request, options, prev?.rebuild.key)
  if (E.isLeft(key)) return coldWith(request, cold, key, rebuildable, prev === undefined ? undefined : key.left)
  if (prev === undefined) return coldWith(request, cold, key, rebuildable, options.previous === undefined ? undefined : 'the previous result has no rebuild data')
  // the previous key itself: nothing in it changed (keyOf gives it back then)
  const change = key.right === prev.rebuild.key ? undefined : keyChange(prev.rebuild.key, key.right)
  if (change !== undefined) return coldWith(request, cold, key, rebuildable, change)
  return appending(prev, request, options, cold, key, rebuildable)
}

/**
 * The task of the rebuild. The tokenizer the chain's first build awaited (the same object, or
 * the key would have changed) loaded what counting needs then, and it stays loaded: the
 * rebuild runs at once. Otherwise one step once it is ready: a rebuild is short enough for
 * each promise hop to show. Its own function, so that `withPrevious` makes no closure (see
 * `./append.ts` on how the rebuild's code is written).
 */
const appending = <O>(
  prev: Previous & Appendable,
  request: Request,
  options: RebuildOptions,
  cold: () => TE.TaskEither<GsscError, Cold<O>>,
  key: E.Right<RebuildKey>,
  rebuildable: boolean,
): TE.TaskEither<GsscError, BuildResult<O>> => {
  const tokenizer = key.right.tokenizer
  if (tokenizer !== 'default') return () => new Promise((resolve) => resolve(append(prev, request, options, cold, key, rebuildable, tokenizer)))
  const own = encodingTokenizer('o200k_base')
  return () => (own.ready?.() ?? Promise.resolve()).then(() => append(prev, request, options, cold, key, rebuildable, own))
}

/** The rebuild, or the cold build when it cannot be appended (with the reason). */
const append = <O>(
  prev: Previous & Appendable,
  request: Request,
  options: RebuildOptions,
  cold: () => TE.TaskEither<GsscError, Cold<O>>,
  key: E.Either<string, RebuildKey>,
  rebuildable: boolean,
  tokenizer: Tokenizer,
): Promise<E.Either<GsscError, BuildResult<O>>> | E.Either<GsscError, BuildResult<O>> => {
  const r = appendRebuild(prev, request, { meter: meter(tokenizer, options.cache), previous: fingerprintOf(prev), rebuildable })
  // a text build's result is the build's (the Right itself: the caller's `O` is `string` here)
  return E.isRight(r) ? (r as E.Either<GsscError, BuildResult<O>>) : coldWith(request, cold, key, rebuildable, r.left)()
}

/** The result with what the next build needs, when it can append to it. */
const remember = <O>(request: Request, key: RebuildKey, r: BuildResult<O>, walked: Meter): BuildResult<O> => {
  if (typeof r.output !== 'string') return r
  const text = r as unknown as BuildResult<string>
  // the build's own meter: what the layout's text around the turns costs is composed from the counts it took
  const memo = memoOf(request, key, text, walked, layoutCosts(text.doc, walked, text))
  return E.isRight(memo) ? { ...r, rebuild: memo.right } : r
}
