/**
 * Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`, and a session's
 * subagents in `<session>/subagents/agent-<id>.jsonl`).
 *
 * ```jsonl
 * {"type":"summary","summary":"Fix flaky date test","leafUuid":"…0007"}
 * {"type":"user","uuid":"…0001","parentUuid":null,"isSidechain":false,"timestamp":"…","message":{"role":"user","content":"The date test fails on Mondays."}}
 * {"type":"assistant","uuid":"…0002","parentUuid":"…0001","isSidechain":false,"timestamp":"…","message":{"id":"msg_01XYZ","role":"assistant","model":"claude-opus-4-5-20251101","content":[{"type":"tool_use","id":"toolu_01","name":"Read","input":{"file_path":"test/date.test.ts"}}],"stop_reason":"tool_use"}}
 * {"type":"user","uuid":"…0003","parentUuid":"…0002","isSidechain":false,"timestamp":"…","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"…"}]}}
 * ```
 *
 * This adapter only reads lines faithfully; how Claude Code rebuilds a branch from them
 * (one turn per response, results found on side forks, its resume filters) is in
 * `../claude/`.
 *
 * - Every line with a `uuid` is a tree node (progress lines too, so a chain through them
 *   stays intact). User, assistant, system and attachment lines may be the leaf; progress
 *   lines never are (Claude Code does not keep them as messages).
 * - Subagent lines (`isSidechain: true`) carry their messages too, in the thread
 *   `sidechain:<agentId>`: a subagent's branch is rebuilt from its own lines.
 * - A `system` line with subtype `compact_boundary` is a root: a branch walk stops there,
 *   and the `isCompactSummary` user line after it is the summary (kind `compactionSummary`).
 *   A `local_command` system line (a `/model` command and its output) is user text, kind
 *   `localCommand`, as Claude Code sends it.
 * - Assistant lines keep `message.id` as their merge key: the lines of one API response.
 * - A user line's `tool_result` blocks become one `tool` turn each, before any text it holds.
 * - `isMeta` user lines (command caveats, skill bodies) were sent to the model, so they are
 *   kept by default as kind `meta`; `includeMeta: false` leaves them out.
 * - `summary` lines are titles, trusted only when their `leafUuid` is in the file.
 * - A line of a type Claude Code does not write is reported with its line number.
 *
 * @module
 */
import type { ChatMessage } from '../../message.js'
import { message } from '../../message.js'
import { entry, type EntryBody } from '../model.js'
import { problem, skip, type AdapterOptions, type FormatAdapter, type LineOutput, type ParseState, type Step } from './adapter.js'
import { anthropicBlocks } from './anthropicBlocks.js'
import { linkOf, obj, str, timestampMs, type Json } from './fields.js'

/** Line types Claude Code writes that carry no message (besides user/assistant/system/attachment/progress). */
const METADATA_TYPES = new Set([
  'summary',
  'file-history-snapshot',
  'attribution-snapshot',
  'queue-operation',
  'pr-link',
  'agent-name',
  'agent-color',
  'agent-setting',
  'custom-title',
  'ai-title',
  'task-summary',
  'tag',
  'last-prompt',
  'permission-mode',
  'mode',
  'bridge-session',
  'worktree-state',
  'content-replacement',
  'speculation-accept',
  'marble-origami-commit',
  'marble-origami-snapshot',
])

/** Line types that are tree nodes. */
const NODE_TYPES = new Set(['user', 'assistant', 'system', 'attachment', 'progress'])

const STOP_REASONS: Readonly<Record<string, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'toolUse',
  max_tokens: 'length',
  refusal: 'stop',
  pause_turn: 'stop',
}

const userBody = (o: Json, m: Json, timestamp: number | undefined, options: AdapterOptions, out: LineOutput[]): EntryBody => {
  const { parts, problems } = anthropicBlocks(m['content'])
  for (const p of problems) out.push(problem(p))
  const ts = timestamp === undefined ? {} : { timestamp }
  const tools: ChatMessage[] = parts.filter((p) => p._tag === 'ToolResult').map((p) => message('tool', [p], ts))
  const rest = parts.filter((p) => p._tag !== 'ToolResult')
  const messages = rest.length > 0 || tools.length === 0 ? [...tools, message('user', rest, ts)] : tools
  if (o['isCompactSummary'] === true) return { _tag: 'Message', kind: 'compactionSummary', messages }
  if (o['isMeta'] === true) return options.includeMeta ? { _tag: 'Message', kind: 'meta', messages } : { _tag: 'Other', type: 'meta' }
  return { _tag: 'Message', kind: 'message', messages }
}

const assistantBody = (o: Json, m: Json, timestamp: number | undefined, out: LineOutput[]): EntryBody => {
  const { parts, problems } = anthropicBlocks(m['content'])
  for (const p of problems) out.push(problem(p))
  const model = str(m, 'model')
  const stop = str(m, 'stop_reason')
  const stopReason = o['isApiErrorMessage'] === true ? 'error' : stop === undefined ? undefined : STOP_REASONS[stop] ?? stop
  const id = str(m, 'id')
  return {
    _tag: 'Message',
    kind: 'message',
    messages: [
      message('assistant', parts, {
        ...(timestamp === undefined ? {} : { timestamp }),
        origin: { provider: 'anthropic', api: 'anthropic-messages', ...(model === undefined ? {} : { model }) },
        ...(stopReason === undefined ? {} : { stopReason }),
      }),
    ],
    ...(id === undefined ? {} : { mergeKey: id }),
  }
}

const systemBody = (o: Json, timestamp: number | undefined, out: LineOutput[]): EntryBody => {
  const subtype = o['subtype']
  if (subtype === 'compact_boundary') {
    const logical = str(o, 'logicalParentUuid')
    return { _tag: 'Boundary', ...(logical === undefined ? {} : { logicalParentId: logical }) }
  }
  if (subtype !== 'local_command') return { _tag: 'Other', type: `system:${String(subtype)}` }
  const { parts, problems } = anthropicBlocks(o['content'])
  for (const p of problems) out.push(problem(`local_command ${p}`))
  return { _tag: 'Message', kind: 'localCommand', messages: [message('user', parts, timestamp === undefined ? {} : { timestamp })] }
}

const lineBody = (type: string, o: Json, timestamp: number | undefined, options: AdapterOptions, out: LineOutput[]): EntryBody => {
  if (type === 'system') return systemBody(o, timestamp, out)
  if (type !== 'user' && type !== 'assistant') return { _tag: 'Other', type }
  const m = obj(o, 'message')
  if (m === undefined) {
    out.push(problem(`${type} line has no message object; kept in the tree, contributes nothing`))
    return { _tag: 'Other', type }
  }
  return type === 'user' ? userBody(o, m, timestamp, options, out) : assistantBody(o, m, timestamp, out)
}

const threadOf = (o: Json): string | undefined => {
  if (o['isSidechain'] !== true) return undefined
  const agent = str(o, 'agentId')
  return agent === undefined ? 'sidechain' : `sidechain:${agent}`
}

const step = (state: ParseState, o: Json, line: number, options: AdapterOptions): Step => {
  const type = o['type']
  if (type === 'summary') {
    const leafId = str(o, 'leafUuid')
    const title = str(o, 'summary')
    return leafId !== undefined && title !== undefined ? skip(state, { _tag: 'Title', leafId, title }) : skip(state)
  }
  if (typeof type !== 'string') return skip(state, problem(`line has no string "type" (got ${JSON.stringify(type) ?? 'nothing'}); skipped`))
  if (METADATA_TYPES.has(type)) return skip(state)
  if (!NODE_TYPES.has(type)) return skip(state, problem(`unknown line type ${JSON.stringify(type)} (not one Claude Code writes); skipped`))
  if (o['uuid'] === undefined) return skip(state, problem(`${type} line has no "uuid"; skipped`))
  const link = linkOf(o, 'uuid', 'parentUuid')
  if ('problem' in link) return skip(state, problem(link.problem))
  const out: LineOutput[] = []
  const timestamp = timestampMs(o['timestamp'])
  const b = lineBody(type, o, timestamp, options, out)
  const e = entry(link, line, timestamp, b, type !== 'progress', threadOf(o))
  return { state: { ...state, index: state.index + 1 }, out: [...out, { _tag: 'Entry', entry: e }] }
}

/**
 * The Claude Code adapter.
 *
 * @category instances
 */
export const claudeCodeFormat: FormatAdapter = {
  format: 'claude-code',
  detect: (o) =>
    typeof o['uuid'] === 'string' ||
    typeof o['leafUuid'] === 'string' ||
    (typeof o['type'] === 'string' && METADATA_TYPES.has(o['type'])) ||
    o['type'] === 'progress' ||
    ((o['type'] === 'user' || o['type'] === 'assistant') && typeof o['message'] === 'object'),
  step,
}
