/**
 * Options of the system-prompt builder, validated once. Budgets are in tokens of the given
 * tokenizer, never characters.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { configError, type ConfigError } from '../error.js'
import { DEFAULT_PRIORITY, type PacketType, type Priority } from '../packet.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { HEAD_TOOL_NOTES } from './headToolNotes.js'
import { NANOBOT_TOOLS } from './nanobotIdentity.js'
import { versionProblem, type NanobotVersion } from './version.js'

/** The kinds of prompt part, each with its own packet type and priority. */
export type PartKind = 'identity' | 'bootstrap' | 'tool-notes' | 'memory' | 'notes' | 'active-skill' | 'skills-summary' | 'history' | 'session'

/**
 * Default packet type of each part kind. Its priority is the packet type's (P0
 * instructions, P1 task_state, P2 evidence, P3 history):
 * - identity, bootstrap files, tool notes and the session line are the agent's instructions;
 * - long-term memory and today's note are the state the agent works from;
 * - skills are evidence: reference material the agent may need;
 * - the history log is history, cut first.
 */
export const PART_TYPES: Readonly<Record<PartKind, PacketType>> = {
  identity: 'instructions',
  bootstrap: 'instructions',
  'tool-notes': 'instructions',
  session: 'instructions',
  memory: 'task_state',
  notes: 'task_state',
  'active-skill': 'evidence',
  'skills-summary': 'evidence',
  history: 'history',
}

/** Who the agent is, for the identity block. */
export interface IdentityOptions {
  /** Default `nanobot`. */
  readonly name?: string
  /** Shown after the name in the title. Default `🐈`; `''` for none. */
  readonly emoji?: string
  /** The first line. Default `You are <name>, a helpful AI assistant.` */
  readonly intro?: string
  /** Lines after the workspace paths. Default: two short lines on memory and skills. */
  readonly guidance?: ReadonlyArray<string>
}

/** Options of `buildSystemPrompt` and `workspacePackets`. Only `tokenizer` is required. */
export interface PromptOptions {
  /** Counts tokens: `createTokenizer('gpt-4o')`. */
  readonly tokenizer: Tokenizer
  /** Total budget of the system prompt. Default 32,000. */
  readonly maxTokens?: number
  /** Cap per file (bootstrap file, memory file, note, skill body, history entry). Default 5,000. */
  readonly maxFileTokens?: number
  /** Caps for particular files, by workspace path: `{ 'memory/MEMORY.md': 2000 }`. */
  readonly fileTokens?: Readonly<Record<string, number>>
  /** Cap for the whole "Recent History" block. Default 8,000 (nanobot's). */
  readonly maxHistoryTokens?: number
  /** A part is dropped rather than cut to fewer body tokens than this. Default 32. */
  readonly minCutTokens?: number
  /**
   * Priority overrides, by part kind or by file path (a path wins):
   * `{ 'TOOLS.md': 1, history: 4 }`.
   */
  readonly priorities?: Readonly<Record<string, Priority>>
  readonly identity?: IdentityOptions
  /**
   * The runtime line. Default `<OS> <machine>, Node.js <version>` of this process (nanobot
   * writes its Python's: pass `Linux x86_64, Python 3.11.7` to match a nanobot prompt).
   */
  readonly runtime?: string
  /**
   * The identity's tool list, as nanobot 0.1.x writes it ("You have access to tools that
   * allow you to:"), one capability a line. Default: nanobot's five with a nanobot version,
   * none in gssc's own layout.
   */
  readonly tools?: ReadonlyArray<string>
  /** nanobot HEAD's "# Tool Usage Notes" section. Default: that release's own. */
  readonly toolNotes?: string
  /** nanobot HEAD's platform policy. Default: `windows` on Windows, else `posix`. */
  readonly platform?: 'posix' | 'windows'
  /** Skills whose whole body goes in for this turn, besides the always-on ones. */
  readonly skillNames?: ReadonlyArray<string>
  /** With `chatId`, adds the `## Current Session` block. */
  readonly channel?: string
  readonly chatId?: string
  /** Include the history log's newest entries as "Recent History". Default true. */
  readonly includeHistory?: boolean
}

/** {@link PromptOptions} with every default filled in. */
export interface Settings {
  readonly tokenizer: Tokenizer
  readonly maxTokens: number
  readonly maxFileTokens: number
  readonly fileTokens: Readonly<Record<string, number>>
  readonly maxHistoryTokens: number
  readonly minCutTokens: number
  readonly priorities: Readonly<Record<string, Priority>>
  readonly identity: Required<IdentityOptions>
  readonly runtime: string
  readonly tools: ReadonlyArray<string>
  readonly toolNotes: string
  readonly platform: 'posix' | 'windows'
  readonly skillNames: ReadonlyArray<string>
  readonly session?: { readonly channel: string; readonly chatId: string }
  readonly includeHistory: boolean
}

const OS_NAMES: Readonly<Record<string, string>> = { darwin: 'macOS', linux: 'Linux', win32: 'Windows' }

/** Node's architecture names as `uname -m` (and so Python's `platform.machine()`) gives them. */
const MACHINES: Readonly<Record<string, string>> = { x64: 'x86_64', ia32: 'i686', arm64: 'aarch64', arm: 'armv7l', ppc64: 'ppc64le' }

/** `Linux x86_64, Node.js 20.19.0`, for this process (the machine named as nanobot names it). */
export const defaultRuntime = (): string => {
  const machine = process.platform === 'darwin' && process.arch === 'arm64' ? 'arm64' : (MACHINES[process.arch] ?? process.arch)
  return `${OS_NAMES[process.platform] ?? process.platform} ${machine}, Node.js ${process.versions.node}`
}

const positiveInt = (field: string, v: number): E.Either<ConfigError, number> =>
  Number.isInteger(v) && v > 0 ? E.right(v) : E.left(configError(field, v, 'must be a positive integer number of tokens'))

const oneLine = (field: string, v: string): E.Either<ConfigError, string> =>
  /[\r\n]/.test(v) ? E.left(configError(field, v, 'must be a single line')) : E.right(v)

/**
 * Validates options and fills defaults; with a nanobot `version`, also refuses what that
 * version's prompt has no place for, and lifts the token limits unless they are given.
 *
 * @example
 * resolveSettings({ tokenizer, maxTokens: 0 }) // Left(config.maxTokens: must be a positive integer number of tokens (got 0))
 * @category constructors
 */
export const resolveSettings = (o: PromptOptions, version?: NanobotVersion): E.Either<ConfigError, Settings> => {
  const unsupported = versionProblem(o, version)
  if (unsupported !== undefined) return E.left(unsupported)
  // reproducing nanobot: no limits unless asked for, since nanobot has none
  const limitless = version === undefined ? undefined : Number.MAX_SAFE_INTEGER
  const numbers: Array<[string, number | undefined, number]> = [
    ['maxTokens', o.maxTokens, limitless ?? 32_000],
    ['maxFileTokens', o.maxFileTokens, limitless ?? 5_000],
    ['maxHistoryTokens', o.maxHistoryTokens, 8_000],
    ['minCutTokens', o.minCutTokens, 32],
    ...Object.entries(o.fileTokens ?? {}).map(([k, v]): [string, number, number] => [`fileTokens[${JSON.stringify(k)}]`, v, v]),
  ]
  for (const [field, value, fallback] of numbers) {
    const checked = positiveInt(field, value ?? fallback)
    if (E.isLeft(checked)) return checked
  }
  for (const [key, p] of Object.entries(o.priorities ?? {}))
    if (!Number.isInteger(p) || p < 0 || p > 4) return E.left(configError(`priorities[${JSON.stringify(key)}]`, p, 'must be a priority 0–4'))
  if (version !== 'HEAD' && (o.channel === undefined) !== (o.chatId === undefined)) {
    // nanobot adds the session block only when both are known; say so instead of dropping one
    const [field, value] = o.channel === undefined ? ['chatId', o.chatId] : ['channel', o.channel]
    return E.left(configError(field, value, 'channel and chatId go together: give both or neither'))
  }
  const lines: ReadonlyArray<readonly [string, string | undefined]> = [
    ['channel', o.channel],
    ['chatId', o.chatId],
    ['runtime', o.runtime],
    ...(o.tools ?? []).map((t, i) => [`tools[${i}]`, t] as const),
  ]
  for (const [field, value] of lines) {
    if (value === undefined) continue
    const checked = oneLine(field, value)
    if (E.isLeft(checked)) return checked
  }
  const name = o.identity?.name ?? 'nanobot'
  return E.right({
    tokenizer: o.tokenizer,
    maxTokens: o.maxTokens ?? limitless ?? 32_000,
    maxFileTokens: o.maxFileTokens ?? limitless ?? 5_000,
    fileTokens: o.fileTokens ?? {},
    maxHistoryTokens: o.maxHistoryTokens ?? 8_000,
    minCutTokens: o.minCutTokens ?? 32,
    priorities: o.priorities ?? {},
    identity: {
      name,
      emoji: o.identity?.emoji ?? '🐈',
      intro: o.identity?.intro ?? `You are ${name}, a helpful AI assistant.`,
      guidance: o.identity?.guidance ?? DEFAULT_GUIDANCE,
    },
    runtime: o.runtime ?? defaultRuntime(),
    tools: o.tools ?? (version === undefined ? [] : NANOBOT_TOOLS),
    toolNotes: o.toolNotes ?? HEAD_TOOL_NOTES,
    platform: o.platform ?? (process.platform === 'win32' ? 'windows' : 'posix'),
    skillNames: o.skillNames ?? [],
    ...(o.channel !== undefined && (o.chatId !== undefined || version === 'HEAD') ? { session: { channel: o.channel, chatId: o.chatId ?? '' } } : {}),
    includeHistory: o.includeHistory ?? true,
  })
}

/** The identity's closing lines, unless replaced. */
export const DEFAULT_GUIDANCE: ReadonlyArray<string> = [
  'Write lasting facts about the user to the long-term memory file; it is shown to you at the start of every session.',
  'Skills are listed below; before using one, read its SKILL.md.',
]

/**
 * The type and priority of a part: a priority set for its file wins over one set for its
 * kind, which wins over the type's default.
 *
 * @category utils
 */
export const partClass = (s: Settings, kind: PartKind, file?: string): { readonly type: PacketType; readonly priority: Priority } => {
  const type = PART_TYPES[kind]
  return { type, priority: (file === undefined ? undefined : s.priorities[file]) ?? s.priorities[kind] ?? DEFAULT_PRIORITY[type] }
}

/** The per-file cap of a file. */
export const fileCap = (s: Settings, file: string): number => s.fileTokens[file] ?? s.maxFileTokens
