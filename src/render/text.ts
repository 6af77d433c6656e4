/**
 * Neutral chat messages → a plain-text transcript, for text-only models, logs and prompts
 * that embed a conversation.
 *
 * Each message is a role label line and its text (`messageText`: tool calls as
 * `name({...args})`, images as `[image]`, thinking left out), separated by a blank line. Failed
 * assistant turns (`stopReason` `error`/`aborted`) and messages with no text are left out.
 *
 * @module
 */
import { match } from 'ts-pattern'
import { messageText, type ChatMessage } from '../message.js'
import { hasText } from './blank.js'

/** Labels of the roles; override them for another language or style. */
export interface TextLabels {
  readonly system: string
  readonly user: string
  readonly assistant: string
  readonly tool: string
}

/** The default labels: `System:`, `User:`, `Assistant:`, `Tool result:`. */
export const DEFAULT_TEXT_LABELS: TextLabels = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool result' }

const label = (m: ChatMessage, labels: TextLabels): string =>
  match(m.role)
    .with('system', () => labels.system)
    .with('user', () => (m.name === undefined ? labels.user : `${labels.user} (${m.name})`))
    .with('assistant', () => labels.assistant)
    .with('tool', () => {
      const name = m.parts.find((p) => p._tag === 'ToolResult')?.name
      return name === undefined ? labels.tool : `${labels.tool} (${name})`
    })
    .exhaustive()

/**
 * A plain-text transcript of a conversation.
 *
 * @example
 * toText([message('user', 'Hi'), message('assistant', 'Hello!')])
 * // 'User:\nHi\n\nAssistant:\nHello!'
 * @category renderers
 * @since 0.1.0
 */
export const toText = (messages: ReadonlyArray<ChatMessage>, labels: TextLabels = DEFAULT_TEXT_LABELS): string =>
  messages
    .filter((m) => !(m.role === 'assistant' && (m.stopReason === 'error' || m.stopReason === 'aborted')))
    .flatMap((m) => {
      const body = messageText(m)
      return hasText(body) ? [`${label(m, labels)}:\n${body}`] : []
    })
    .join('\n\n')
