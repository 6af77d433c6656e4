/**
 * pi's stored messages to neutral chat turns, as pi's `convertToLlm` maps them: user,
 * assistant and tool results pass through; `bashExecution`, `custom` and the summary roles
 * become user text. The summary wrappers are pi's, verbatim.
 *
 * @module
 */
import type { ChatMessage, ImagePart, Part, TextPart } from '../../message.js'
import { image, message, text, toolCall, toolResult } from '../../message.js'
import type { MessageKind } from '../model.js'
import { asObject, num, str, timestampMs, type Json } from './fields.js'

/** pi's wrapper around a compaction summary (`messages.ts`). */
export const COMPACTION_SUMMARY_PREFIX =
  'The conversation history before this point was compacted into the following summary:\n\n<summary>\n'
/** Closes {@link COMPACTION_SUMMARY_PREFIX}. */
export const COMPACTION_SUMMARY_SUFFIX = '\n</summary>'
/** pi's wrapper around a branch summary; pi puts no newline before the closing tag. */
export const BRANCH_SUMMARY_PREFIX = 'The following is a summary of a branch that this conversation came back from:\n\n<summary>\n'
/** Closes {@link BRANCH_SUMMARY_PREFIX}. */
export const BRANCH_SUMMARY_SUFFIX = '</summary>'

/** A converted message, or why it could not be. */
export type PiConverted =
  | { readonly kind: MessageKind; readonly messages: ReadonlyArray<ChatMessage>; readonly problems: ReadonlyArray<string> }
  | { readonly problem: string }

/** A compaction summary as the user turn pi sends. */
export const compactionSummaryMessage = (summary: string, timestamp?: number): ChatMessage =>
  message('user', COMPACTION_SUMMARY_PREFIX + summary + COMPACTION_SUMMARY_SUFFIX, timestamp === undefined ? {} : { timestamp })

/** A branch summary as the user turn pi sends. */
export const branchSummaryMessage = (summary: string, timestamp?: number): ChatMessage =>
  message('user', BRANCH_SUMMARY_PREFIX + summary + BRANCH_SUMMARY_SUFFIX, timestamp === undefined ? {} : { timestamp })

/** pi's `bashExecutionToText`: the command, its output, then how it ended. */
export const bashExecutionText = (m: Json): string => {
  const output = str(m, 'output') ?? ''
  const exit = num(m, 'exitCode')
  const fullOutputPath = str(m, 'fullOutputPath')
  return (
    `Ran \`${str(m, 'command') ?? ''}\`\n` +
    (output ? `\`\`\`\n${output}\n\`\`\`` : '(no output)') +
    (m['cancelled'] === true ? '\n\n(command cancelled)' : exit !== undefined && exit !== 0 ? `\n\nCommand exited with code ${exit}` : '') +
    (m['truncated'] === true && fullOutputPath ? `\n\n[Output truncated. Full output: ${fullOutputPath}]` : '')
  )
}

const mediaPart = (b: Json, problems: string[]): TextPart | ImagePart | undefined => {
  const t = str(b, 'text')
  if (b['type'] === 'text' && t !== undefined) return text(t)
  const data = str(b, 'data')
  const mimeType = str(b, 'mimeType')
  if (b['type'] === 'image' && data !== undefined && mimeType !== undefined) return image(mimeType, data)
  problems.push(`content block "${String(b['type'])}" not supported here; dropped`)
  return undefined
}

/** User-side content: a string, or text and image blocks. */
export const piMedia = (content: unknown, problems: string[]): ReadonlyArray<TextPart | ImagePart> => {
  if (typeof content === 'string') return [text(content)]
  if (!Array.isArray(content)) {
    problems.push('content is neither a string nor a block array')
    return []
  }
  const out: Array<TextPart | ImagePart> = []
  for (const item of content) {
    const b = asObject(item)
    const part = b === undefined ? undefined : mediaPart(b, problems)
    if (part !== undefined) out.push(part)
    else if (b === undefined) problems.push('content block is not an object; dropped')
  }
  return out
}

const argsOf = (v: unknown, problems: string[]): Readonly<Record<string, unknown>> => {
  const o = asObject(v)
  if (o !== undefined) return o
  if (typeof v === 'string') {
    try {
      const parsed = asObject(JSON.parse(v))
      if (parsed !== undefined) return parsed
    } catch {
      // reported below
    }
  }
  if (v !== undefined) problems.push('tool call arguments are not a JSON object; replaced by {}')
  return {}
}

const assistantParts = (content: unknown, problems: string[]): ReadonlyArray<Part> => {
  if (!Array.isArray(content)) {
    problems.push('assistant content is not a block array')
    return []
  }
  const parts: Part[] = []
  for (const item of content) {
    const b = asObject(item)
    if (b === undefined) problems.push('content block is not an object; dropped')
    else if (b['type'] === 'text') parts.push(text(str(b, 'text') ?? ''))
    else if (b['type'] === 'thinking') {
      const signature = str(b, 'thinkingSignature')
      parts.push({
        _tag: 'Thinking',
        text: str(b, 'thinking') ?? '',
        ...(signature === undefined ? {} : { signature }),
        ...(b['redacted'] === true ? { redacted: true } : {}),
      })
    } else if (b['type'] === 'toolCall' && str(b, 'id') !== undefined)
      parts.push(toolCall(str(b, 'id')!, str(b, 'name') ?? '', argsOf(b['arguments'], problems)))
    else problems.push(`assistant content block "${String(b['type'])}" not supported; dropped`)
  }
  return parts
}

const at = (timestamp: number | undefined): { readonly timestamp?: number } => (timestamp === undefined ? {} : { timestamp })

/**
 * Converts a pi `message` entry's message. `version` decides whether the v2 role
 * `hookMessage` is read as `custom` (pi renames it when migrating v1/v2 files only).
 *
 * @category utils
 */
export const piMessage = (m: Json, version: number): PiConverted => {
  const problems: string[] = []
  const ts = at(timestampMs(m['timestamp']))
  const role = m['role']
  const one = (kind: MessageKind, msg: ChatMessage): PiConverted => ({ kind, messages: [msg], problems })
  switch (role) {
    case 'user':
      return one('message', message('user', piMedia(m['content'], problems), ts))
    case 'assistant': {
      const provider = str(m, 'provider')
      const api = str(m, 'api')
      const model = str(m, 'model')
      const stopReason = str(m, 'stopReason')
      return one(
        'message',
        message('assistant', assistantParts(m['content'], problems), {
          ...ts,
          origin: { ...(provider === undefined ? {} : { provider }), ...(api === undefined ? {} : { api }), ...(model === undefined ? {} : { model }) },
          ...(stopReason === undefined ? {} : { stopReason }),
        }),
      )
    }
    case 'toolResult': {
      const callId = str(m, 'toolCallId')
      if (callId === undefined) return { problem: 'toolResult message has no toolCallId' }
      const result = toolResult(callId, str(m, 'toolName') ?? '', piMedia(m['content'], problems), m['isError'] === true)
      return one('message', message('tool', [result], ts))
    }
    case 'bashExecution':
      // `!!` commands are kept out of the model's context by pi
      return m['excludeFromContext'] === true
        ? { kind: 'bashExecution', messages: [], problems }
        : one('bashExecution', message('user', bashExecutionText(m), ts))
    case 'hookMessage':
      if (version >= 3) return { problem: 'message role "hookMessage" is not valid in a version 3 session (pi renames it to "custom" when migrating v2)' }
      return one('custom', message('user', piMedia(m['content'], problems), ts))
    case 'custom':
      return one('custom', message('user', piMedia(m['content'], problems), ts))
    case 'compactionSummary':
      return one('compactionSummary', compactionSummaryMessage(str(m, 'summary') ?? '', ts.timestamp))
    case 'branchSummary':
      return one('branchSummary', branchSummaryMessage(str(m, 'summary') ?? '', ts.timestamp))
    default:
      return { problem: `unknown message role ${JSON.stringify(role)}` }
  }
}
