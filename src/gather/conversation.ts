/**
 * A stored conversation (seed 001: messages with a session mode, agent, tool policy and run
 * context) as a gatherer: the composed system prompt as instructions (P0), then the stored
 * turns as history packets (a tool call and its results sharing a group), so the pipeline
 * selects, lays out and fits them like any history. Stored system messages (the composed
 * prompt replaces them) and messages with `includeInContext: false` are reported as left out
 * (`filtered`); `settings.maxMessages` is the history window (`history_limit`). Pure: runs
 * anywhere (exported from `gssc/conversation`).
 *
 * ```ts
 * build({ query: 'Continue.' }, { gatherers: [conversation({ messages: stored, mode: 'agent', agent, toolPolicy })], renderer: openaiRenderer() })
 * ```
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { readConversation } from '../conversation/build.js'
import { composeSystemPrompt } from '../conversation/systemPrompt.js'
import type { ContextBuildOptions } from '../conversation/types.js'
import { messageText } from '../message.js'
import type { PacketInput } from '../packet.js'
import type { Exclusion } from '../phase.js'
import { toolGroups, windowOpening } from '../toolUnits.js'
import { gatherer, type Gatherer, type GatheringWithExclusions } from './gatherer.js'

/**
 * A stored conversation as packets and what it leaves out: the composed prompt, then every
 * turn the conversation offers (the newest `maxMessages`, never opening on a tool result).
 *
 * @category utils
 * @since 0.2.0
 */
export const conversationGathering = (options: ContextBuildOptions): E.Either<Error, GatheringWithExclusions> => {
  const read = readConversation(options)
  if (E.isLeft(read)) return E.left(new Error(read.left.message))
  const { turns, index, replaced, filtered } = read.right
  const max = options.settings?.maxMessages ?? Number.POSITIVE_INFINITY
  const cut = Math.max(0, turns.length - max)
  // a window never opens on a result whose call it left out
  const start = cut > 0 ? windowOpening(turns, cut) : 0
  const groups = toolGroups(turns.slice(start))
  const id = (i: number): string => `conversation:${i}`
  const packets: PacketInput[] = [
    ...(options.settings?.includeSystemPrompt === false ? [] : [{ id: 'conversation:system', type: 'instructions' as const, content: composeSystemPrompt(options), source: `conversation:${options.mode}` }]),
    ...turns.slice(start).map((m, k): PacketInput => ({
      id: id(index[start + k]!),
      type: 'history',
      content: messageText(m),
      source: 'conversation',
      message: m,
      ...(m.timestamp === undefined ? {} : { timestamp: m.timestamp }),
      ...(groups[k] === undefined ? {} : { group: `conversation:${groups[k]}` }),
    })),
  ]
  const excluded: Exclusion[] = [
    ...replaced.map((i): Exclusion => ({ id: id(i), reason: 'filtered', detail: 'a stored system message: the composed system prompt replaces it' })),
    ...filtered.map((i): Exclusion => ({ id: id(i), reason: 'filtered', detail: 'includeInContext: false' })),
    ...index.slice(0, start).map((i): Exclusion => ({ id: id(i), reason: 'history_limit', detail: `older than the newest ${max} (settings.maxMessages)` })),
  ]
  return E.right({ packets, excluded })
}

/**
 * A stored conversation as a gatherer (see the module comment).
 *
 * @example
 * build({ query: '' }, { gatherers: [conversation({ messages, mode: 'chat' })], renderer: openaiRenderer() })
 * @category constructors
 * @since 0.2.0
 */
export const conversation = (options: ContextBuildOptions): Gatherer =>
  gatherer('conversation', () => {
    const r = conversationGathering(options)
    if (E.isLeft(r)) throw r.left
    return r.right
  })
