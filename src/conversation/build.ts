/**
 * Stored conversation → OpenAI messages for the next model call (seed 001's
 * `buildLlmMessagesFromConversation`).
 *
 * 1. The composed system prompt goes first (it is built fresh every time, never stored);
 *    `settings.includeSystemPrompt: false` leaves it out.
 * 2. Stored system messages are skipped: the composed prompt replaces them. As in the seed
 *    they are not counted in `filteredCount`.
 * 3. Messages with `includeInContext: false` are left out and counted in `filteredCount`.
 * 4. `settings.maxMessages` keeps the newest that many of the rest, as the fitting engine's
 *    section limit: a tool call and its results go whole, and a window never opens on a
 *    tool result (both counted in `trimmedCount`).
 * 5. The result goes through `toOpenAI`, so the provider rules hold even when filtering cut a
 *    tool call from its result; every repair is listed in `findings`.
 *
 * It is a composition: steps 1–4 are the conversation gatherer's reading
 * (`conversationGathering`, which the pipeline's `conversation()` gatherer also uses), step 5
 * the OpenAI renderer; the result carries its `report` in the one vocabulary.
 *
 * Differences from the seed's sketch: invalid input (a tool message without `toolCallId`,
 * tool-call arguments that are not a JSON object, an unknown mode) is an error value naming
 * the message and field, not an exception or a malformed request; and the result also carries
 * the neutral messages (`chat`), so the same conversation can go to `toAnthropic`.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type { InputError } from '../error.js'
import { conversationGathering, type ConversationGathered } from '../gather/conversation.js'
import type { ChatMessage } from '../message.js'
import { toOpenAI } from '../render/openai.js'
import { conversationReport } from './report.js'
import type { ContextBuildOptions, ContextBuildResult } from './types.js'

export { conversationToChatMessage, conversationWindow, readConversation, type ConversationRead } from './read.js'

/**
 * Builds the messages of the next model call from a stored conversation.
 *
 * @example
 * const r = buildLlmMessagesFromConversation({ messages: stored, mode: 'chat' })
 * if (E.isRight(r)) await openai.chat.completions.create({ model: 'gpt-4o', messages: r.right.messages })
 * @category constructors
 * @since 0.1.0
 */
export const buildLlmMessagesFromConversation = (options: ContextBuildOptions): E.Either<InputError, ContextBuildResult> =>
  E.map((g: ConversationGathered): ContextBuildResult => {
    const history = g.turns.map((t) => t.message)
    const prompt = g.prompt?.content
    const chat: ReadonlyArray<ChatMessage> = prompt === undefined ? history : [{ role: 'system', parts: [{ _tag: 'Text', text: prompt }] }, ...history]
    const rendered = toOpenAI(chat, options.openai)
    const { messages, findings } = rendered
    return {
      messages,
      chat,
      findings,
      metadata: {
        inputCount: options.messages.length,
        outputCount: messages.length,
        filteredCount: g.filteredCount,
        trimmedCount: g.offered - history.length,
        systemPromptIncluded: prompt !== undefined,
        systemPromptLength: prompt?.length ?? 0,
      },
      report: conversationReport(g, rendered),
    }
  })(conversationGathering(options))
