/**
 * A pure validator for Anthropic Messages requests: the rules the API enforces with a 400
 * (formats.md §5.2–5.3), checked without a network call.
 *
 * - at least one message; the first is `user`; roles alternate user/assistant;
 * - every `tool_use` is answered by a `tool_result` in the very next (user) turn, and every
 *   `tool_result` answers a `tool_use` of the turn before; results come first in their turn;
 * - tool ids are unique and match `^[a-zA-Z0-9_-]{1,64}$`;
 * - blocks only where they belong (images, tool results: user turns; thinking, tool use:
 *   assistant turns); image media types jpeg/png/gif/webp; thinking has a signature;
 * - no empty turn, no whitespace-only text block, no reasoning-only assistant turn, no
 *   trailing whitespace at the end of a final assistant turn; at most 4 cache breakpoints, and
 *   none with a `1h` lifetime after one of `5m`.
 *
 * @module
 */
import { MAX_BREAKPOINTS } from './breakpoints.js'
import { isValidCallId } from './callId.js'
import { hasText } from './blank.js'
import { violation, type Violation } from './violation.js'
import { isAnthropicMediaType, type AnthropicBlock, type AnthropicImageBlock, type AnthropicRequest } from './wire.js'

const USER_BLOCKS: ReadonlySet<string> = new Set(['text', 'image', 'tool_result'])
const ASSISTANT_BLOCKS: ReadonlySet<string> = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use'])

const checkImage = (b: AnthropicImageBlock, path: string): ReadonlyArray<Violation> =>
  b.source.type === 'base64' && !isAnthropicMediaType(b.source.media_type)
    ? [violation('UnsupportedMediaType', `${path}.source.media_type`, `media type ${JSON.stringify(b.source.media_type)} is not jpeg, png, gif or webp`)]
    : []

/**
 * Every rule the request breaks; empty when the API would accept it.
 *
 * @example
 * checkAnthropic({ messages: [{ role: 'assistant', content: [{ type: 'text', text: 'Hi' }] }] })
 * // [{ _tag: 'FirstNotUser', path: 'messages[0].role', … }]
 * @category validators
 * @since 0.1.0
 */
export const checkAnthropic = (request: AnthropicRequest): ReadonlyArray<Violation> => {
  const out: Array<Violation> = []
  let breakpoints = 0
  let shortSeen = false
  const countCache = (b: AnthropicBlock, at: string): void => {
    if (!('cache_control' in b) || b.cache_control == null) return
    breakpoints++
    // the API reads tools, system, then messages: a longer-lived entry cannot follow a shorter one
    if (b.cache_control.ttl === '1h' && shortSeen) out.push(violation('CacheTtlOrder', `${at}.cache_control`, 'a 1h cache breakpoint cannot come after a 5m one'))
    if (b.cache_control.ttl !== '1h') shortSeen = true
  }
  ;(request.system ?? []).forEach((b, k) => {
    countCache(b, `system[${k}]`)
    if (!hasText(b.text)) out.push(violation('EmptyText', `system[${k}].text`, 'system block is empty or whitespace'))
  })
  const messages = request.messages
  if (messages.length === 0) out.push(violation('NoMessages', 'messages', 'a request needs at least one message'))
  else if (messages[0]!.role !== 'user') out.push(violation('FirstNotUser', 'messages[0].role', `first message has role "${messages[0]!.role}"; it must be "user"`))

  const seenUses = new Set<string>()
  // tool_use ids of the previous assistant turn, by id → path
  let open = new Map<string, string>()
  messages.forEach((m, i) => {
    const path = `messages[${i}]`
    const blocks: ReadonlyArray<AnthropicBlock> = m.content
    const role: string = m.role // typed input may still come from untyped JSON
    if (role !== 'user' && role !== 'assistant') out.push(violation('UnknownRole', `${path}.role`, `unknown role ${JSON.stringify(role)}`))
    if (i > 0 && messages[i - 1]!.role === m.role) out.push(violation('RolesNotAlternating', `${path}.role`, `two "${m.role}" turns in a row`))
    if (blocks.length === 0) out.push(violation('EmptyContent', `${path}.content`, 'turn has no content blocks'))
    const allowed = m.role === 'user' ? USER_BLOCKS : ASSISTANT_BLOCKS
    const answered = new Set<string>()
    const uses = new Map<string, string>()
    let pastResults = false
    blocks.forEach((b, k) => {
      const at = `${path}.content[${k}]`
      countCache(b, at)
      if (!allowed.has(b.type)) out.push(violation('MisplacedBlock', at, `a ${b.type} block cannot appear in a ${m.role} turn`))
      if (b.type !== 'tool_result') pastResults = true
      if (b.type === 'text' && !hasText(b.text)) out.push(violation('EmptyText', `${at}.text`, 'text block is empty or whitespace'))
      if (b.type === 'image') out.push(...checkImage(b, at))
      if (b.type === 'thinking' && b.signature.length === 0) out.push(violation('ThinkingWithoutSignature', `${at}.signature`, 'thinking block has no signature'))
      if (b.type === 'tool_use') {
        if (!isValidCallId(b.id, 'anthropic')) out.push(violation('InvalidToolCallId', `${at}.id`, `id ${JSON.stringify(b.id)} must match ^[a-zA-Z0-9_-]{1,64}$`))
        if (seenUses.has(b.id)) out.push(violation('DuplicateToolCallId', `${at}.id`, `id "${b.id}" is used by an earlier tool_use`))
        seenUses.add(b.id)
        if (m.role === 'assistant') uses.set(b.id, at)
      }
      if (b.type === 'tool_result') {
        if (pastResults) out.push(violation('ResultsNotFirst', at, 'tool_result blocks must come before any other block of their turn'))
        if (!open.has(b.tool_use_id) || answered.has(b.tool_use_id))
          out.push(violation('OrphanToolResult', `${at}.tool_use_id`, `tool_result "${b.tool_use_id}" answers no tool_use of the previous turn`))
        answered.add(b.tool_use_id)
        ;(b.content ?? []).forEach((c, n) => {
          if (c.type === 'text' && !hasText(c.text)) out.push(violation('EmptyText', `${at}.content[${n}].text`, 'text block is empty or whitespace'))
          if (c.type === 'image') out.push(...checkImage(c, `${at}.content[${n}]`))
          countCache(c, `${at}.content[${n}]`)
        })
      }
    })
    for (const [id, usePath] of open)
      if (!answered.has(id)) out.push(violation('UnansweredToolCall', usePath, `tool_use "${id}" has no tool_result in the next turn`))
    open = uses
    if (m.role === 'assistant' && blocks.length > 0 && blocks.every((b) => b.type === 'thinking' || b.type === 'redacted_thinking'))
      out.push(violation('ReasoningOnly', `${path}.content`, 'assistant turn holds only reasoning'))
    const tail = blocks[blocks.length - 1]
    if (i === messages.length - 1 && m.role === 'assistant' && tail?.type === 'text' && tail.text !== tail.text.trimEnd())
      out.push(violation('TrailingWhitespace', `${path}.content[${blocks.length - 1}].text`, 'final assistant content cannot end with whitespace'))
  })
  for (const [id, usePath] of open) out.push(violation('UnansweredToolCall', usePath, `tool_use "${id}" has no tool_result in the next turn`))
  if (breakpoints > MAX_BREAKPOINTS) out.push(violation('TooManyCacheBreakpoints', 'messages', `${breakpoints} cache_control breakpoints; at most ${MAX_BREAKPOINTS} are allowed`))
  return out
}
