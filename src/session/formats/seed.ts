/**
 * The design document's own format: one line per turn, tool calls and results as their own
 * lines.
 *
 * ```jsonl
 * {"id":"1","parentId":null,"timestamp":1768035605000,"type":"user","content":"What is in build.sh?"}
 * {"id":"2","parentId":"1","timestamp":1768035606000,"type":"tool_call","content":"{\"name\":\"read\",\"input\":{\"path\":\"build.sh\"}}"}
 * {"id":"3","parentId":"2","timestamp":1768035607000,"type":"tool_result","content":"npm run compile"}
 * {"id":"4","parentId":"3","timestamp":1768035608000,"type":"assistant","content":"It runs npm run compile."}
 * ```
 *
 * - A `tool_call`'s id is its tool-use id; its content is a JSON string (or object) with
 *   `name` and `input`. It joins the assistant turn just before it on the branch, so text
 *   and calls of one response are one turn.
 * - A `tool_result` answers the call named by its `parentId` (the seed uses the tree link
 *   as the tool-use id). So parallel calls cannot be expressed: a second call's result
 *   would have to hang off the first call. Such a call ends up without a result and is
 *   answered by a synthetic error result when turns are paired.
 * - `content` may also be an Anthropic block array; `timestamp` is epoch ms or ISO-8601;
 *   `metadata.isError: true` marks a failed tool result. The default leaf is the last line.
 *
 * @module
 */
import { message, toolCall, toolResult } from '../../message.js'
import { entry, type EntryBody } from '../model.js'
import { problem, skip, type FormatAdapter, type LineOutput, type ParseState, type Step } from './adapter.js'
import { anthropicBlocks } from './anthropicBlocks.js'
import { asObject, linkOf, obj, str, timestampMs, type Json } from './fields.js'

const SEED_TYPES = new Set(['user', 'assistant', 'tool_call', 'tool_result'])

const blocks = (content: unknown, out: LineOutput[]) => {
  const { parts, problems } = anthropicBlocks(content)
  for (const p of problems) out.push(problem(p))
  return parts
}

const callOf = (content: unknown): { readonly name: string; readonly input: Readonly<Record<string, unknown>> } | undefined => {
  let value: unknown = content
  if (typeof content === 'string') {
    try {
      value = JSON.parse(content)
    } catch {
      return undefined
    }
  }
  const o = asObject(value)
  const name = o === undefined ? undefined : str(o, 'name')
  return o === undefined || name === undefined ? undefined : { name, input: asObject(o['input']) ?? {} }
}

const body = (o: Json, id: string, parentId: string | null, timestamp: number | undefined, out: LineOutput[]): EntryBody => {
  const ts = timestamp === undefined ? {} : { timestamp }
  switch (o['type']) {
    case 'user':
      return { _tag: 'Message', kind: 'message', messages: [message('user', blocks(o['content'], out), ts)] }
    case 'assistant':
      return { _tag: 'Message', kind: 'message', messages: [message('assistant', blocks(o['content'], out), ts)], mergeKey: `seed:${id}` }
    case 'tool_call': {
      const call = callOf(o['content'])
      if (call === undefined) {
        out.push(problem('tool_call content is not JSON with a string "name"; kept in the tree, contributes nothing'))
        return { _tag: 'Other', type: 'tool_call' }
      }
      return { _tag: 'Message', kind: 'message', messages: [message('assistant', [toolCall(id, call.name, call.input)], ts)], mergeKey: '^' }
    }
    default: {
      if (parentId === null) {
        out.push(problem('tool_result has no parentId, so no tool call to answer; kept in the tree, contributes nothing'))
        return { _tag: 'Other', type: 'tool_result' }
      }
      const content = o['content']
      const parts = blocks(content, out).filter((p) => p._tag === 'Text' || p._tag === 'Image')
      const isError = obj(o, 'metadata')?.['isError'] === true
      return { _tag: 'Message', kind: 'message', messages: [message('tool', [toolResult(parentId, '', parts, isError)], ts)] }
    }
  }
}

const step = (state: ParseState, o: Json, line: number): Step => {
  if (typeof o['type'] !== 'string' || !SEED_TYPES.has(o['type']))
    return skip(state, problem(`type ${JSON.stringify(o['type'])} is not one of user, assistant, tool_call, tool_result; skipped`))
  const link = linkOf(o, 'id', 'parentId')
  if ('problem' in link) return skip(state, problem(link.problem))
  const out: LineOutput[] = []
  const timestamp = timestampMs(o['timestamp'])
  const b = body(o, link.id, link.parentId, timestamp, out)
  out.push({ _tag: 'Entry', entry: entry(link, line, timestamp, b, true) })
  return { state: { ...state, index: state.index + 1, lastId: link.id }, out }
}

/**
 * The seed-format adapter.
 *
 * @category instances
 */
export const seedFormat: FormatAdapter = {
  format: 'seed',
  detect: (o) => typeof o['type'] === 'string' && SEED_TYPES.has(o['type']) && 'id' in o && !('message' in o) && !('uuid' in o),
  step,
}
