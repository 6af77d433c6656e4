/**
 * The message-local half of the repair pass: each message on its own, without looking at its
 * neighbours. Failed turns go, empty text goes, parts that cannot appear in their role go,
 * reasoning is kept, turned into text or dropped, and tool results are taken out of whatever
 * turn holds them so that the pairing pass can place them.
 *
 * @module
 */
import { match } from 'ts-pattern'
import type { ChatMessage, ImagePart, Origin, Part, TextPart, ThinkingPart, ToolResultPart } from '../message.js'
import { hasText } from './blank.js'
import { sanitizeName } from './callId.js'
import type { Finding } from './finding.js'
import type { RepairOptions } from './options.js'
import { isAnthropicMediaType } from './wire.js'

/** One input message after local cleaning. */
export interface Cleaned {
  /** Position in the caller's input. */
  readonly index: number
  /** The message without its tool results; absent when nothing else is left. */
  readonly message: ChatMessage | undefined
  /** Tool results found in the message, cleaned, in order. */
  readonly results: ReadonlyArray<ToolResultPart>
  readonly findings: ReadonlyArray<Finding>
}

/**
 * A model id without what only names a snapshot of it or a route to it, so that the alias a
 * user types and the dated id a transcript records compare equal: a date suffix
 * (`claude-opus-4-5-20251101`, Vertex's `@20251101`), a Bedrock or router prefix
 * (`us.anthropic.`, `anthropic/`), a Bedrock version (`-v1:0`), a context-size tag (`[1m]`).
 *
 * @example
 * modelFamily('us.anthropic.claude-opus-4-5-20251101-v1:0') // 'claude-opus-4-5'
 * @category utils
 * @since 0.1.0
 */
export const modelFamily = (id: string): string =>
  id
    .trim()
    .toLowerCase()
    .replace(/^(?:[a-z]{2,4}\.)?anthropic[./]/, '')
    .replace(/\[[0-9]+[km]\]$/, '')
    .replace(/-v[0-9]+(?::[0-9]+)?$/, '')
    .replace(/[-@][0-9]{8}$/, '')

/**
 * Whether reasoning from `origin` may be replayed to `target`: the same model (by
 * {@link modelFamily}: a signature belongs to the model, whatever name reaches it), the same
 * provider when the target names one, the same API when both name one.
 *
 * @category utils
 * @since 0.1.0
 */
export const sameModel = (origin: Origin | undefined, target: Origin | undefined): boolean =>
  target?.model !== undefined &&
  origin?.model !== undefined &&
  modelFamily(origin.model) === modelFamily(target.model) &&
  (target.provider === undefined || origin.provider === target.provider) &&
  (target.api === undefined || origin.api === undefined || origin.api === target.api)

/** The opaque payload of a redacted thinking part (kept in `signature`, else `text`). */
export const redactedData = (p: ThinkingPart): string => p.signature ?? p.text

const isBlank = (s: string): boolean => !hasText(s)

const FAILED: ReadonlySet<string> = new Set(['error', 'aborted'])

/**
 * Cleans one message for a format. Pure: returns new values and the findings.
 *
 * @category utils
 * @since 0.1.0
 */
export const cleanMessage = (m: ChatMessage, index: number, options: RepairOptions): Cleaned => {
  if (m.role === 'assistant' && m.stopReason !== undefined && FAILED.has(m.stopReason))
    return { index, message: undefined, results: [], findings: [{ _tag: 'DroppedFailedTurn', index, stopReason: m.stopReason }] }

  const findings: Array<Finding> = []
  let emptyText = 0
  /** Whether a text has content; counts the ones that do not. */
  const nonEmpty = (t: TextPart): boolean => {
    if (!isBlank(t.text)) return true
    emptyText++
    return false
  }
  const keepImage = (img: ImagePart): boolean => {
    if (options.format === 'anthropic' && img.source._tag === 'Base64' && !isAnthropicMediaType(img.source.mimeType)) {
      findings.push({ _tag: 'DroppedImage', index, reason: 'media_type' })
      return false
    }
    return true
  }
  const cleanResult = (r: ToolResultPart): ToolResultPart => ({
    ...r,
    content: r.content.filter((c) => (c._tag === 'Text' ? nonEmpty(c) : keepImage(c))),
  })
  const stray = (p: Part): undefined => {
    findings.push({ _tag: 'DroppedStrayPart', index, part: p._tag })
    return undefined
  }
  const image = (img: ImagePart): ImagePart | undefined => {
    if (m.role === 'tool') return stray(img)
    if (m.role !== 'user') {
      findings.push({ _tag: 'DroppedImage', index, reason: m.role })
      return undefined
    }
    return keepImage(img) ? img : undefined
  }
  const thinking = (p: ThinkingPart): ThinkingPart | TextPart | undefined => {
    const replayable = options.format === 'anthropic' && sameModel(m.origin, options.target)
    const drop = (reason: 'redacted' | 'empty' | 'policy' | 'not_replayable'): undefined => {
      findings.push({ _tag: 'DroppedThinking', index, reason })
      return undefined
    }
    if (p.redacted === true) return replayable && redactedData(p).length > 0 ? p : drop('redacted')
    if (replayable && p.signature !== undefined && p.signature.length > 0) return p
    if (options.format === 'openai' && sameModel(m.origin, options.target))
      return options.reasoningContent === true && !isBlank(p.text) ? p : drop('not_replayable')
    if (isBlank(p.text)) return drop('empty')
    if (options.thinking === 'drop') return drop('policy')
    findings.push({ _tag: 'ThinkingAsText', index })
    return { _tag: 'Text', text: p.text }
  }

  const results: Array<ToolResultPart> = []
  const parts: Array<Part> = []
  for (const p of m.parts) {
    const kept: Part | undefined = match(p)
      .with({ _tag: 'Text' }, (t) => (!nonEmpty(t) ? undefined : m.role === 'tool' ? stray(t) : t))
      .with({ _tag: 'Image' }, image)
      .with({ _tag: 'Document' }, () => {
        findings.push({ _tag: 'DroppedDocument', index })
        return undefined
      })
      .with({ _tag: 'Thinking' }, (t) => (m.role === 'assistant' ? thinking(t) : stray(t)))
      .with({ _tag: 'ToolCall' }, (c) => (m.role === 'assistant' ? c : stray(c)))
      .with({ _tag: 'ToolResult' }, (r) => {
        results.push(cleanResult(r))
        return undefined
      })
      .exhaustive()
    if (kept !== undefined) parts.push(kept)
  }
  if (emptyText > 0) findings.push({ _tag: 'DroppedEmptyText', index, count: emptyText })

  let message: ChatMessage | undefined
  if (parts.length === 0) {
    if (results.length === 0) findings.push({ _tag: 'DroppedEmpty', index })
  } else if (m.role === 'assistant' && parts.every((p) => p._tag === 'Thinking')) {
    findings.push({ _tag: 'DroppedReasoningOnly', index })
  } else {
    message = { ...m, parts }
    if (options.format === 'openai' && m.name !== undefined && m.role !== 'tool') {
      const name = sanitizeName(m.name)
      if (name !== m.name) {
        findings.push({ _tag: 'RewroteName', index, from: m.name, to: name })
        message = { ...message, name }
      }
    }
  }
  return { index, message, results, findings }
}
