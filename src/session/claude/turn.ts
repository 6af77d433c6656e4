/**
 * The unit Claude Code's resume logic works on: one message as Claude Code holds it in
 * memory (a user, assistant or local-command line, later merged), with every part
 * remembering the line it came from so provenance survives merging.
 *
 * @module
 */
import { match, P } from 'ts-pattern'
import type { ChatMessage, Origin, Part } from '../../message.js'
import type { ContextMessage, Entry, MessageKind } from '../model.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A part and the line (entry) it came from. */
export interface Sourced {
  readonly part: Part
  readonly entryId: string
  readonly kind: MessageKind
}

/** One Claude Code message: `system` is a `local_command` line, sent as user text. */
export interface Turn {
  readonly type: 'user' | 'assistant' | 'system'
  /** The first line it came from. */
  readonly entryId: string
  readonly line: number
  readonly parts: ReadonlyArray<Sourced>
  /** The API response id (`message.id`) of an assistant line. */
  readonly messageId?: string
  readonly meta: boolean
  readonly compactSummary: boolean
  /** An API error Claude Code recorded as an assistant line. */
  readonly apiError: boolean
  readonly origin?: Origin
  readonly stopReason?: string
  readonly timestamp?: number
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** Who speaks in a line with no assistant message: a local command's output is the system's, anything else the user's. */
const speakerOf = (kind: MessageKind): 'system' | 'user' =>
  match(kind)
    .with('localCommand', () => 'system' as const)
    .with(P.union('message', 'custom', 'bashExecution', 'compactionSummary', 'branchSummary', 'meta', 'synthetic'), () => 'user' as const)
    .exhaustive()

/** The turn a line contributes, if it carries messages. */
export const turnOf = (e: Entry): Turn | undefined => {
  const b = e.body
  if (b._tag !== 'Message' || b.messages.length === 0) return undefined
  const assistant = b.messages.find((m) => m.role === 'assistant')
  const parts = b.messages.flatMap((m) => m.parts.map((part) => ({ part, entryId: e.id, kind: b.kind })))
  const first = assistant ?? b.messages[0]!
  return {
    type: assistant !== undefined ? 'assistant' : speakerOf(b.kind),
    entryId: e.id,
    line: e.line,
    parts,
    ...(b.mergeKey === undefined || assistant === undefined ? {} : { messageId: b.mergeKey }),
    meta: b.kind === 'meta',
    compactSummary: b.kind === 'compactionSummary',
    apiError: assistant?.stopReason === 'error',
    ...(first.origin === undefined ? {} : { origin: first.origin }),
    ...(assistant?.stopReason === undefined ? {} : { stopReason: assistant.stopReason }),
    ...(first.timestamp === undefined ? {} : { timestamp: first.timestamp }),
  }
}

/** A turn Claude Code adds itself when it resumes (`No response requested.`, `Continue from where you left off.`). */
export const syntheticTurn = (type: 'user' | 'assistant', text: string, after: Turn): Turn => ({
  type,
  entryId: `${after.entryId}:${type === 'user' ? 'continue' : 'no-response'}`,
  line: after.line,
  parts: [{ part: { _tag: 'Text', text }, entryId: `${after.entryId}:${type === 'user' ? 'continue' : 'no-response'}`, kind: 'synthetic' }],
  meta: type === 'user',
  compactSummary: false,
  apiError: false,
  ...(type === 'assistant' ? { origin: { provider: 'anthropic', api: 'anthropic-messages', model: '<synthetic>' } } : {}),
})

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** Whether a turn holds tool results. */
export const hasResults = (t: Turn): boolean => t.parts.some((s) => s.part._tag === 'ToolResult')

/** The tool-call ids of a turn. */
export const callIds = (t: Turn): ReadonlyArray<string> => t.parts.flatMap((s) => (s.part._tag === 'ToolCall' ? [s.part.id] : []))

const kindOf = (parts: ReadonlyArray<Sourced>): MessageKind => {
  const kinds = new Set(parts.map((s) => s.kind))
  return kinds.size === 1 ? parts[0]!.kind : 'message'
}

/**
 * A merged turn as context messages: an assistant turn is one message; a user turn is one
 * `tool` message per result (first, as Claude Code hoists them) and one user message with
 * the rest.
 *
 * @category utils
 */
export const toContext = (t: Turn): ReadonlyArray<ContextMessage> => {
  const at = t.timestamp === undefined ? {} : { timestamp: t.timestamp }
  if (t.type === 'assistant') {
    const m: ChatMessage = {
      role: 'assistant',
      parts: t.parts.map((s) => s.part),
      ...at,
      ...(t.origin === undefined ? {} : { origin: t.origin }),
      ...(t.stopReason === undefined ? {} : { stopReason: t.stopReason }),
    }
    return [{ entryId: t.entryId, kind: kindOf(t.parts), message: m, ...(t.messageId === undefined ? {} : { mergeKey: t.messageId }) }]
  }
  const results = t.parts.filter((s) => s.part._tag === 'ToolResult')
  const rest = t.parts.filter((s) => s.part._tag !== 'ToolResult')
  return [
    ...results.map((s): ContextMessage => ({ entryId: s.entryId, kind: s.kind, message: { role: 'tool', parts: [s.part], ...at } })),
    // a turn with nothing at all still shows up, so the history reports it as empty
    ...(rest.length === 0 && results.length > 0
      ? []
      : [{ entryId: rest[0]?.entryId ?? t.entryId, kind: rest.length === 0 ? 'message' : kindOf(rest), message: { role: 'user' as const, parts: rest.map((s) => s.part), ...at } }]),
  ]
}
