/**
 * Which XML element a chunk becomes, with which attributes, in which chat role: the seed's
 * mapping tables as one exhaustive match over the chunk type.
 *
 * Attribute values are read from the content's fields, then `metadata.custom`, under team9's
 * camelCase names or snake_case ones (`callId` / `call_id`); an absent value leaves the
 * attribute out. Roles follow team9's renderers, with three deliberate changes:
 * - `subagent_result` / `subagent_error` and `action_response` are `user`, like `tool_result`:
 *   they come back *to* the agent, and in an assistant turn they read as the model's own words;
 * - `progress_summary` is `user`, as pi and Claude Code send compaction summaries: a compacted
 *   state starts with its summary, and a conversation may not start with an assistant turn
 *   (Anthropic rejects it).
 *
 * | chunk | tag | attributes | role |
 * | --- | --- | --- | --- |
 * | SYSTEM | `system_context` | id, priority | system |
 * | AGENT, role user | `user_message` | id, role | user |
 * | AGENT, role assistant | `assistant_response` | id, role, action | assistant |
 * | AGENT, role assistant, action clarification | `assistant_clarification` | id, role, action | assistant |
 * | AGENT, other role | `agent_message` | id, role, action | user |
 * | WORKFLOW, action tool_call | `tool_call` | id, action, tool, call_id, status | assistant |
 * | WORKFLOW, action skill_call | `skill_call` | id, action, skill, call_id, status | assistant |
 * | WORKFLOW, other | `workflow` | id, action, tool, skill, call_id, status | assistant |
 * | DELEGATION, spawn_subagent | `spawn_subagent` | id, subagent_id, agent_type | assistant |
 * | DELEGATION, message_subagent | `message_to_subagent` | id, subagent_id | assistant |
 * | DELEGATION, subagent_result | `subagent_result` | id, subagent_id, success | user |
 * | DELEGATION, subagent_error | `subagent_error` | id, subagent_id, success="false", error="true" | user |
 * | DELEGATION with parentAgentId | `parent_agent_message` | id, parent_agent_id | user |
 * | DELEGATION, other | `delegation` | id, action | assistant |
 * | ENVIRONMENT, source tool / tool_error | `tool_result` | id, tool, call_id, success, error="true" for errors | user |
 * | ENVIRONMENT, source skill / skill_error | `skill_result` | id, skill, call_id, success, error | user |
 * | ENVIRONMENT, other | `environment` | id, source | user |
 * | WORKING_FLOW COMPACTED | `progress_summary` | id, compacted_at, original_count | user |
 * | WORKING_FLOW todo (custom.subType todo, or action todo_*) | `todo_update` | id, action | assistant |
 * | WORKING_FLOW THINKING | `thinking` | id, subtype | assistant |
 * | WORKING_FLOW USER | `user_intervention` | id, subtype | user |
 * | WORKING_FLOW RESPONSE | `intermediate_response` | id, subtype | assistant |
 * | WORKING_FLOW AGENT_ACTION | `agent_action` | id, subtype | assistant |
 * | WORKING_FLOW ACTION_RESPONSE | `action_response` | id, subtype | user |
 * | WORKING_FLOW, no subtype | `working_flow` | id | assistant |
 * | OUTPUT task_completed | `task_completed` | id | assistant |
 * | OUTPUT task_abandoned | `task_abandoned` | id, reason | assistant |
 * | OUTPUT task_terminated | `task_terminated` | id, terminated_by | assistant |
 * | OUTPUT, other | `output` | id, action | assistant |
 *
 * @module
 */
import { match } from 'ts-pattern'
import { chunkField, type MemoryChunk } from './model.js'
import type { AttrValue } from './xml.js'

/** The chat role a chunk is sent in. */
export type ChunkRole = 'system' | 'user' | 'assistant'

/** Every tag the default renderers produce. */
export type ChunkTag =
  | 'system_context'
  | 'user_message'
  | 'assistant_response'
  | 'assistant_clarification'
  | 'agent_message'
  | 'tool_call'
  | 'skill_call'
  | 'workflow'
  | 'spawn_subagent'
  | 'message_to_subagent'
  | 'subagent_result'
  | 'subagent_error'
  | 'parent_agent_message'
  | 'delegation'
  | 'tool_result'
  | 'skill_result'
  | 'environment'
  | 'progress_summary'
  | 'todo_update'
  | 'thinking'
  | 'user_intervention'
  | 'intermediate_response'
  | 'agent_action'
  | 'action_response'
  | 'working_flow'
  | 'task_completed'
  | 'task_abandoned'
  | 'task_terminated'
  | 'output'

/** How a chunk is shown: its tag, attributes (in order), and the content fields they used. */
export interface ChunkElementSpec {
  readonly tag: ChunkTag
  readonly attrs: ReadonlyArray<readonly [string, AttrValue]>
  /** Content field names shown as attributes, so the body does not repeat them. */
  readonly consumed: ReadonlyArray<string>
  /** The tool or skill call id, for calls and results (pairs them when budgeting). */
  readonly callId?: string
}

// A total table: the type requires a role for every tag, so adding a tag fails to compile
// until its role is chosen (the same guarantee as an exhaustive match, without its cost on
// this hot path).
const ROLE_OF_TAG: Readonly<Record<ChunkTag, ChunkRole>> = {
  system_context: 'system',
  user_message: 'user',
  agent_message: 'user',
  subagent_result: 'user',
  subagent_error: 'user',
  parent_agent_message: 'user',
  tool_result: 'user',
  skill_result: 'user',
  environment: 'user',
  user_intervention: 'user',
  action_response: 'user',
  progress_summary: 'user',
  assistant_response: 'assistant',
  assistant_clarification: 'assistant',
  tool_call: 'assistant',
  skill_call: 'assistant',
  workflow: 'assistant',
  spawn_subagent: 'assistant',
  message_to_subagent: 'assistant',
  delegation: 'assistant',
  todo_update: 'assistant',
  thinking: 'assistant',
  intermediate_response: 'assistant',
  agent_action: 'assistant',
  working_flow: 'assistant',
  task_completed: 'assistant',
  task_abandoned: 'assistant',
  task_terminated: 'assistant',
  output: 'assistant',
}

/**
 * The role each tag is sent in.
 *
 * @category utils
 * @since 0.1.0
 */
export const roleOfTag = (tag: ChunkTag): ChunkRole => ROLE_OF_TAG[tag]

// Field names as team9 writes them, then snake_case spellings.
const F = {
  role: ['role'],
  action: ['action'],
  tool: ['toolName', 'tool_name', 'tool'],
  skill: ['skillName', 'skill_name', 'skill'],
  callId: ['callId', 'call_id', 'toolCallId', 'tool_call_id'],
  status: ['status'],
  subAgentId: ['subAgentId', 'subagentId', 'subagent_id'],
  parentAgentId: ['parentAgentId', 'parent_agent_id'],
  agentType: ['agentType', 'agent_type'],
  success: ['success'],
  source: ['source'],
  reason: ['reason'],
  terminatedBy: ['terminatedBy', 'terminated_by'],
  compactedAt: ['compactedAt', 'compacted_at'],
  originalCount: ['originalChunkCount', 'originalCount', 'original_count'],
} as const

type Field = keyof typeof F

const get = (c: MemoryChunk, f: Field): unknown => chunkField(c, ...F[f])

const attrValue = (v: unknown): AttrValue =>
  v === undefined || v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'object' ? v : String(v)

const spec = (c: MemoryChunk, tag: ChunkTag, attrs: ReadonlyArray<readonly [string, unknown]>, consumed: ReadonlyArray<Field>): ChunkElementSpec => {
  const callId = consumed.includes('callId') ? get(c, 'callId') : undefined
  return {
    tag,
    attrs: [['id', c.id], ...attrs.map(([name, v]) => [name, attrValue(v)] as const)],
    consumed: consumed.flatMap((f) => F[f]),
    ...(typeof callId === 'string' && callId.length > 0 ? { callId } : {}),
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

const workflow = (c: MemoryChunk): ChunkElementSpec => {
  const action = str(get(c, 'action')) ?? (get(c, 'tool') !== undefined ? 'tool_call' : get(c, 'skill') !== undefined ? 'skill_call' : undefined)
  const fields: ReadonlyArray<Field> = ['action', 'tool', 'skill', 'callId', 'status']
  const [tool, skill, callId, status] = [get(c, 'tool'), get(c, 'skill'), get(c, 'callId'), get(c, 'status')]
  if (action === 'tool_call') return spec(c, 'tool_call', [['action', action], ['tool', tool], ['call_id', callId], ['status', status]], fields)
  if (action === 'skill_call') return spec(c, 'skill_call', [['action', action], ['skill', skill], ['call_id', callId], ['status', status]], fields)
  return spec(c, 'workflow', [['action', action], ['tool', tool], ['skill', skill], ['call_id', callId], ['status', status]], fields)
}

const delegation = (c: MemoryChunk): ChunkElementSpec => {
  const fields: ReadonlyArray<Field> = ['action', 'subAgentId', 'parentAgentId', 'agentType', 'success', 'role']
  const subagent = get(c, 'subAgentId')
  return match(str(get(c, 'action')))
    .with('spawn_subagent', () => spec(c, 'spawn_subagent', [['subagent_id', subagent], ['agent_type', get(c, 'agentType')]], fields))
    .with('message_subagent', 'message_to_subagent', () => spec(c, 'message_to_subagent', [['subagent_id', subagent]], fields))
    .with('subagent_result', () => spec(c, 'subagent_result', [['subagent_id', subagent], ['success', get(c, 'success')]], fields))
    .with('subagent_error', () => spec(c, 'subagent_error', [['subagent_id', subagent], ['success', false], ['error', true]], fields))
    .otherwise((action) =>
      get(c, 'parentAgentId') !== undefined || get(c, 'role') === 'parent'
        ? spec(c, 'parent_agent_message', [['parent_agent_id', get(c, 'parentAgentId')]], fields)
        : spec(c, 'delegation', [['action', action]], fields),
    )
}

const environment = (c: MemoryChunk): ChunkElementSpec => {
  const source = str(get(c, 'source')) ?? (get(c, 'tool') !== undefined ? 'tool' : get(c, 'skill') !== undefined ? 'skill' : undefined)
  const isError = source === 'tool_error' || source === 'skill_error' || chunkField(c, 'error', 'isError') === true
  const success = get(c, 'success') ?? (isError ? false : undefined)
  const error = isError ? true : undefined
  const fields: ReadonlyArray<Field> = ['source', 'tool', 'skill', 'callId', 'success']
  if (source === 'tool' || source === 'tool_error')
    return spec(c, 'tool_result', [['tool', get(c, 'tool')], ['call_id', get(c, 'callId')], ['success', success], ['error', error]], fields)
  if (source === 'skill' || source === 'skill_error')
    return spec(c, 'skill_result', [['skill', get(c, 'skill')], ['call_id', get(c, 'callId')], ['success', success], ['error', error]], fields)
  return spec(c, 'environment', [['source', source]], fields)
}

const workingFlow = (c: MemoryChunk): ChunkElementSpec => {
  if (c.subType === 'COMPACTED')
    return spec(c, 'progress_summary', [['compacted_at', get(c, 'compactedAt')], ['original_count', get(c, 'originalCount')]], ['compactedAt', 'originalCount'])
  const action = str(get(c, 'action'))
  if (c.metadata.custom?.subType === 'todo' || action?.startsWith('todo') === true) return spec(c, 'todo_update', [['action', action]], ['action'])
  const leaf = (tag: ChunkTag): ChunkElementSpec => spec(c, tag, [['subtype', c.subType]], [])
  return match(c.subType)
    .with('USER', () => leaf('user_intervention'))
    .with('THINKING', () => leaf('thinking'))
    .with('RESPONSE', () => leaf('intermediate_response'))
    .with('AGENT_ACTION', () => leaf('agent_action'))
    .with('ACTION_RESPONSE', () => leaf('action_response'))
    .with(undefined, () => spec(c, 'working_flow', [], []))
    .exhaustive()
}

const output = (c: MemoryChunk): ChunkElementSpec =>
  match(str(get(c, 'action')))
    .with('task_completed', () => spec(c, 'task_completed', [], ['action']))
    .with('task_abandoned', () => spec(c, 'task_abandoned', [['reason', get(c, 'reason')]], ['action', 'reason']))
    .with('task_terminated', () => spec(c, 'task_terminated', [['terminated_by', get(c, 'terminatedBy')]], ['action', 'terminatedBy']))
    .otherwise((action) => spec(c, 'output', [['action', action]], ['action']))

const agent = (c: MemoryChunk): ChunkElementSpec => {
  const role = get(c, 'role')
  const action = str(get(c, 'action'))
  if (role === 'user') return spec(c, 'user_message', [['role', role]], ['role'])
  if (role === 'assistant' && action === 'clarification') return spec(c, 'assistant_clarification', [['role', role], ['action', action]], ['role', 'action'])
  if (role === 'assistant') return spec(c, 'assistant_response', [['role', role], ['action', action]], ['role', 'action'])
  return spec(c, 'agent_message', [['role', role], ['action', action]], ['role', 'action'])
}

/**
 * The element a (leaf) chunk becomes. Containers are classified child by child (see
 * `leavesOf`).
 *
 * @example
 * classifyChunk(toolResultChunk)
 * // { tag: 'tool_result', attrs: [['id', 'chunk_9'], ['tool', 'read_file'], ['call_id', 'call_1'], ['success', false], ['error', true]], … }
 * @category utils
 * @since 0.1.0
 */
export const classifyChunk = (chunk: MemoryChunk): ChunkElementSpec =>
  match(chunk.type)
    .with('SYSTEM', () => spec(chunk, 'system_context', [['priority', chunk.priority]], []))
    .with('AGENT', () => agent(chunk))
    .with('WORKFLOW', () => workflow(chunk))
    .with('DELEGATION', () => delegation(chunk))
    .with('ENVIRONMENT', () => environment(chunk))
    .with('WORKING_FLOW', () => workingFlow(chunk))
    .with('OUTPUT', () => output(chunk))
    .exhaustive()
