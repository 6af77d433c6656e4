/**
 * Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`).
 *
 * ```jsonl
 * {"type":"summary","summary":"Fix flaky date test","leafUuid":"…0007"}
 * {"type":"user","uuid":"…0001","parentUuid":null,"isSidechain":false,"timestamp":"…","message":{"role":"user","content":"The date test fails on Mondays."}}
 * {"type":"assistant","uuid":"…0002","parentUuid":"…0001","isSidechain":false,"timestamp":"…","message":{"id":"msg_01XYZ","role":"assistant","model":"claude-opus-4-5-20251101","content":[{"type":"tool_use","id":"toolu_01","name":"Read","input":{"file_path":"test/date.test.ts"}}],"stop_reason":"tool_use"}}
 * {"type":"user","uuid":"…0003","parentUuid":"…0002","isSidechain":false,"timestamp":"…","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"…"}]}}
 * ```
 *
 * - Every line with a `uuid` is a tree node (progress and attachment lines too, so a chain
 *   through them stays intact); only main-thread user and assistant lines carry messages
 *   and may be the leaf. Sidechain (subagent) lines stay in the tree but contribute nothing.
 * - A `system` line with subtype `compact_boundary` is a root: a branch walk stops there,
 *   and the `isCompactSummary` user line after it is the summary (kind `compactionSummary`).
 * - Assistant lines keep `message.id` as their merge key: consecutive lines of one API
 *   response become one turn when a branch is rebuilt.
 * - A user line's `tool_result` blocks become one `tool` turn each, before any text it holds.
 * - `isMeta` user lines (command caveats, skill bodies) were sent to the model, so they are
 *   kept by default as kind `meta`; `includeMeta: false` leaves them out.
 * - `summary` lines are titles, trusted only when their `leafUuid` is in the file.
 *
 * @module
 */
import type { ChatMessage } from '../../message.js'
import { message } from '../../message.js'
import { entry, type EntryBody } from '../model.js'
import { problem, skip, type AdapterOptions, type FormatAdapter, type LineOutput, type ParseState, type Step } from './adapter.js'
import { anthropicBlocks } from './anthropicBlocks.js'
import { linkOf, obj, str, timestampMs, type Json } from './fields.js'

/** Line types only Claude Code writes (besides user/assistant/system). */
const CLAUDE_TYPES = new Set([
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'pr-link',
  'agent-name',
  'custom-title',
  'last-prompt',
  'attachment',
  'permission-mode',
  'ai-title',
  'agent-setting',
  'bridge-session',
  'worktree-state',
])

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

const step = (state: ParseState, o: Json, line: number, options: AdapterOptions): Step => {
  const type = o['type']
  if (type === 'summary') {
    const leafId = str(o, 'leafUuid')
    const title = str(o, 'summary')
    return leafId !== undefined && title !== undefined ? skip(state, { _tag: 'Title', leafId, title }) : skip(state)
  }
  if (o['uuid'] === undefined) return typeof type === 'string' ? skip(state) : skip(state, problem('line has neither a type nor a uuid; skipped'))
  const link = linkOf(o, 'uuid', 'parentUuid')
  if ('problem' in link) return skip(state, problem(link.problem))
  const out: LineOutput[] = []
  const timestamp = timestampMs(o['timestamp'])
  const sidechain = o['isSidechain'] === true
  const m = obj(o, 'message')
  const conversational = type === 'user' || type === 'assistant'
  let b: EntryBody
  if (type === 'system') b = o['subtype'] === 'compact_boundary' ? { _tag: 'Boundary' } : { _tag: 'Other', type: `system:${String(o['subtype'])}` }
  else if (!conversational) b = { _tag: 'Other', type: String(type) }
  else if (sidechain) b = { _tag: 'Other', type: `sidechain:${type}` }
  else if (m === undefined) {
    out.push(problem(`${type} line has no message object; kept in the tree, contributes nothing`))
    b = { _tag: 'Other', type: String(type) }
  } else b = type === 'user' ? userBody(o, m, timestamp, options, out) : assistantBody(o, m, timestamp, out)
  return { state: { ...state, index: state.index + 1 }, out: [...out, { _tag: 'Entry', entry: entry(link, line, timestamp, b, conversational && !sidechain) }] }
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
    (typeof o['type'] === 'string' && CLAUDE_TYPES.has(o['type'])) ||
    ((o['type'] === 'user' || o['type'] === 'assistant') && typeof o['message'] === 'object'),
  step,
}
