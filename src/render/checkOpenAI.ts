/**
 * A pure validator for OpenAI Chat Completions messages: the rules the API enforces with a
 * 400 (formats.md §5.1), checked without a network call.
 *
 * - every assistant `tool_calls` id is answered by exactly one `tool` message before any other
 *   role, and every `tool` message answers a call of the assistant turn just before its block;
 * - call ids are unique and match `^[a-zA-Z0-9_-]{1,40}$`; `arguments` is a JSON object string;
 * - no empty message and no whitespace-only text part (an empty `tool` result is allowed);
 *   an assistant message has content or tool calls;
 * - `name` matches `^[a-zA-Z0-9_-]{1,64}$`.
 *
 * @module
 */
import { isValidCallId, isValidName } from './callId.js'
import { hasText } from './blank.js'
import { violation, type Violation } from './violation.js'
import type { OpenAIImagePart, OpenAIMessage, OpenAITextPart } from './wire.js'

const KNOWN_ROLES: ReadonlySet<string> = new Set(['system', 'developer', 'user', 'assistant', 'tool'])

const isJsonObject = (s: string): boolean => {
  try {
    const v: unknown = JSON.parse(s)
    return typeof v === 'object' && v !== null && !Array.isArray(v)
  } catch {
    return false
  }
}

const checkContent = (
  content: string | ReadonlyArray<OpenAITextPart | OpenAIImagePart> | undefined | null,
  path: string,
  allowEmpty: boolean,
): ReadonlyArray<Violation> => {
  // the SDK sends `content: null` for an assistant turn of tool calls only
  if (content === undefined || content === null) return []
  if (typeof content === 'string')
    return hasText(content) || (allowEmpty && content === '') ? [] : [violation('EmptyText', `${path}.content`, 'content is empty or whitespace')]
  if (content.length === 0) return [violation('EmptyContent', `${path}.content`, 'content array is empty')]
  return content.flatMap((p, k) =>
    p.type === 'text' && !hasText(p.text) ? [violation('EmptyText', `${path}.content[${k}]`, 'text part is empty or whitespace')] : [],
  )
}

/**
 * Every rule the messages break; empty when the API would accept them.
 *
 * @example
 * checkOpenAI([{ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }])
 * // [{ _tag: 'UnansweredToolCall', path: 'messages[0].tool_calls[0]', … }]
 * @category validators
 * @since 0.1.0
 */
export const checkOpenAI = (messages: ReadonlyArray<OpenAIMessage>): ReadonlyArray<Violation> => {
  const out: Array<Violation> = []
  const seen = new Set<string>()
  // calls of the current assistant turn still waiting for their tool message, by id → path
  let pending = new Map<string, string>()
  const closeBlock = (): void => {
    for (const [id, path] of pending) out.push(violation('UnansweredToolCall', path, `tool call "${id}" has no tool message right after its assistant turn`))
    pending = new Map()
  }
  messages.forEach((m, i) => {
    const path = `messages[${i}]`
    if (!KNOWN_ROLES.has(m.role)) {
      out.push(violation('UnknownRole', `${path}.role`, `unknown role ${JSON.stringify(m.role)}`))
      return
    }
    if (m.role !== 'tool') closeBlock()
    if ('name' in m && m.name !== undefined && !isValidName(m.name))
      out.push(violation('InvalidName', `${path}.name`, `name ${JSON.stringify(m.name)} must match ^[a-zA-Z0-9_-]{1,64}$`))
    if (m.role === 'tool') {
      if (pending.has(m.tool_call_id)) pending.delete(m.tool_call_id)
      else out.push(violation('OrphanToolResult', `${path}.tool_call_id`, `tool message "${m.tool_call_id}" answers no pending call of the assistant turn before it`))
      out.push(...checkContent(m.content, path, true))
      return
    }
    if (m.role !== 'assistant') {
      out.push(...checkContent(m.content, path, false))
      return
    }
    const calls = m.tool_calls ?? []
    if ((m.content === undefined || (m.content as unknown) === null) && calls.length === 0) out.push(violation('EmptyContent', path, 'assistant message has neither content nor tool_calls'))
    out.push(...checkContent(m.content, path, false))
    calls.forEach((c, k) => {
      const at = `${path}.tool_calls[${k}]`
      if (!isValidCallId(c.id, 'openai')) out.push(violation('InvalidToolCallId', `${at}.id`, `id ${JSON.stringify(c.id)} must match ^[a-zA-Z0-9_-]{1,40}$`))
      if (seen.has(c.id)) out.push(violation('DuplicateToolCallId', `${at}.id`, `id "${c.id}" is used by an earlier call`))
      seen.add(c.id)
      if (c.function.name.length === 0) out.push(violation('EmptyText', `${at}.function.name`, 'tool name is empty'))
      if (!isJsonObject(c.function.arguments))
        out.push(violation('InvalidArguments', `${at}.function.arguments`, 'arguments must be a JSON-encoded object string'))
      pending.set(c.id, at)
    })
  })
  closeBlock()
  return out
}
