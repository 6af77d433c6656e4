/**
 * Where the recorded real-world data lives: `../shared` next to the repository, as CI sees it
 * (`../shared/fixtures`: pi sessions, Claude Code transcripts, nanobot workspaces).
 */
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'

/** The `shared` folder beside the repository. */
export const SHARED = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../shared')

/** A path inside `../shared/fixtures`. */
export const fixture = (...parts: ReadonlyArray<string>): string => resolve(SHARED, 'fixtures', ...parts)
