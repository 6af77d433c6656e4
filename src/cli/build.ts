/**
 * `gssc build`: read the inputs, run the pipeline, print the context (or JSON).
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { Config, Locale } from '../config.js'
import { inputError, type GsscError } from '../error.js'
import type { PacketInput } from '../packet.js'
import type { Request, SimpleMessage } from '../phase.js'
import { build } from '../pipeline.js'
import { toJson, type BuildResult } from '../report.js'
import { minimal } from '../structure/minimal.js'
import { sectioned } from '../structure/sectioned.js'
import type { Structurer } from '../structure/structurer.js'
import { template } from '../structure/template.js'
import { createTokenizer } from '../tokenize/tokenizer.js'
import { parseHistory, parsePackets, readText, textOrFile } from './files.js'
import { EXIT, type Io } from './io.js'
import { summary } from './summary.js'

/** Parsed options of `gssc build`. */
export interface BuildFlags {
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
  readonly structurer: 'default' | 'minimal' | 'template'
  readonly template?: string
  readonly locale?: Locale
  readonly format: 'text'
  readonly json?: boolean
}

const optional = <A>(value: string | undefined, read: (v: string) => TE.TaskEither<GsscError, A>): TE.TaskEither<GsscError, A | undefined> =>
  value === undefined ? TE.right(undefined) : read(value)

const structurerFor = (flags: BuildFlags): TE.TaskEither<GsscError, Structurer> => {
  if (flags.structurer === 'minimal') return TE.right(minimal())
  if (flags.structurer === 'default') {
    if (flags.template !== undefined) return TE.left(inputError('--template', 'only applies with --structurer template'))
    return TE.right(sectioned())
  }
  if (flags.template === undefined) return TE.left(inputError('--structurer template', 'needs --template <file>'))
  const path = flags.template
  return pipe(
    readText(path),
    TE.chainEitherKW((text) => E.mapLeft((e: GsscError) => ({ ...e, message: `${path}: ${e.message}` }))(template(text))),
  )
}

/**
 * Runs `gssc build` and returns the exit code.
 *
 * @category constructors
 */
export const runBuild = async (flags: BuildFlags, io: Io): Promise<number> => {
  if (flags.query === undefined) {
    io.stderr.write('gssc build: --query is required\n')
    return EXIT.usage
  }
  const query = flags.query
  const config: Partial<Config> = {
    ...(flags.maxTokens === undefined ? {} : { maxTokens: flags.maxTokens }),
    ...(flags.reserveRatio === undefined ? {} : { reserveRatio: flags.reserveRatio }),
    ...(flags.minRelevance === undefined ? {} : { minRelevance: flags.minRelevance }),
    ...(flags.maxHistory === undefined ? {} : { maxHistoryMessages: flags.maxHistory }),
    ...(flags.mmr === true ? { enableMMR: true } : {}),
    ...(flags.locale === undefined ? {} : { locale: flags.locale }),
    enableCompression: flags.compression,
  }
  const program = pipe(
    TE.Do,
    TE.bindW('tokenizer', () => TE.fromEither(createTokenizer(flags.model))),
    TE.bindW('system', () => optional(flags.system, (v) => textOrFile(v))),
    TE.bindW('history', () => optional(flags.history, (path) => pipe(readText(path), TE.chainEitherKW((t) => parseHistory(path, t))))),
    TE.bindW('packets', () => optional(flags.packets, (path) => pipe(readText(path), TE.chainEitherKW((t) => parsePackets(path, t))))),
    TE.bindW('structurer', () => structurerFor(flags)),
    TE.chainW(({ tokenizer, system, history, packets, structurer }) => {
      const request: Request = {
        query,
        ...(system === undefined ? {} : { instructions: system }),
        ...(history === undefined ? {} : { history: history as ReadonlyArray<SimpleMessage> }),
        ...(packets === undefined ? {} : { packets: packets as ReadonlyArray<PacketInput> }),
      }
      return build(request, { tokenizer, config, structurer })
    }),
  )
  const result = await program()
  if (E.isLeft(result)) {
    io.stderr.write(`gssc build: ${result.left.message}\n`)
    return EXIT.failed
  }
  print(result.right, flags, io)
  return EXIT.ok
}

const print = (r: BuildResult<string>, flags: BuildFlags, io: Io): void => {
  if (flags.json === true) {
    io.stdout.write(`${JSON.stringify(toJson(r), null, 2)}\n`)
    return
  }
  io.stdout.write(r.output.endsWith('\n') ? r.output : `${r.output}\n`)
  io.stderr.write(summary(r))
}
