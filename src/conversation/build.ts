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
 * Differences from the seed's sketch: invalid input (a tool message without `toolCallId`,
 * tool-call arguments that are not a JSON object, an unknown mode) is an error value naming
 * the message and field, not an exception or a malformed request; and the result also carries
 * the neutral messages (`chat`), so the same conversation can go to `toAnthropic`.
 *
 * @module
 */
import { isRecord } from '../messageProblem.js'
import * as E from 'fp-ts/lib/Either.js'
import { inputError, show, type InputError } from '../error.js'
import type { ChatMessage, Part } from '../message.js'
import { fitDocument } from '../compress/engine.js'
import { windowPolicy } from '../compress/policy.js'
import { toOpenAI } from '../render/openai.js'
import { sectionsOf, turnsSection, type Item } from '../structure/document.js'
import { meter } from '../tokenize/meter.js'
import { estimateTokenizer } from '../tokenize/tokenizer.js'
import { toolGroups, windowOpening } from '../toolUnits.js'
import { composeSystemPrompt } from './systemPrompt.js'
import { SESSION_MODES, type ContextBuildOptions, type ContextBuildResult, type ConversationMessage, type ConversationToolCall } from './types.js'

const decodeArgs = (call: ConversationToolCall, path: string): E.Either<InputError, Readonly<Record<string, unknown>>> => {
  if (typeof call.arguments !== 'string') return E.right(call.arguments)
  try {
    const v: unknown = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments)
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? E.right(v as Record<string, unknown>)
      : E.left(inputError(`${path}.arguments`, `must encode a JSON object (got ${show(call.arguments)})`))
  } catch (e) {
    return E.left(inputError(`${path}.arguments`, `is not valid JSON: ${e instanceof Error ? e.message : String(e)} (got ${show(call.arguments)})`))
  }
}

/**
 * One stored message as a neutral chat message.
 *
 * @category utils
 * @since 0.1.0
 */
export const conversationToChatMessage = (m: ConversationMessage, path: string): E.Either<InputError, ChatMessage> => {
  const extra = { ...(m.createdAt === undefined ? {} : { timestamp: m.createdAt }), ...(m.name === undefined ? {} : { name: m.name }) }
  if (m.role === 'tool') {
    if (m.toolCallId === undefined || m.toolCallId === '') return E.left(inputError(`${path}.toolCallId`, 'a tool message needs the id of the call it answers'))
    return E.right({
      role: 'tool',
      parts: [{ _tag: 'ToolResult', callId: m.toolCallId, name: m.toolName ?? '', content: m.content === '' ? [] : [{ _tag: 'Text', text: m.content }], isError: m.isError === true }],
      ...extra,
    })
  }
  const parts: Array<Part> = m.content === '' ? [] : [{ _tag: 'Text', text: m.content }]
  const calls = m.toolCalls ?? []
  for (let k = 0; k < calls.length; k++) {
    const call = calls[k]!
    const args = decodeArgs(call, `${path}.toolCalls[${k}]`)
    if (E.isLeft(args)) return args
    parts.push({ _tag: 'ToolCall', id: call.id, name: call.name, args: args.right })
  }
  return E.right({ role: m.role, parts, ...extra })
}

/** A layout that is never over budget: the conversation builder fits by count only. */
const noBudget = { available: Number.MAX_SAFE_INTEGER, meter: meter(estimateTokenizer()), measure: () => 0, cost: () => 0 }

/**
 * The newest turns within `max`, through the fitting engine: a turns section whose limit is
 * `max`, whole tool-call units from the oldest end.
 */
const newestWithin = (turns: ReadonlyArray<ChatMessage>, max: number): ReadonlyArray<ChatMessage> => {
  const groups = toolGroups(turns)
  const items = turns.map((m, i): Item => ({ packetId: String(i), prefix: '', text: '', tokens: 0, message: m, ...(groups[i] === undefined ? {} : { group: groups[i] }) }))
  const history = turnsSection(items, { items: max, reason: 'max_messages' })
  const fitted = fitDocument({ blocks: [history], joiner: '' }, windowPolicy, noBudget)
  return sectionsOf(fitted.doc).flatMap((s) => s.items.map((i) => turns[Number(i.packetId)]!))
}

/** A stored conversation read: the turns it offers (with their input index), and what it left out. */
export interface ConversationRead {
  readonly turns: ReadonlyArray<ChatMessage>
  /** `index[i]`: where `turns[i]` is in `options.messages`. */
  readonly index: ReadonlyArray<number>
  /** Indexes of stored system messages (the composed prompt replaces them). */
  readonly replaced: ReadonlyArray<number>
  /** Indexes of messages with `includeInContext: false`. */
  readonly filtered: ReadonlyArray<number>
}

/**
 * Checks the options and reads the stored conversation (steps 2 and 3 of the module
 * comment): the one reading the builder and the conversation gatherer share.
 *
 * @category utils
 * @since 0.2.0
 */
export const readConversation = (options: ContextBuildOptions): E.Either<InputError, ConversationRead> => {
  if (!isRecord(options)) return E.left(inputError('options', `must be an object { messages, mode, … } (got ${show(options)})`))
  if (!Array.isArray(options.messages)) return E.left(inputError('messages', `must be an array (got ${show(options.messages)})`))
  if (!SESSION_MODES.includes(options.mode)) return E.left(inputError('mode', `must be one of ${SESSION_MODES.join(', ')} (got ${show(options.mode)})`))
  const max = options.settings?.maxMessages
  if (max !== undefined && !(Number.isInteger(max) && max >= 0))
    return E.left(inputError('settings.maxMessages', `must be a non-negative integer (got ${show(max)})`))
  const turns: Array<ChatMessage> = []
  const index: number[] = []
  const replaced: number[] = []
  const filtered: number[] = []
  for (let i = 0; i < options.messages.length; i++) {
    const m = options.messages[i]!
    if (!isRecord(m as unknown)) return E.left(inputError(`messages[${i}]`, `must be a message object (got ${show(m)})`))
    if (m.role === 'system') {
      replaced.push(i)
      continue
    }
    if (m.includeInContext === false) {
      filtered.push(i)
      continue
    }
    const chat = conversationToChatMessage(m, `messages[${i}]`)
    if (E.isLeft(chat)) return chat
    turns.push(chat.right)
    index.push(i)
  }
  return E.right({ turns, index, replaced, filtered })
}

/**
 * Builds the messages of the next model call from a stored conversation.
 *
 * @example
 * const r = buildLlmMessagesFromConversation({ messages: stored, mode: 'chat' })
 * if (E.isRight(r)) await openai.chat.completions.create({ model: 'gpt-4o', messages: r.right.messages })
 * @category constructors
 * @since 0.1.0
 */
export const buildLlmMessagesFromConversation = (options: ContextBuildOptions): E.Either<InputError, ContextBuildResult> => {
  const read = readConversation(options)
  if (E.isLeft(read)) return read
  const max = options.settings?.maxMessages
  const filteredCount = read.right.filtered.length
  const kept = read.right.turns
  const limited = max === undefined ? kept : newestWithin(kept, max)
  // a window never opens on a result whose call it left out
  const start = windowOpening(limited, 0)
  const history = limited.slice(start)
  const trimmedCount = kept.length - history.length

  const includePrompt = options.settings?.includeSystemPrompt !== false
  const prompt = includePrompt ? composeSystemPrompt(options) : ''
  const chat: ReadonlyArray<ChatMessage> = includePrompt ? [{ role: 'system', parts: [{ _tag: 'Text', text: prompt }] }, ...history] : history
  const { messages, findings } = toOpenAI(chat, options.openai)
  return E.right({
    messages,
    chat,
    findings,
    metadata: {
      inputCount: options.messages.length,
      outputCount: messages.length,
      filteredCount,
      trimmedCount,
      systemPromptIncluded: includePrompt,
      systemPromptLength: prompt.length,
    },
  })
}
