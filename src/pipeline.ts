/**
 * The four stages as values made for fp-ts `pipe`, and `build`, the default pipeline.
 *
 * ```ts
 * const result = await pipe(
 *   request,
 *   gather([instructions(), task(), history(), rag(search)], { config: { maxTokens: 4000 }, layout: sectioned() }),
 *   select(),
 *   structure(),
 *   compress(),
 * )()
 * ```
 *
 * Each stage maps a `TaskEither<GsscError, Phase>` to the next phase, so any stage can be
 * swapped for your own function of the same type (the body functions `defaultSelector`,
 * `sectioned`, `truncate` are plain and synchronous). Settings are given once, to `gather`,
 * and travel with the build: the stages' defaults are `build`'s (the selection leaves room
 * for the layout, the layout is the one given, compression follows `enableCompression`).
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { availableTokens, makeConfig, type Config } from './config.js'
import { configError, gatherError, show, type GsscError } from './error.js'
import { noop } from './compress/noop.js'
import { fitAndRender } from './compress/stage.js'
import { truncate } from './compress/truncate.js'
import type { Compressor } from './compress/compressor.js'
import { additional, history, instructions, memory, rag, task, type MemorySearch, type Retrieve } from './gather/builtins.js'
import { composite, type CompositeOptions } from './gather/composite.js'
import { settleAll } from './gather/own.js'
import type { Gatherer } from './gather/gatherer.js'
import { capEnd, itemCapOf } from './gather/itemCap.js'
import { checkRunOptions, isTokenizer } from './gather/options.js'
import { countedBound } from './gather/walkBound.js'
import { textRenderer, type Renderer } from './output.js'
import type { Packet } from './packet.js'
import type { Exclusion, Gathered, Request, Selected, Structured, Warning } from './phase.js'
import type { BuildResult } from './report.js'
import { fingerprintOf, previousProblem, type Previous } from './report/prefix.js'
import { validateRequest, type HistoryReach } from './request.js'
import { embedGathered, type Embed } from './select/embed.js'
import { layoutAware } from './select/layoutAware.js'
import type { Selector } from './select/selector.js'
import { withPrevious } from './rebuild/index.js'
import { chat } from './structure/chat.js'
import { sectioned } from './structure/sectioned.js'
import type { Structurer } from './structure/structurer.js'
import type { TokenCache } from './tokenize/cache.js'
import { meter, type Meter } from './tokenize/meter.js'
import { encodingTokenizer, type Tokenizer } from './tokenize/tokenizer.js'

/** Settings of a build's first stage; they travel with the build. */
export interface GatherOptions extends Omit<CompositeOptions, 'name'> {
  /** Overrides of the defaults; validated, errors name the field. */
  readonly config?: Partial<Config>
  /** Default: o200k_base (GPT-4o family), exact. Create one and reuse it: ranks load once per tokenizer. */
  readonly tokenizer?: Tokenizer
  /** A token-count cache shared across builds (see `createTokenCache`). */
  readonly cache?: TokenCache
  /** The build's clock (epoch ms), or a function giving it; default `Date.now()`. */
  readonly now?: number | (() => number)
  /**
   * The layout, given once for the whole build: `select()` leaves room for it and
   * `structure()` uses it. Default `sectioned()`, the seed's layout.
   */
  readonly layout?: Structurer
  /**
   * An embeddings function: awaited once per build, with the query and every candidate the
   * selector ranks in one batch; relevance becomes cosine similarity and MMR compares the
   * same vectors. Default none: keyword relevance, offline. See `docs/relevance.md`.
   */
  readonly embed?: Embed
  /**
   * The previous build's result (or its `prefix`, kept on its own): the result's
   * `prefix.identical` then says how many tokens of this build's stable prefix that build
   * already sent, what a prompt cache can serve. See `docs/caching.md`.
   */
  readonly previous?: Previous
  /**
   * Read every history turn: check them all and give them all to the history gatherer, for a
   * compressor that summarizes the turns the budget leaves out. Default: only the turns that
   * can fit are read, the older ones reported as one range. `build` sets it when its
   * compressor `summarizes`.
   */
  readonly readAllHistory?: boolean
}

/**
 * Stage 1: validates the request and config, then runs the gatherers (in parallel by
 * default, each under a time limit; gssc's own, which await nothing, simply answer in
 * order). Failed gatherers are reported in `failures` (or fail the build with
 * `onError: 'fail'`). Packets with an id seen before are dropped and reported. With `embed`,
 * the query and the candidates are then embedded in one call.
 *
 * @category stages
 * @since 0.1.0
 */
export const gather = (gatherers: Gatherer | ReadonlyArray<Gatherer>, options: GatherOptions = {}): ((request: Request) => TE.TaskEither<GsscError, Gathered>) =>
  gatherWith(gatherers, options, false)

/**
 * {@link gather}; `alone`: the gatherers are `build`'s defaults and nothing but what is always
 * kept competes with the history for the budget (no other packets, gatherers or selector).
 * Then the history's walk back counts each turn it reads (`gather/walkBound.ts`) through the
 * build's meter, so the counts are the ones the selector takes next, and stops about where
 * the turns stop fitting, and at the message limit; otherwise it bounds them, and more of
 * them become packets.
 */
const gatherWith =
  (gatherers: Gatherer | ReadonlyArray<Gatherer>, options: GatherOptions, alone: boolean) =>
  (request: Request): TE.TaskEither<GsscError, Gathered> =>
  // one task, its steps in plain order: each TaskEither hop of a pipe is a promise and a
  // closure or two, and a build has nothing to wait for here but the tokenizer's tables
  async () => {
    // checked once: the history's reach needs it before the request is checked
    const config = makeConfig(options.config)
    const tokenizer = options.tokenizer ?? encodingTokenizer('o200k_base')
    // the build's meter, made first: a walk that counts turns counts them with it
    const m = meter(tokenizer, options.cache)
    // what the history check measures, asked again by the history gatherer
    const measured: Measured = {
      bounds: new Map(),
      ends: new Map(),
      cap: E.isRight(config) ? itemCapOf(config.right) : undefined,
      // (a build that reads every turn has no walk to stop: nothing is counted ahead of the selector)
      walk: alone && options.readAllHistory !== true && E.isRight(config) && isTokenizer(tokenizer) ? { meter: m, window: config.right.maxHistoryMessages } : undefined,
    }
    // a walk that counts needs the tables loaded before the request check, which walks too
    if (measured.walk !== undefined) await tokenizer.ready?.()
    // the request first, then the config, the other options and `previous`: the first wrong one is the error
    const req = validateRequest(request, options.readAllHistory === true ? undefined : historyReach(tokenizer, config, measured))
    if (E.isLeft(req)) return req
    if (E.isLeft(config)) return config
    const now = checkRunOptions(options)
    if (E.isLeft(now)) return now
    const bad = options.previous === undefined ? undefined : previousProblem(options.previous)
    if (bad !== undefined) return E.left(configError(`previous${bad.at}`, bad.value, bad.problem))
    // load the tokenizer's tables as modules first, so every later count is synchronous anywhere
    if (measured.walk === undefined) await tokenizer.ready?.()
    const list = Array.isArray(gatherers) ? gatherers : [gatherers as Gatherer]
    const input = { request: req.right, config: config.right, now: now.right, tokenizer: withMeasured(tokenizer, measured), ...(options.readAllHistory === true ? { readAllHistory: true } : {}) }
    // gssc's own gatherers answer at once (`gather/own.ts`); any other runs as a task, under its time limit
    const out = settleAll(list, input, options) ?? (await composite(list, options)({ ...input, signal: new AbortController().signal })())
    if (E.isLeft(out)) return E.left(gatherError(out.left.gatherer, out.left.message))
    const { packets, failures, excluded: left, warnings: said } = out.right
    const { unique, excluded, warnings } = dedupe(packets)
    const g: Gathered = {
      _phase: 'gathered',
      request: req.right,
      env: { config: config.right, available: availableTokens(config.right), tokenizer, meter: m, now: now.right, layout: options.layout ?? sectioned(), ...(options.previous === undefined ? {} : { previous: fingerprintOf(options.previous) }) },
      packets: unique,
      failures,
      excluded: [
        ...failures.map((f): Exclusion => ({ id: `gatherer:${f.gatherer}`, reason: 'gatherer_failure', detail: `${f.reason}: ${f.message}` })),
        ...(left ?? []),
        ...excluded,
      ],
      warnings: [...(said ?? []), ...warnings],
    }
    return options.embed === undefined ? E.right(g) : embedGathered(options.embed)(g)()
  }

/** What the history check measured, by text: lower bounds, and where the first `cap` tokens of a window end. */
interface Measured {
  readonly bounds: Map<string, number>
  readonly ends: Map<string, number>
  /** The per-item cap (`itemCapOf`): the one limit `ends` holds windows' ends for. */
  readonly cap: number | undefined
  /** A walk that counts turns ({@link gatherWith}'s `alone`): the build's meter, and the message limit, where the gatherer's walk stops. */
  readonly walk: { readonly meter: Meter; readonly window: number } | undefined
}

/**
 * How far back a build can read the history, so only those turns are checked (a 1M-turn
 * history costs what its end costs). None when the config or tokenizer is not valid: every
 * turn is checked, and the option's own error follows. What it measures goes to `measured`.
 */
const historyReach = (tokenizer: Tokenizer, config: E.Either<unknown, Config>, measured: Measured): HistoryReach | undefined => {
  const { walk } = measured
  const bound = walk === undefined ? (tokenizer as Partial<Tokenizer> | null)?.lowerBound : (text: string) => countedBound(walk.meter, text)
  if (E.isLeft(config) || typeof bound !== 'function') return undefined
  const { cap } = measured
  // the cap's check tokenizes a window at the text's start: the gatherer, which caps the
  // same text, finds that window's end in `measured`
  const remembering = Object.assign(Object.create(tokenizer) as Tokenizer, {
    prefixEnd: (text: string, max: number): number => {
      const end = tokenizer.prefixEnd(text, max)
      measured.ends.set(text, end)
      return end
    },
  })
  const cut = (text: string): boolean => {
    try {
      return capEnd(text, cap!, remembering) !== undefined
    } catch {
      return true // as below: the gatherer reports the tokenizer; here a cut text only counts nothing
    }
  }
  return {
    budget: availableTokens(config.right),
    ...(cap === undefined ? {} : { cut }),
    ...(walk === undefined ? {} : { window: walk.window }),
    lowerBound: (text) => {
      let b
      try {
        b = bound(text)
      } catch {
        return 0 // the gatherer reports a failing tokenizer; here it only means: read on
      }
      measured.bounds.set(text, b)
      return b
    },
  }
}

/**
 * The tokenizer the gatherers get: what the history check measured comes from `measured`, and
 * a walk that counts turns counts every text it bounds (the conversation's system turns too,
 * which are always kept, so the selector counts them anyway).
 */
const withMeasured = (tokenizer: Tokenizer, { bounds, ends, cap, walk }: Measured): Tokenizer =>
  bounds.size === 0 && ends.size === 0 && walk === undefined
    ? tokenizer
    : Object.assign(Object.create(tokenizer) as Tokenizer, {
        lowerBound: (text: string, above?: number) => bounds.get(text) ?? (walk === undefined ? tokenizer.lowerBound(text, above) : countedBound(walk.meter, text)),
        prefixEnd: (text: string, max: number) => (max === cap ? ends.get(text) : undefined) ?? tokenizer.prefixEnd(text, max),
      })

/**
 * The packets without those whose id an earlier one has, each reported. One set operation a
 * packet (an add, then the size says whether the id was new), and no copy of the packets
 * unless one is dropped: a thousand evidence passages cost a has and an add and a push each.
 */
const dedupe = (packets: ReadonlyArray<Packet>) => {
  const seen = new Set<string>()
  // made at the first duplicate: most builds have none
  let unique: Packet[] | undefined
  const excluded: Exclusion[] = []
  const warnings: Warning[] = []
  for (let i = 0; i < packets.length; i++) {
    const p = packets[i]!
    const before = seen.size
    seen.add(p.id)
    if (seen.size > before) {
      unique?.push(p)
      continue
    }
    unique ??= packets.slice(0, i)
    excluded.push({ id: p.id, reason: 'duplicate_id', detail: `another packet (from ${p.source}) already has this id` })
    warnings.push({ _tag: 'DuplicateId', packetId: p.id, message: `two packets share the id ${JSON.stringify(p.id)}; the first one was kept` })
  }
  return { unique: unique ?? packets, excluded, warnings }
}

/**
 * Stage 2: scores, gates and picks packets within the budget. By default it leaves room for
 * the build's layout (`layoutAware` over the layout given to `gather`), as `build` does.
 *
 * @category stages
 * @since 0.1.0
 */
export const select = (selector?: Selector) => TE.map(selector ?? ((g: Gathered) => layoutAware(g.env.layout)(g)))

/**
 * Stage 3: lays the selection out as a document (still data); by default with the build's
 * layout.
 *
 * @category stages
 * @since 0.1.0
 */
export const structure = (structurer?: Structurer) =>
  TE.map((s: Selected): Structured => ({ ...s, _phase: 'structured', doc: (structurer ?? s.env.layout)(s) }))

/**
 * Stage 4: fits the document into the budget and renders it, with the report. The default
 * compressor is `truncate()`, or `noop()` (never cut text) when `config.enableCompression` is
 * false; the default renderer is plain text.
 *
 * @category stages
 * @since 0.1.0
 */
export function compress(compressor?: Compressor): (te: TE.TaskEither<GsscError, Structured>) => TE.TaskEither<GsscError, BuildResult<string>>
export function compress<O>(compressor: Compressor | undefined, renderer: Renderer<O>): (te: TE.TaskEither<GsscError, Structured>) => TE.TaskEither<GsscError, BuildResult<O>>
export function compress<O>(compressor?: Compressor, renderer?: Renderer<O>) {
  return TE.chain((s: Structured) =>
    fitAndRender(compressor ?? (s.env.config.enableCompression ? truncate() : noop()), renderer ?? (textRenderer as unknown as Renderer<O>))(s),
  )
}

/** Options of {@link build}: the gather options plus the other stages' choices. */
export interface BuildOptions<O = string> extends GatherOptions {
  /** A memory search, run as the `memory` gatherer. */
  readonly memory?: { readonly search: MemorySearch; readonly limit?: number; readonly minScore?: number }
  /** A retriever, run as the `rag` gatherer; its top K are kept unless under `minScore` (see `RetrievalOptions`). */
  readonly rag?: { readonly retrieve: Retrieve; readonly topK?: number; readonly minScore?: number }
  /** More gatherers, run with the built-in ones. */
  readonly gatherers?: ReadonlyArray<Gatherer>
  /** Default: {@link layoutAware} over the default selector and the chosen structurer. */
  readonly selector?: Selector
  /**
   * The layout. Default: for chat messages (`renderer.shape` `messages`) `chat()`, which adds
   * nothing you did not give; for text, `sectioned()`, the seed's layout.
   */
  readonly structurer?: Structurer
  /** Default: `truncate()`, or `noop()` when `config.enableCompression` is false. */
  readonly compressor?: Compressor
  readonly renderer?: Renderer<O>
  /**
   * Carry `rebuild` on the result: what a later `build(grown, { previous: result })` needs to
   * count only the turns appended since (docs/caching.md). Default: on for a build given a
   * `previous` (a link in a chain: the next link needs it), off otherwise, because making it
   * adds 15-20% to a cold build (docs/caching.md), which a build that is never extended should
   * not pay.
   */
  readonly rebuildable?: boolean
}

/**
 * gssc's own gatherers, made once: function values that take no settings (naming and marking
 * one defines properties on it, a cost every build paid four times over).
 */
const OWN: ReadonlyArray<Gatherer> = [instructions(), task(), history(), additional()]

/**
 * The built-in gatherers `build` runs: instructions, task, history, the request's packets,
 * and memory / RAG when given.
 *
 * @category constructors
 */
export const defaultGatherers = (options: Pick<BuildOptions<unknown>, 'memory' | 'rag' | 'gatherers'> = {}): ReadonlyArray<Gatherer> => [
  ...OWN,
  ...(options.memory === undefined ? [] : [memory(options.memory.search, { limit: options.memory.limit, minScore: options.memory.minScore })]),
  ...(options.rag === undefined ? [] : [rag(options.rag.retrieve, { topK: options.rag.topK, minScore: options.rag.minScore })]),
  ...(options.gatherers ?? []),
]

/**
 * Whether nothing but what is always kept competes with the history for the budget: `build`'s
 * own gatherers and selector, and a request without packets (see {@link gatherWith}).
 */
const historyAlone = (request: Request, options: Pick<BuildOptions<unknown>, 'memory' | 'rag' | 'gatherers' | 'selector'>): boolean => {
  const packets = (request as Partial<Request> | null)?.packets
  return options.memory === undefined && options.rag === undefined && (options.gatherers ?? []).length === 0 && options.selector === undefined && (packets === undefined || (Array.isArray(packets) && packets.length === 0))
}

/**
 * The default pipeline in one call.
 *
 * @example
 * const result = await build({ query: 'Why does the build fail?', instructions: 'You are a build assistant.', history })()
 * if (E.isRight(result)) console.log(result.right.output, result.right.tokenCount)
 * @category stages
 * @since 0.1.0
 */
export function build(request: Request, options?: BuildOptions<string>): TE.TaskEither<GsscError, BuildResult<string>>
export function build<O>(request: Request, options: BuildOptions<O> & { readonly renderer: Renderer<O> }): TE.TaskEither<GsscError, BuildResult<O>>
export function build<O>(request: Request, options: BuildOptions<O> = {}): TE.TaskEither<GsscError, BuildResult<O>> {
  // a JavaScript caller's null: the same error gather would give, before anything reads it
  if (typeof options !== 'object' || options === null) return TE.left({ _tag: 'ConfigError', field: '', value: options, message: `options: must be an object (got ${show(options)})` })
  // with a previous result to append to, only the new turns cost (src/rebuild/)
  return withPrevious(
    request,
    options,
    // a thunk: gather checks the request when called, which a rebuild need not pay for, nor
    // the making of the layout and the stages
    () => {
      const renderer = options.renderer ?? (textRenderer as unknown as Renderer<O>)
      const layout = options.structurer ?? (renderer.shape === 'messages' ? chat() : sectioned())
      return pipe(
        request,
        // a summarizing compressor folds the turns that cannot fit into its summary: it reads them all
        gatherWith(defaultGatherers(options), { ...options, layout, readAllHistory: options.readAllHistory === true || options.compressor?.summarizes === true }, historyAlone(request, options)),
        select(options.selector),
        TE.chain((s) => pipe(TE.right(s), structure(), compress(options.compressor, renderer), TE.map((r) => [r, s.env.meter] as const))),
      )
    },
  )
}
