/**
 * Anthropic Messages content blocks (as Claude Code stores them) to neutral parts.
 *
 * @module
 */
import type { ImagePart, Part, TextPart } from '../../message.js'
import { text, toolCall, toolResult } from '../../message.js'
import { asObject, str, type Json } from './fields.js'

/** Parts read from a block list, and the blocks that could not be kept. */
export interface Blocks {
  readonly parts: ReadonlyArray<Part>
  readonly problems: ReadonlyArray<string>
}

const imageOf = (b: Json): ImagePart | undefined => {
  const source = asObject(b['source'])
  if (source === undefined) return undefined
  const data = str(source, 'data')
  const mediaType = str(source, 'media_type')
  if (source['type'] === 'base64' && data !== undefined && mediaType !== undefined)
    return { _tag: 'Image', source: { _tag: 'Base64', mimeType: mediaType, data } }
  const url = str(source, 'url')
  return source['type'] === 'url' && url !== undefined ? { _tag: 'Image', source: { _tag: 'Url', url } } : undefined
}

const resultContent = (v: unknown, problems: string[]): ReadonlyArray<TextPart | ImagePart> => {
  if (typeof v === 'string') return [text(v)]
  if (!Array.isArray(v)) return []
  const out: Array<TextPart | ImagePart> = []
  for (const item of v) {
    const b = asObject(item)
    const t = b === undefined ? undefined : str(b, 'text')
    if (b?.['type'] === 'text' && t !== undefined) out.push(text(t))
    else if (b?.['type'] === 'image' && imageOf(b) !== undefined) out.push(imageOf(b)!)
    else problems.push(`tool_result content block ${describe(b)} not supported; dropped`)
  }
  return out
}

const describe = (b: Json | undefined): string => (b === undefined ? '(not an object)' : `"${String(b['type'])}"`)

/**
 * Converts a `content` value (a string or a block array) to parts, keeping block order.
 * `tool_result` blocks become {@link ToolResultPart}s with an empty tool name: the name is
 * not stored with the result and is filled in from the matching call when turns are paired.
 *
 * @category utils
 */
export const anthropicBlocks = (content: unknown): Blocks => {
  if (typeof content === 'string') return { parts: [text(content)], problems: [] }
  if (!Array.isArray(content)) return { parts: [], problems: ['message content is neither a string nor a block array'] }
  const parts: Part[] = []
  const problems: string[] = []
  for (const item of content) {
    const b = asObject(item)
    const type = b?.['type']
    if (b === undefined) problems.push('content block is not an object; dropped')
    else if (type === 'text' && str(b, 'text') !== undefined) parts.push(text(str(b, 'text')!))
    else if (type === 'image' && imageOf(b) !== undefined) parts.push(imageOf(b)!)
    else if (type === 'thinking')
      parts.push({
        _tag: 'Thinking',
        text: str(b, 'thinking') ?? '',
        ...(str(b, 'signature') === undefined ? {} : { signature: str(b, 'signature')! }),
      })
    else if (type === 'redacted_thinking') parts.push({ _tag: 'Thinking', text: '', signature: str(b, 'data') ?? '', redacted: true })
    else if (type === 'tool_use' && str(b, 'id') !== undefined)
      parts.push(toolCall(str(b, 'id')!, str(b, 'name') ?? '', asObject(b['input']) ?? {}))
    else if (type === 'tool_result' && str(b, 'tool_use_id') !== undefined)
      parts.push(toolResult(str(b, 'tool_use_id')!, '', resultContent(b['content'], problems), b['is_error'] === true))
    else problems.push(`content block ${describe(b)} not supported; dropped`)
  }
  return { parts, problems }
}
