/**
 * `gssc build`: read the inputs, run the pipeline, print the context (or JSON), and explain.
 *
 * @module
 */
import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { availableTokens, makeConfig, type Config, type Locale } from '../config.js'
import { itemCapOf } from '../gather/itemCap.js'
import { describeThrown, inputError, type GsscError } from '../error.js'
import { anthropicRenderer, openaiRenderer } from '../formats.js'
import { progress } from '../inspect/progress.js'
import { visible } from '../inspect/width.js'
import type { ImagePart } from '../message.js'
import { textRenderer, type Renderer } from '../output.js'
import type { PacketInput } from '../packet.js'
import type { Request, SimpleMessage } from '../phase.js'
import { build, type BuildOptions } from '../pipeline.js'
import { toJson, type BuildResult } from '../report.js'
import { minimal } from '../structure/minimal.js'
import { chat } from '../structure/chat.js'
import { sectioned } from '../structure/sectioned.js'
import type { Structurer } from '../structure/structurer.js'
import { template } from '../structure/template.js'
import { xml } from '../structure/xml.js'
import { createTokenizer } from '../tokenize/tokenizer.js'
import { nameOf, parseHistory, parsePackets, readText, STDIN, textOrFile } from './files.js'
import { EXIT, type Io, type Out } from './io.js'
import type { PacketDetail } from '../inspect/html/table.js'
import { clean } from '../inspect/width.js'
import { preview } from '../internal/preview.js'
import type { Sourced } from './sources.js'
import { summary } from './summary.js'
import { workspaceUsageProblem, type WorkspaceFlags } from './workspaceFlags.js'

/** Parsed options of `gssc build`. */
export interface BuildFlags extends WorkspaceFlags {
  readonly query?: string
  readonly system?: string
  readonly history?: string
  readonly packets?: string
  readonly model: string
  readonly maxTokens?: number
  readonly reserveRatio?: number
  readonly minRelevance?: number
  readonly maxHistory?: number
  readonly mmr?: boolean
  readonly compression: boolean
  readonly structurer: 'default' | 'sectioned' | 'chat' | 'minimal' | 'template' | 'xml'
  readonly template?: string
  readonly locale?: Locale
  readonly format: 'text' | 'openai' | 'anthropic'
  readonly json?: boolean
  readonly session?: string
  readonly leaf?: string
  readonly strategy?: string
  readonly keepRecent?: number
  readonly workspace?: string
  readonly media?: ReadonlyArray<string>
  readonly chunks?: string
  readonly explain?: boolean
  readonly report?: string
  readonly targetModel?: string
  readonly reasoningContent?: boolean
}

/** A packet's role (a history turn's) and the start of its text, for the report. */
const packetDetail = (p: PacketInput): PacketDetail => {
  return { ...(p.message === undefined ? {} : { role: p.message.role }), preview: clean(preview(p.content, 120)) }
}

/** `--session` without `--query`: the session's own last user turn is the task, and only the agent's own turns are sent. */
const ownTurnsOnly = (flags: BuildFlags): boolean => flags.session !== undefined && flags.query === undefined && flags.chunks === undefined

/** The model the context goes to (`--target-model`). */
const targetOf = (flags: BuildFlags): { readonly model: string } | undefined => (flags.targetModel === undefined ? undefined : { model: flags.targetModel })

const none: Sourced = { packets: [], notes: [] }

/** Messages to the user: file names, ids and bad values in them show control characters as visible symbols. */
const say = (out: Out, text: string): void => void out.write(visible(text))

/** The result: raw when piped (it is data), with control characters made visible on a terminal. */
const show = (out: Out, text: string): void => void out.write(out.isTTY === true ? visible(text) : text)
const optional = <A>(value: string | undefined, read: (v: string) => TE.TaskEither<GsscError, A>): TE.TaskEither<GsscError, A | undefined> =>
  value === undefined ? TE.right(undefined) : read(value)

/**
 * `use` of a module loaded when first needed: the parts of a build that only some flags use
 * (sessions, workspaces, chunks, media, strategies, the explainer) stay unread otherwise, so a
 * plain `gssc build` starts fast.
 */
const using = <M, A>(load: () => Promise<M>, use: (m: M) => TE.TaskEither<GsscError, A>): TE.TaskEither<GsscError, A> => pipe(TE.fromTask(load), TE.chainW(use))
const sourcesModule = () => import('./sources.js')
const strategyModule = () => import('./strategy.js')

const structurerFor = (flags: BuildFlags, io: Io): TE.TaskEither<GsscError, Structurer> => {
  if (flags.structurer !== 'template' && flags.template !== undefined) return TE.left(inputError('--template', 'only applies with --structurer template'))
  if (flags.structurer === 'minimal') return TE.right(minimal())
  if (flags.structurer === 'xml') return TE.right(xml())
  if (flags.structurer === 'sectioned') return TE.right(sectioned())
  if (flags.structurer === 'chat') return TE.right(chat())
  // a workspace brings its own prompt layout (nanobot's); messages get the layout that adds nothing, text the seed's sections
  // (or, with no --query, a session's own turns: no headings, no output section)
  if (flags.structurer === 'default')
    return flags.workspace !== undefined
      ? using(() => import('../workspace/layout.js'), (m) => TE.right(m.nanobot()))
      : TE.right(flags.format !== 'text' ? chat() : ownTurnsOnly(flags) ? minimal() : sectioned())
  if (flags.template === undefined) return TE.left(inputError('--structurer template', 'needs --template <file>'))
  const path = flags.template
  return pipe(readText(io)(path), TE.chainEitherKW((text) => E.mapLeft((e: GsscError) => ({ ...e, message: `${nameOf(path)}: ${e.message}` }))(template(text))))
}

const rendererFor = (flags: BuildFlags): Renderer<unknown> => {
  const target = targetOf(flags)
  const common = target === undefined ? {} : { target }
  return flags.format === 'openai'
    ? (openaiRenderer({ ...common, ...(flags.reasoningContent === true ? { reasoningContent: true } : {}) }) as Renderer<unknown>)
    : flags.format === 'anthropic'
      ? (anthropicRenderer({ ...common, ...(ownTurnsOnly(flags) ? { leadingAssistant: 'drop' as const } : {}) }) as Renderer<unknown>)
      : (textRenderer as Renderer<unknown>)
}

/** The flags that read a file, with their values (`-`: standard input). */
const fileFlags = (flags: BuildFlags): ReadonlyArray<readonly [string, string | undefined]> => [
  ['--system', flags.system?.startsWith('@') === true ? flags.system.slice(1) : undefined],
  ['--history', flags.history],
  ['--packets', flags.packets],
  ['--template', flags.template],
  ['--session', flags.session],
  ['--chunks', flags.chunks],
  ...(flags.media ?? []).map((m) => ['--media', m] as const),
]

/** Flag combinations that cannot work, caught before any file is read. */
const usageProblem = (flags: BuildFlags): string | undefined => {
  const stdin = fileFlags(flags).filter(([, v]) => v === STDIN)
  if (stdin.length > 1) return `only one flag can read standard input (-); got ${stdin.map(([f]) => f).join(', ')}`
  if (flags.report === STDIN) return '--report needs a file name: standard output carries the context'
  if (flags.query === undefined && flags.chunks === undefined && flags.session === undefined) return '--query is required (unless --chunks or --session is given: a session\'s own last user turn is its task)'
  if (flags.reasoningContent === true && (flags.format !== 'openai' || flags.targetModel === undefined)) return '--reasoning-content needs --format openai and --target-model (the model whose own thinking is sent back)'
  if (flags.session !== undefined && flags.history !== undefined) return '--session and --history are two histories; give one'
  if (flags.leaf !== undefined && flags.session === undefined) return '--leaf needs --session'
  if ((flags.media?.length ?? 0) > 0 && flags.format === 'text') return '--media needs --format openai or anthropic (a text prompt cannot carry images)'
  const workspace = workspaceUsageProblem(flags, true)
  if (workspace !== undefined) return workspace
  if (flags.keepRecent !== undefined && flags.strategy === undefined && flags.session === undefined && flags.history === undefined) return '--keep-recent needs a history (--history or --session)'
  return undefined
}

/**
 * Runs `gssc build` and returns the exit code.
 *
 * @category constructors
 */
export const runBuild = async (flags: BuildFlags, io: Io): Promise<number> => {
  const problem = usageProblem(flags)
  if (problem !== undefined) {
    say(io.stderr, `gssc build: ${problem}\n(see 'gssc build --help')\n`)
    return EXIT.usage
  }
  const strategized = flags.strategy !== undefined || flags.keepRecent !== undefined
  const config: Partial<Config> = {
    ...(flags.maxTokens === undefined ? {} : { maxTokens: flags.maxTokens }),
    ...(flags.reserveRatio === undefined ? {} : { reserveRatio: flags.reserveRatio }),
    ...(flags.minRelevance === undefined ? {} : { minRelevance: flags.minRelevance }),
    ...(flags.maxHistory === undefined ? {} : { maxHistoryMessages: flags.maxHistory }),
    ...(flags.mmr === true ? { enableMMR: true } : {}),
    ...(flags.locale === undefined ? {} : { locale: flags.locale }),
    enableCompression: flags.compression,
  }
  const loading = progress(io.stderr, { label: 'reading inputs' })
  // packet id → chunk id, for the chunk builder's includedChunkIds / excludedChunkIds
  const chunkPacketIds: Array<readonly [string, string]> = []
  // chunks in the state but not in its chunkIds: reported in --json as unlistedChunkIds
  const unlistedChunkIds: string[] = []
  // what each packet said, for the report's role and preview columns
  const details = new Map<string, PacketDetail>()
  // the budget a session's window is cut to; none for a strategy (it fits every turn) or a bad config (its error follows)
  const budget = strategized ? undefined : E.getOrElseW(() => undefined)(E.map(availableTokens)(makeConfig(config)))
  const program = pipe(
    TE.Do,
    TE.bindW('tokenizer', () => TE.fromEither(createTokenizer(flags.model))),
    TE.bindW('strategic', () => (strategized ? using(strategyModule, (m) => TE.right(m)) : TE.right(undefined))),
    TE.bindW('strategy', ({ strategic }) => (strategic === undefined || flags.strategy === undefined ? TE.right(undefined) : TE.fromEither(strategic.strategyName(flags.strategy, '--strategy')))),
    TE.bindW('system', () => optional(flags.system, textOrFile(io))),
    TE.bindW('history', () => optional(flags.history, (path) => pipe(readText(io)(path), TE.chainEitherKW((t) => parseHistory(path, t))))),
    TE.bindW('packets', () => optional(flags.packets, (path) => pipe(readText(io)(path), TE.chainEitherKW((t) => parsePackets(path, t))))),
    TE.bindW('session', ({ tokenizer }) =>
      optional(flags.session, (file) =>
        using(() => import('./session.js'), (m) => m.sessionPackets(file, tokenizer, io, {
          withNextPrompt: flags.query !== undefined,
          ...E.getOrElseW(() => ({}))(E.map((c: Config) => ({ maxItemTokens: itemCapOf(c) }))(makeConfig(config))),
          ...(budget === undefined ? {} : { budget }),
          ...(flags.leaf === undefined ? {} : { leaf: flags.leaf }),
          ...(targetOf(flags) === undefined ? {} : { target: targetOf(flags)! }),
        })),
      ),
    ),
    TE.bindW('workspace', ({ tokenizer }) => optional(flags.workspace, (dir) => using(sourcesModule, (m) => m.workspaceSource(dir, tokenizer, flags, io)))),
    TE.bindW('chunks', () =>
      optional(flags.chunks, (file) =>
        pipe(
          using(sourcesModule, (m) => m.chunkPackets(file, io)),
          TE.tap((c) =>
            TE.fromIO(() => {
              c.packets.forEach((p) => chunkPacketIds.push([p.id!, String(p.metadata?.['chunkId'] ?? p.id)]))
              unlistedChunkIds.push(...c.unlisted)
            }),
          ),
        ),
      ),
    ),
    TE.bindW('media', ({ workspace }) => ((flags.media?.length ?? 0) === 0 ? TE.right<GsscError, ReadonlyArray<ImagePart>>([]) : using(sourcesModule, (m) => m.mediaParts(workspace?.root ?? io.cwd, io, flags.media!)))),
    TE.bindW('structurer', () => structurerFor(flags, io)),
    // the history strategies see every turn, counted: the plain history goes in as packets
    TE.bindW('plainHistory', ({ history, tokenizer }) =>
      strategized && history !== undefined ? using(sourcesModule, (m) => TE.right(m.historyFilePackets(history, tokenizer, nameOf(flags.history!)))) : TE.right(undefined),
    ),
    TE.chainW((x) => {
      loading.done()
      const { plainHistory } = x
      const sources = [x.session ?? none, x.workspace ?? none, x.chunks ?? none, plainHistory ?? none]
      for (const s of sources) for (const note of s.notes) say(io.stderr, `gssc: ${note}\n`)
      const request: Request = {
        query: flags.query ?? '',
        ...(x.system === undefined ? {} : { instructions: x.system }),
        ...(x.history === undefined || plainHistory !== undefined ? {} : { history: x.history as ReadonlyArray<SimpleMessage> }),
        packets: [...((x.packets ?? []) as ReadonlyArray<PacketInput>), ...sources.flatMap((s) => s.packets)],
        ...(x.media.length === 0 ? {} : { media: x.media }),
      }
      if (flags.report !== undefined) for (const p of request.packets ?? []) if (p.id !== undefined) details.set(p.id, packetDetail(p))
      const options: BuildOptions<unknown> = {
        tokenizer: x.tokenizer,
        config,
        structurer: x.structurer,
        renderer: rendererFor(flags),
        ...(x.strategic === undefined ? {} : x.strategic.strategyOptions(x.structurer, x.tokenizer, x.strategy ?? 'truncate', flags.keepRecent)),
        gatherers: sources.flatMap((s) => s.gatherers ?? []),
      }
      return build(request, options as BuildOptions<unknown> & { readonly renderer: Renderer<unknown> })
    }),
  )
  const result = await program()
  loading.done()
  if (E.isLeft(result)) {
    say(io.stderr, `gssc build: ${result.left.message}\n`)
    return EXIT.failed
  }
  print(result.right, flags, io, chunkPacketIds, unlistedChunkIds)
  if (flags.explain === true) {
    const { explain, renderExplain, useColor } = await import('../inspect/index.js')
    io.stderr.write(`\n${renderExplain(explain(result.right), { color: useColor(io.stderr, io.env), width: io.stderr.columns ?? 80 })}`)
  }
  if (flags.report !== undefined) {
    const { renderReport } = await import('../inspect/index.js')
    try {
      await writeFile(resolve(io.cwd, flags.report), renderReport(result.right, { details }))
    } catch (e) {
      say(io.stderr, `gssc build: cannot write the report to ${flags.report}: ${describeThrown(e)}\n`)
      return EXIT.failed
    }
    say(io.stderr, `gssc: report written to ${flags.report}\n`)
  }
  return EXIT.ok
}

/**
 * The seed's `includedChunkIds` / `excludedChunkIds`, in state order: a chunk is included
 * when any of its packets (a container has one per child) is in the output.
 */
const chunkIds = (r: BuildResult<unknown>, packetIds: ReadonlyArray<readonly [string, string]>) => {
  const included = new Set(r.included)
  const chunks = [...new Set(packetIds.map(([, chunk]) => chunk))]
  const kept = new Set(packetIds.filter(([packet]) => included.has(packet)).map(([, chunk]) => chunk))
  return { includedChunkIds: chunks.filter((c) => kept.has(c)), excludedChunkIds: chunks.filter((c) => !kept.has(c)) }
}

const print = (r: BuildResult<unknown>, flags: BuildFlags, io: Io, chunkPacketIds: ReadonlyArray<readonly [string, string]>, unlisted: ReadonlyArray<string>): void => {
  if (flags.json === true) {
    const chunks = flags.chunks === undefined ? {} : { ...chunkIds(r, chunkPacketIds), unlistedChunkIds: unlisted }
    show(io.stdout, `${JSON.stringify({ ...toJson(r), ...chunks }, null, 2)}\n`)
    return
  }
  const text = typeof r.output === 'string' ? r.output : JSON.stringify(r.output, null, 2)
  show(io.stdout, text.endsWith('\n') ? text : `${text}\n`)
  say(io.stderr, summary(r))
}
