/**
 * Reusing builds across turns: a cache the caller creates and passes in (gssc keeps no
 * module-level state), keyed by file, leaf and the options that change a build.
 *
 * Within the TTL a cached build is the starting point of {@link rebuildSession}: one `stat`
 * when nothing changed, only the appended lines when the file grew. Once the TTL has passed
 * since the last full read, the file is read in full again, which bounds how long a
 * rewrite that the fingerprint cannot see could go unnoticed.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { InputError } from '../error.js'
import { optionsKey, type SessionBuild, type SessionBuildOptions } from './build.js'
import { rebuildSession } from './incremental.js'

/** Settings of a {@link SessionCache}. */
export interface SessionCacheOptions {
  /** How long (ms) a full read is trusted. The seed used 60 000. */
  readonly ttlMs: number
  /** Milliseconds now; inject a fake clock in tests. Default `Date.now`. */
  readonly clock?: () => number
  /** Most builds kept; the oldest is evicted first. Default 64. */
  readonly maxEntries?: number
}

/** A cache of session builds. */
export interface SessionCache {
  /** Builds a session, reusing (and refreshing) a cached build when it is within its TTL. */
  readonly build: (file: string, options: SessionBuildOptions) => TE.TaskEither<InputError, SessionBuild>
  /** Forgets every build of a file. */
  readonly invalidate: (file: string) => void
  readonly size: () => number
}

interface Slot {
  readonly build: SessionBuild
  /** When the build's file was last read in full. */
  readonly readAt: number
}

/**
 * @example
 * const sessions = createSessionCache({ ttlMs: 60_000 })
 * const build = await sessions.build('session.jsonl', { tokenizer })() // full
 * const again = await sessions.build('session.jsonl', { tokenizer })() // unchanged or incremental
 * @category constructors
 * @since 0.1.0
 */
export const createSessionCache = (options: SessionCacheOptions): SessionCache => {
  const clock = options.clock ?? Date.now
  const max = Math.max(1, options.maxEntries ?? 64)
  const slots = new Map<string, Slot>()
  const keyOf = (file: string, o: SessionBuildOptions): string => `${file}\u0000${optionsKey(o)}`
  return {
    build: (file, o) => async () => {
      const key = keyOf(file, o)
      const now = clock()
      const slot = slots.get(key)
      const fresh = slot !== undefined && now - slot.readAt < options.ttlMs ? slot : undefined
      const result = await rebuildSession(file, o, fresh?.build)()
      slots.delete(key)
      if (E.isLeft(result)) return result
      slots.set(key, { build: result.right, readAt: fresh !== undefined && result.right.stats.mode !== 'full' ? fresh.readAt : now })
      for (const k of slots.keys()) {
        if (slots.size <= max) break
        slots.delete(k)
      }
      return result
    },
    invalidate: (file) => {
      for (const k of [...slots.keys()]) if (k.startsWith(`${file}\u0000`)) slots.delete(k)
    },
    size: () => slots.size,
  }
}
