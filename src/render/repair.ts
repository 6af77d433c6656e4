/**
 * The repair pass: turns any conversation, however it was trimmed, into one the target
 * provider accepts, and lists every change as a {@link Finding}.
 *
 * Order: message-local cleaning (`./clean.ts`), tool-call pairing (`./pairing.ts`), then the
 * Anthropic-only rules: the first turn after the system prompt must be a user turn (a short
 * user turn is inserted before a leading assistant turn, rather than dropping it and, with it,
 * its tool calls' results; or, on request, the turns before the first user turn are left
 * out), and the final assistant turn may not end in whitespace.
 *
 * The result is a fixed point: repairing it again changes nothing. The renderers call it
 * first; the core pipeline can call it before budgeting, so that {@link messageCost} of the
 * repaired messages adds up exactly to the rendered request (see `./cost.ts`).
 *
 * @module
 */
import type { ChatMessage } from '../message.js'
import { cleanMessage } from './clean.js'
import type { Finding } from './finding.js'
import { DEFAULT_LEADING_USER_TEXT, type RepairOptions } from './options.js'
import { pairToolCalls, type Placed } from './pairing.js'

/** A conversation ready to render. */
export interface Repaired {
  readonly messages: ReadonlyArray<ChatMessage>
  /**
   * For each repaired message, the input index it comes from. A synthetic result points at its
   * call's turn; the inserted first user turn points at the assistant turn it precedes.
   */
  readonly sources: ReadonlyArray<number>
  /** Every change, ordered by input index. */
  readonly findings: ReadonlyArray<Finding>
}

const anthropicEdges = (
  placed: ReadonlyArray<Placed>,
  leadingText: string,
  leading: 'userTurn' | 'drop',
): { placed: ReadonlyArray<Placed>; findings: ReadonlyArray<Finding> } => {
  const findings: Array<Finding> = []
  let out = placed
  let last = -1
  for (let i = out.length - 1; i >= 0; i--)
    if (out[i]!.message.role !== 'system') {
      last = i
      break
    }
  const final = out[last]
  if (final !== undefined && final.message.role === 'assistant') {
    const parts = final.message.parts
    const tail = parts[parts.length - 1]
    if (tail?._tag === 'Text' && tail.text !== tail.text.trimEnd()) {
      findings.push({ _tag: 'TrimmedTrailingWhitespace', index: final.source })
      const message = { ...final.message, parts: [...parts.slice(0, -1), { ...tail, text: tail.text.trimEnd() }] }
      out = out.map((p, i) => (i === last ? { ...p, message } : p))
    }
  }
  const first = out.findIndex((p) => p.message.role !== 'system')
  const lead = out[first]
  const user = out.findIndex((p, i) => i > first && p.message.role === 'user')
  // dropping needs a user turn to start from; with none, the inserted user turn is the only way left
  if (lead !== undefined && lead.message.role === 'assistant' && leading === 'drop' && user !== -1) {
    const gone = new Set(out.slice(first, user).flatMap((p) => (p.message.role === 'system' ? [] : [p])))
    for (const p of gone) if (p.message.role === 'assistant') findings.push({ _tag: 'DroppedLeadingTurn', index: p.source })
    out = out.filter((p) => !gone.has(p))
  } else if (lead !== undefined && lead.message.role === 'assistant') {
    findings.push({ _tag: 'SyntheticUserTurn', index: lead.source, text: leadingText })
    out = [...out.slice(0, first), { message: { role: 'user', parts: [{ _tag: 'Text', text: leadingText }] }, source: lead.source }, ...out.slice(first)]
  }
  return { placed: out, findings }
}

/**
 * Repairs a conversation for a format. Never mutates its input.
 *
 * @example
 * const r = repair([message('assistant', [toolCall('c1', 'read', { path: 'a' })])], { format: 'openai' })
 * r.messages.length // 2: the call and a synthetic "No result provided" error result
 * r.findings        // [{ _tag: 'SyntheticResult', index: 0, callId: 'c1' }]
 * @category constructors
 * @since 0.1.0
 */
export const repair = (messages: ReadonlyArray<ChatMessage>, options: RepairOptions): Repaired => {
  const cleaned = messages.map((m, i) => cleanMessage(m, i, options))
  const paired = pairToolCalls(cleaned, options.format, messages)
  const edges =
    options.format === 'anthropic'
      ? anthropicEdges(paired.placed, options.leadingUserText ?? DEFAULT_LEADING_USER_TEXT, options.leadingAssistant ?? 'userTurn')
      : { placed: paired.placed, findings: [] }
  const findings = [...cleaned.flatMap((c) => c.findings), ...paired.findings, ...edges.findings]
  return {
    messages: edges.placed.map((p) => p.message),
    sources: edges.placed.map((p) => p.source),
    // Array.prototype.sort is stable: findings of one message keep the order they were made in
    findings: findings.sort((a, b) => a.index - b.index),
  }
}
