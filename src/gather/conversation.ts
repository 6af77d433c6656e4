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
import { conversationWindow, readConversation, type ConversationRead } from '../conversation/read.js'
import { composeSystemPrompt } from '../conversation/systemPrompt.js'
import type { ContextBuildOptions } from '../conversation/types.js'
import type { InputError } from '../error.js'
import { messageText, type ChatMessage } from '../message.js'
import type { PacketInput } from '../packet.js'
import type { Exclusion } from '../phase.js'
import { toolGroups } from '../toolUnits.js'
import { gatherer, type Gatherer, type GatheringWithExclusions } from './gatherer.js'

/** A stored conversation's packets and what it leaves out, with the turns as chat messages. */
export interface ConversationGathered extends GatheringWithExclusions {
  /** The composed system prompt; absent with `settings.includeSystemPrompt: false`. */
  readonly prompt?: PacketInput
  /** The turns sent, oldest first, each with its packet (whose `message` it is). */
  readonly turns: ReadonlyArray<{ readonly packet: PacketInput; readonly message: ChatMessage }>
  /** How many turns the conversation offered before the window (`settings.maxMessages`). */
  readonly offered: number
  /** How many were set aside by `includeInContext: false`. */
  readonly filteredCount: number
}

/**
 * A stored conversation as packets and what it leaves out: the composed prompt, then the
 * turns the window keeps (`conversationWindow`: the newest `maxMessages`, whole tool-call
 * units, never opening on a tool result). The one path from a stored conversation to packets:
 * the gatherer and `buildLlmMessagesFromConversation` both take it.
 *
 * @category utils
 * @since 0.2.0
 */
export const conversationGathering = (options: ContextBuildOptions): E.Either<InputError, ConversationGathered> =>
  E.map(({ turns, index, replaced, filtered }: ConversationRead): ConversationGathered => {
    const max = options.settings?.maxMessages
    const window = conversationWindow(turns, max)
    const groups = toolGroups(window.map((k) => turns[k]!))
    const id = (i: number): string => `conversation:${i}`
    const prompt: PacketInput | undefined =
      options.settings?.includeSystemPrompt === false ? undefined : { id: 'conversation:system', type: 'instructions', content: composeSystemPrompt(options), source: `conversation:${options.mode}` }
    const sent = window.map((k, n) => {
      const m = turns[k]!
      const packet: PacketInput = {
        id: id(index[k]!),
        type: 'history',
        content: messageText(m),
        source: 'conversation',
        message: m,
        ...(m.timestamp === undefined ? {} : { timestamp: m.timestamp }),
        ...(groups[n] === undefined ? {} : { group: `conversation:${groups[n]}` }),
      }
      return { packet, message: m }
    })
    const inWindow = new Set(window)
    const excluded: Exclusion[] = [
      ...replaced.map((i): Exclusion => ({ id: id(i), reason: 'filtered', detail: 'a stored system message: the composed system prompt replaces it' })),
      ...filtered.map((i): Exclusion => ({ id: id(i), reason: 'filtered', detail: 'includeInContext: false' })),
      ...turns.flatMap((_, k): ReadonlyArray<Exclusion> =>
        inWindow.has(k)
          ? []
          : [
              max !== undefined && k < (window[0] ?? turns.length)
                ? { id: id(index[k]!), reason: 'history_limit', detail: `older than the newest ${max} (settings.maxMessages)` }
                : { id: id(index[k]!), reason: 'orphan_result', detail: 'a tool result whose call is not sent' },
            ],
      ),
    ]
    return {
      packets: [...(prompt === undefined ? [] : [prompt]), ...sent.map((t) => t.packet)],
      excluded,
      ...(prompt === undefined ? {} : { prompt }),
      turns: sent,
      offered: turns.length,
      filteredCount: filtered.length,
    }
  })(readConversation(options))

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
    if (E.isLeft(r)) throw new Error(r.left.message)
    return { packets: r.right.packets, excluded: r.right.excluded }
  })
