/**
 * One call from a session file to a counted, provider-ready history: load, rebuild the
 * branch, convert, count. The result carries a resume point, so the next turn's build can
 * read only what was appended ({@link rebuildSession}).
 *
 * A thin composition: the session gatherer's own read (`readSessionFile` in
 * `gather/sessionFile.ts`, the one path from a session file to a history, which the
 * `session(file)` gatherer makes packets of) and the build's report in the one vocabulary
 * (`withReport`: `sessionReport`, made with `layoutReport` as every builder's is). It fits
 * nothing (it has no budget; `reach` only bounds what is converted): a budgeted session
 * context is the gatherer through the core build's stages and the one fitting engine, and
 * the session strategies (`truncate`, `compress`, `smart`) fit a build's `history.items`
 * through the same engine.
 *
 * @module
 */
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { InputError } from '../error.js'
import { readSessionFile } from '../gather/sessionFile.js'
import { withReport, type SessionBuild, type SessionBuildOptions } from './built.js'

export { addIds, belowLeaf, hasId, optionsKey, withReport } from './built.js'
export type { BuildStats, IdLayers, ResumePoint, SessionBuild, SessionBuildOptions } from './built.js'

/**
 * Builds a session from scratch (see {@link rebuildSession} for the incremental version).
 *
 * @example
 * const build = await buildSession('session.jsonl', { tokenizer })()
 * // Right({ context, history: { items, repairs }, diagnostics, stats: { mode: 'full', … }, resume })
 * @category constructors
 * @since 0.1.0
 */
export const buildSession = (file: string, options: SessionBuildOptions, fallback?: string): TE.TaskEither<InputError, SessionBuild> =>
  pipe(
    readSessionFile(file, options, fallback),
    TE.map((read) => withReport(read, options.tokenizer.exact)),
  )
