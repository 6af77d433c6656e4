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
import { InvalidArgumentError, Option, type Command } from 'commander'
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
import { NANOBOT_VERSIONS, parseNanobotVersion, type NanobotVersion } from '../workspace/version.js'
import { textOrFile } from './files.js'
import { EXIT, type Io } from './io.js'

/** How to read a workspace and build its prompt, as given on the command line. */
export interface WorkspaceFlags {
  readonly nanobotVersion?: NanobotVersion
  readonly now?: string
  readonly timeZone?: string
  readonly tzLabel?: string
  readonly runtime?: string
  readonly tool?: ReadonlyArray<string>
  /** False with `--no-tools`. */
  readonly tools?: boolean
  readonly toolNotes?: string
  readonly builtinSkills?: string
  readonly skillOrder?: 'directory' | 'sorted'
  readonly sessionKey?: string
  readonly platform?: 'posix' | 'windows'
  readonly channel?: string
  readonly chatId?: string
}

/** The flags naming what a workspace reads and shows, for usage checks. */
const WORKSPACE_ONLY: ReadonlyArray<readonly [keyof WorkspaceFlags, string]> = [
  ['nanobotVersion', '--nanobot-version'],
  ['now', '--now'],
  ['timeZone', '--time-zone'],
  ['tzLabel', '--tz-label'],
  ['runtime', '--runtime'],
  ['tool', '--tool'],
  ['toolNotes', '--tool-notes'],
  ['builtinSkills', '--builtin-skills'],
  ['skillOrder', '--skill-order'],
  ['sessionKey', '--session-key'],
  ['platform', '--platform'],
]

const version = (value: string): NanobotVersion => {
  const v = parseNanobotVersion(value, '--nanobot-version')
  if (E.isLeft(v)) throw new InvalidArgumentError(v.left.message.replace(/^--nanobot-version: /, ''))
  return v.right
}

const collect = (value: string, previous?: ReadonlyArray<string>): ReadonlyArray<string> => [...(previous ?? []), value]

/**
 * Adds the workspace flags to a command (`--channel` and `--chat-id` included).
 *
 * @category constructors
 */
export const workspaceOptions = (command: Command): Command =>
  command
    .option('--nanobot-version <version>', `build the prompt as this nanobot release does, byte for byte (${NANOBOT_VERSIONS.join(', ')}; default: gssc's own layout)`, version)
    .option('--now <time>', 'the clock: an ISO 8601 time ("2026-11-22 09:15" is read in --time-zone; add Z or an offset for an instant), or epoch milliseconds')
    .option('--time-zone <zone>', "the clock's IANA time zone (default: the system's)")
    .option('--tz-label <label>', 'the zone as Python\'s %Z prints it, e.g. CST (default: from the zone database)')
    .option('--runtime <line>', 'the runtime line, e.g. "Linux x86_64, Python 3.11.7" (default: this Node.js)')
    .option('--tool <capability>', 'a line of the identity\'s tool list (repeat for more; default: nanobot\'s own)', collect)
    .option('--no-tools', 'no tool list in the identity')
    .option('--tool-notes <text|@file>', "nanobot HEAD's Tool Usage Notes section (default: that release's own)")
    .option('--builtin-skills <dir>', "a read-only folder of bundled skills (nanobot's nanobot/skills), listed after the workspace's")
    .addOption(new Option('--skill-order <order>', 'list skills as the file system does (nanobot) or by name').choices(['directory', 'sorted']))
    .option('--session-key <key>', 'show only this session\'s history entries, e.g. "telegram:42"')
    .addOption(new Option('--platform <platform>', "nanobot HEAD's platform policy (default: this system's)").choices(['posix', 'windows']))
    .option('--channel <name>', 'the chat channel, noted in the workspace prompt')
    .option('--chat-id <id>', 'the chat id, noted in the workspace prompt (with --channel)')

/**
 * Flag combinations that cannot work with a workspace, or without one.
 *
 * @category utils
 */
export const workspaceUsageProblem = (flags: WorkspaceFlags & { readonly workspace?: string }, needsWorkspace: boolean): string | undefined => {
  if (needsWorkspace && flags.workspace === undefined) {
    const given = [...WORKSPACE_ONLY, ['channel', '--channel'] as const, ['chatId', '--chat-id'] as const].find(([key]) => flags[key] !== undefined)
    if (given !== undefined || flags.tools === false) return `${given?.[1] ?? '--no-tools'} needs --workspace`
  }
  if (flags.chatId !== undefined && flags.channel === undefined) return '--chat-id needs --channel'
  if (flags.channel !== undefined && flags.chatId === undefined && flags.nanobotVersion !== 'HEAD') return '--channel needs --chat-id (only nanobot HEAD takes a channel alone)'
  if (flags.tool !== undefined && flags.tools === false) return '--tool and --no-tools contradict each other'
  return undefined
}

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
  for (const f of r.right.created) io.stdout.write(`created ${f}\n`)
  for (const f of r.right.skipped) io.stdout.write(`kept    ${f} (already there)\n`)
  io.stderr.write(`gssc: workspace ready in ${r.right.root}; try: gssc build --workspace ${dir} --query "hello"\n`)
  return EXIT.ok
}
