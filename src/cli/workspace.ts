/**
 * The workspace commands and flags: `gssc workspace init <dir>` (a starter workspace, never
 * overwriting a file), `gssc workspace prompt <dir>` (the system prompt exactly as built,
 * e.g. to compare with what nanobot sent), and the flags that say how to read a workspace,
 * shared with `gssc build --workspace`: the nanobot version, the clock and its zone label,
 * the runtime line, the tool list, the bundled skills and the skill order.
 *
 * What is printed to the terminal about a workspace (its problems, what was left out) shows
 * control characters as visible symbols, as `--explain` does: a file name cannot move the
 * cursor or set the terminal title.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { inputError, type GsscError } from '../error.js'
import { clean } from '../inspect/width.js'
import { isoMs } from '../timestamp.js'
import { createTokenizer } from '../tokenize/tokenizer.js'
import { systemTimeZone, zonedInstant } from '../workspace/clock.js'
import { initWorkspace } from '../workspace/init.js'
import { loadWorkspace, type LoadOptions } from '../workspace/load.js'
import type { Workspace } from '../workspace/model.js'
import type { PromptOptions } from '../workspace/options.js'
import { buildSystemPrompt, type SystemPrompt } from '../workspace/prompt.js'
import { pathHost } from '../workspace/requirements.js'
import { textOrFile } from './files.js'
import { EXIT, type Io } from './io.js'
import { workspaceUsageProblem, type WorkspaceFlags } from './workspaceFlags.js'

export { workspaceOptions, workspaceUsageProblem, type WorkspaceFlags } from './workspaceFlags.js'

/** `--now` as a date: an instant as written, or a wall time in `timeZone`. */
const clockOf = (now: string, timeZone: string): E.Either<GsscError, Date> => {
  const text = now.trim()
  if (/^\d+$/.test(text) && Number.isSafeInteger(Number(text))) return E.right(new Date(Number(text)))
  const ms = isoMs(text)
  const zoned = /[Tt ]\d{2}:\d{2}.*(?:[Zz]|[+-]\d{2}(?::?\d{2})?)$/.test(text)
  const at = ms === undefined ? undefined : zoned ? ms : zonedInstant(ms, timeZone)
  return at === undefined
    ? E.left(inputError('--now', `must be an ISO 8601 time such as "2026-11-22 09:15" or "2026-11-22T01:15:00Z", or epoch milliseconds (got ${JSON.stringify(now)})`))
    : E.right(new Date(at))
}

/**
 * The load and prompt options the flags ask for.
 *
 * @category utils
 */
export const workspaceSettings = (
  flags: WorkspaceFlags,
  io: Pick<Io, 'stdin' | 'env'>,
): TE.TaskEither<GsscError, { readonly load: LoadOptions; readonly prompt: Omit<PromptOptions, 'tokenizer'> }> => {
  const timeZone = flags.timeZone ?? systemTimeZone()
  const now = flags.now === undefined ? E.right(undefined) : clockOf(flags.now, timeZone)
  if (E.isLeft(now)) return TE.left(now.left)
  const at = now.right
  const load: LoadOptions = {
    // skills' requirements are checked against the CLI's own environment and PATH
    host: pathHost(io.env),
    ...(at === undefined ? {} : { now: () => at }),
    ...(flags.timeZone === undefined ? {} : { timeZone }),
    ...(flags.tzLabel === undefined ? {} : { timeZoneLabel: flags.tzLabel }),
    ...(flags.nanobotVersion === undefined ? {} : { nanobotVersion: flags.nanobotVersion }),
    ...(flags.builtinSkills === undefined ? {} : { builtinSkills: flags.builtinSkills }),
    ...(flags.skillOrder === undefined ? {} : { skillOrder: flags.skillOrder }),
    ...(flags.sessionKey === undefined ? {} : { sessionKey: flags.sessionKey }),
  }
  return pipe(
    flags.toolNotes === undefined ? TE.right<GsscError, string | undefined>(undefined) : textOrFile(io)(flags.toolNotes),
    TE.map((toolNotes) => ({
      load,
      prompt: {
        ...(flags.runtime === undefined ? {} : { runtime: flags.runtime }),
        ...(flags.tools === false ? { tools: [] } : flags.tool === undefined ? {} : { tools: flags.tool }),
        ...(toolNotes === undefined ? {} : { toolNotes }),
        ...(flags.platform === undefined ? {} : { platform: flags.platform }),
        ...(flags.channel === undefined ? {} : { channel: flags.channel }),
        ...(flags.chatId === undefined ? {} : { chatId: flags.chatId }),
      },
    })),
  )
}

/**
 * What to tell the user about a loaded workspace, one line each, control characters shown
 * as visible symbols.
 *
 * @category utils
 */
export const workspaceNotes = (dir: string, ws: Workspace, built?: SystemPrompt): ReadonlyArray<string> =>
  [
    ...ws.missing.map((f) => `workspace ${dir}: ${f} not found`),
    ...ws.problems.map((p) => `workspace ${dir}: ${p.message}`),
    ...(built?.parts ?? []).filter((p) => p.reason !== 'kept' && p.reason !== 'missing').map((p) => `workspace ${dir}: ${p.file ?? p.name}: ${p.detail}`),
  ].map(clean)

/** Parsed options of `gssc workspace prompt`. */
export interface PromptFlags extends WorkspaceFlags {
  readonly model: string
  readonly maxTokens?: number
  readonly json?: boolean
}

/**
 * `gssc workspace prompt <dir>`: prints the system prompt exactly as built (no newline
 * added), or with `--json` the prompt and its report; notes go to stderr.
 *
 * @category constructors
 */
export const runWorkspacePrompt = async (dir: string, flags: PromptFlags, io: Io): Promise<number> => {
  const problem = workspaceUsageProblem(flags, false)
  if (problem !== undefined) {
    io.stderr.write(`gssc workspace prompt: ${problem}\n`)
    return EXIT.usage
  }
  const result = await pipe(
    TE.Do,
    TE.bindW('tokenizer', () => TE.fromEither(createTokenizer(flags.model))),
    TE.bindW('settings', () => workspaceSettings(flags, io)),
    TE.bindW('ws', ({ settings }) => loadWorkspace(dir, settings.load)),
    TE.bindW('built', ({ tokenizer, settings, ws }) =>
      TE.fromEither(buildSystemPrompt(ws, { ...settings.prompt, tokenizer, ...(flags.maxTokens === undefined ? {} : { maxTokens: flags.maxTokens }) })),
    ),
  )()
  if (E.isLeft(result)) {
    io.stderr.write(`gssc workspace prompt: ${clean(result.left.message)}\n`)
    return EXIT.failed
  }
  const { ws, built } = result.right
  for (const note of workspaceNotes(dir, ws, built)) io.stderr.write(`gssc: ${note}\n`)
  if (flags.json === true) io.stdout.write(`${JSON.stringify({ prompt: built.prompt, tokens: built.tokens, parts: built.parts, problems: ws.problems.map((p) => p.message) }, null, 2)}\n`)
  else io.stdout.write(built.prompt)
  return EXIT.ok
}

/**
 * `gssc workspace init <dir>`.
 *
 * @category constructors
 */
export const runWorkspaceInit = async (dir: string, io: Io): Promise<number> => {
  const r = await initWorkspace(dir)()
  if (E.isLeft(r)) {
    io.stderr.write(`gssc workspace init: ${clean(r.left.message)}\n`)
    return EXIT.failed
  }
  // a folder's name is the user's, not ours: control characters are shown, never sent to the
  // terminal, and the suggested command quotes it so it can be pasted as it reads
  for (const f of r.right.created) io.stdout.write(`created ${clean(f)}\n`)
  for (const f of r.right.skipped) io.stdout.write(`kept    ${clean(f)} (already there)\n`)
  io.stderr.write(`gssc: workspace ready in ${clean(r.right.root)}; try: gssc build --workspace ${clean(shellWord(dir))} --query "hello"\n`)
  return EXIT.ok
}

/** `dir` as one POSIX shell word: as is when it needs no quoting, else single-quoted. */
const shellWord = (dir: string): string => (/^[\w./@%+=:,-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, `'\\''`)}'`)
