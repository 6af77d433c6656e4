/**
 * Which nanobot a workspace prompt reproduces. nanobot is an open-source Python agent
 * (HKUDS/nanobot) whose workspace folder gssc reads; each release builds its system prompt
 * a little differently, so reproducing one byte for byte means following that release's
 * own rules: its identity block and wording, the files it reads, how it parses a SKILL.md
 * and in which order it lists skills.
 *
 * - `0.1.3`: release v0.1.3.post4 (daily notes, no runtime line);
 * - `0.1.4`: release v0.1.4 (runtime line, `(CST)` time-zone label, HISTORY.md wording);
 * - `HEAD`: the current release line (commit 3852956a71a9, after v0.3.0): no clock in the
 *   system prompt, relative paths, template files skipped, fixed tool notes, skills in
 *   Markdown grouped by origin.
 *
 * Without a version, gssc builds its own layout, which reads every memory layout at once.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { configError, inputError, type ConfigError, type InputError } from '../error.js'
import type { PromptOptions } from './options.js'

/** A nanobot release whose prompt gssc reproduces. */
export type NanobotVersion = '0.1.3' | '0.1.4' | 'HEAD'

/** Every supported version, oldest first. */
export const NANOBOT_VERSIONS: ReadonlyArray<NanobotVersion> = ['0.1.3', '0.1.4', 'HEAD']

/** Other spellings people use for the same releases. */
const ALIASES: Readonly<Record<string, NanobotVersion>> = {
  'v0.1.3': '0.1.3',
  '0.1.3.post4': '0.1.3',
  'v0.1.3.post4': '0.1.3',
  'v0.1.4': '0.1.4',
  head: 'HEAD',
  '3852956a71a9': 'HEAD',
}

/**
 * A version from text (a flag or config value); `input` names it in the error.
 *
 * @example
 * parseNanobotVersion('v0.1.3.post4', '--nanobot-version') // Right('0.1.3')
 * @category constructors
 */
export const parseNanobotVersion = (text: string, input: string): E.Either<InputError, NanobotVersion> => {
  const v = (NANOBOT_VERSIONS as ReadonlyArray<string>).includes(text) ? (text as NanobotVersion) : ALIASES[text.trim()]
  return v === undefined ? E.left(inputError(input, `${JSON.stringify(text)} is not a nanobot version gssc reproduces (${NANOBOT_VERSIONS.join(', ')})`)) : E.right(v)
}

/** The bootstrap files a version loads, in its order. */
export const bootstrapFilesOf = (v: NanobotVersion | undefined): ReadonlyArray<string> =>
  v === 'HEAD' ? ['AGENTS.md', 'SOUL.md', 'USER.md'] : ['AGENTS.md', 'SOUL.md', 'USER.md', 'TOOLS.md', 'IDENTITY.md']

/**
 * An option `version`'s prompt has no place for, as an error: nothing given is dropped
 * without a word. (gssc's own layout takes every option.)
 *
 * @category utils
 */
export const versionProblem = (o: PromptOptions, version: NanobotVersion | undefined): ConfigError | undefined => {
  const headOnly = o.toolNotes !== undefined ? (['toolNotes', o.toolNotes, 'a tool-notes section'] as const) : o.platform !== undefined ? (['platform', o.platform, 'a platform policy'] as const) : undefined
  if (version !== 'HEAD' && headOnly !== undefined)
    return configError(headOnly[0], headOnly[1], `${version === undefined ? '' : `nanobot ${version}: `}only nanobot HEAD has ${headOnly[2]}`)
  if (version === undefined) return undefined
  const refuse = (field: string, value: unknown, why: string): ConfigError => configError(field, value, `nanobot ${version}: ${why}`)
  if (o.identity?.intro !== undefined || o.identity?.guidance !== undefined)
    return refuse('identity', o.identity, "its identity wording is fixed; only the name and emoji (0.1.x), the runtime line and the tool list can change")
  if (o.skillNames !== undefined && o.skillNames.length > 0)
    return refuse('skillNames', o.skillNames, version === 'HEAD' ? 'skills asked for by name go in the user turn, not the system prompt' : 'its system prompt ignores skills asked for by name')
  if (version === 'HEAD') {
    if (o.identity !== undefined) return refuse('identity', o.identity, 'its prompt has no title')
    if (o.tools !== undefined) return refuse('tools', o.tools, 'it has no tool list; replace its tool notes with toolNotes')
    if (o.chatId !== undefined) return refuse('chatId', o.chatId, 'the chat id goes in the user turn, not the system prompt (give channel alone)')
    return undefined
  }
  if (version === '0.1.3' && (o.channel !== undefined || o.chatId !== undefined))
    return refuse(o.channel !== undefined ? 'channel' : 'chatId', o.channel ?? o.chatId, 'its prompt does not note the session')
  return undefined
}
