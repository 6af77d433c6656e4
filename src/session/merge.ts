/**
 * Several branches of one session in one context, each turn once.
 *
 * Branches are taken in the order given. The first contributes all its messages; each later
 * one only the messages whose entry was not already included (its own part after the fork),
 * preceded by a marker turn saying that a different branch continues from an earlier point.
 * De-duplication is by entry id, never by content: two turns that say the same thing in
 * different branches are both kept, one shared turn is kept once.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type { InputError } from '../error.js'
import { message } from '../message.js'
import { branchContext } from './context.js'
import type { ContextMessage, LoadedSession } from './model.js'

/** How a branch contributed to a merge. */
export interface MergedBranch {
  readonly leafId: string
  /** Its messages already included by an earlier branch. */
  readonly shared: number
  /** Its own messages, added after the marker. */
  readonly own: number
}

/** Merged branches. */
export interface MergedContext {
  readonly messages: ReadonlyArray<ContextMessage>
  readonly branches: ReadonlyArray<MergedBranch>
}

/** Options of {@link mergeBranches}. */
export interface MergeOptions {
  /** The marker before each later branch's own part; `false` for none. Default: an English sentence naming the leaf. */
  readonly marker?: false | ((leafId: string) => string)
}

const defaultMarker = (leafId: string): string =>
  `The following turns come from another branch of this conversation (ending at entry ${leafId}). It continues from an earlier point than the turns just above, not from them.`

/**
 * Merges the branches ending at `leaves` (see the module comment).
 *
 * @example
 * pipe(session, mergeBranches(['a0000006', 'a000000f'])) // Right({ messages, branches: [{ shared: 0, own: 4 }, { shared: 0, own: 5 }] })
 * @category constructors
 * @since 0.1.0
 */
export const mergeBranches =
  (leaves: ReadonlyArray<string>, options: MergeOptions = {}) =>
  (session: LoadedSession): E.Either<InputError, MergedContext> => {
    const marker = options.marker === undefined ? defaultMarker : options.marker
    const seen = new Set<string>()
    const messages: ContextMessage[] = []
    const branches: MergedBranch[] = []
    for (const leaf of leaves) {
      const context = branchContext({ leaf })(session)
      if (E.isLeft(context)) return context
      const own = context.right.messages.filter((m) => !seen.has(m.entryId))
      if (own.length > 0 && branches.length > 0 && marker !== false)
        messages.push({ entryId: `branch:${leaf}`, kind: 'branchSummary', message: message('user', marker(leaf)) })
      messages.push(...own)
      for (const m of own) seen.add(m.entryId)
      branches.push({ leafId: leaf, shared: context.right.messages.length - own.length, own: own.length })
    }
    return E.right({ messages, branches })
  }
