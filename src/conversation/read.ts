/**
 * Reading a stored conversation (seed 001): each stored message checked and made a neutral
 * chat message, stored system messages and `includeInContext: false` ones set aside, and the
 * newest `settings.maxMessages` chosen by the fitting engine. The one reading the builder
 * (`buildLlmMessagesFromConversation`) and the conversation gatherer share.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { fitDocument } from '../compress/engine.js'
import { windowPolicy } from '../compress/policy.js'
import { inputError, show, type InputError } from '../error.js'
import type { ChatMessage, Part } from '../message.js'
import { isRecord } from '../messageProblem.js'
import { sectionsOf, turnsSection, type Item } from '../structure/document.js'
import { meter } from '../tokenize/meter.js'
import { estimateTokenizer } from '../tokenize/tokenizer.js'
import { toolGroups, windowOpening } from '../toolUnits.js'
import { SESSION_MODES, type ContextBuildOptions, type ConversationMessage, type ConversationToolCall } from './types.js'

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

/** A layout that is never over budget: the conversation builder fits by count only. */
const noBudget = { available: Number.MAX_SAFE_INTEGER, meter: meter(estimateTokenizer()), measure: () => 0, cost: () => 0 }

/** The positions of the newest turns within `max`, whole tool-call units, through the engine. */
const newestWithin = (turns: ReadonlyArray<ChatMessage>, max: number): ReadonlyArray<number> => {
  const groups = toolGroups(turns)
  const items = turns.map((m, i): Item => ({ packetId: String(i), prefix: '', text: '', tokens: 0, message: m, ...(groups[i] === undefined ? {} : { group: groups[i] }) }))
  const fitted = fitDocument({ blocks: [turnsSection(items, { items: max, reason: 'history_limit' })], joiner: '' }, windowPolicy, noBudget)
  return sectionsOf(fitted.doc).flatMap((s) => s.items.map((i) => Number(i.packetId)))
}

/**
 * The positions of the turns a conversation sends: the newest within `max` (absent: all),
 * through the fitting engine (a turns section whose limit is `max`, whole tool-call units from
 * the oldest end), never opening on a tool result whose call it left out.
 *
 * @category utils
 * @since 0.2.0
 */
export const conversationWindow = (turns: ReadonlyArray<ChatMessage>, max: number | undefined): ReadonlyArray<number> => {
  const limited = max === undefined ? turns.map((_, i) => i) : newestWithin(turns, max)
  // a window never opens on a result whose call it left out
  return limited.slice(windowOpening(limited.map((k) => turns[k]!), 0))
}

