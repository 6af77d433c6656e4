/**
 * The stored conversation the conversation tests share: a stored system prompt (skipped),
 * a tool call with its result, a note kept out of context, and a named user turn.
 */
import type { ConversationMessage } from '../../src/conversation/types.js'

/** Seven stored messages, in the seed's shape. */
export const stored: ReadonlyArray<ConversationMessage> = [
  { role: 'system', content: 'an old stored prompt' },
  { role: 'user', content: 'List the files.' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'ls', arguments: '{"dir":"."}' }] },
  { role: 'tool', content: 'a.ts b.ts', toolCallId: 'call_1', toolName: 'ls' },
  { role: 'assistant', content: 'There are two files.' },
  { role: 'user', content: '(note to self)', includeInContext: false },
  { role: 'user', content: 'Open a.ts', name: 'ada' },
]
