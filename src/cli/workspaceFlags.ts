/**
 * The workspace flags of `gssc build` and `gssc workspace prompt`, apart from what they do:
 * defining a command's flags must not load the workspace reader (`gssc --help` stays light).
 *
 * @module
 */
import { InvalidArgumentError, Option, type Command } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import { NANOBOT_VERSIONS, parseNanobotVersion, type NanobotVersion } from '../workspace/version.js'

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
export const WORKSPACE_ONLY: ReadonlyArray<readonly [keyof WorkspaceFlags, string]> = [
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

/**
 * Flag combinations that cannot work with a workspace, or without one (here, not with the
 * workspace reader, so `gssc build` checks them without loading it).
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

