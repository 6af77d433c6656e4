import { describe, expect, it } from 'vitest'
import { classifyChunk, roleOfTag, type ChunkRole } from '../../src/chunks/classify.js'
import type { MemoryChunk } from '../../src/chunks/model.js'
import { DEFAULT_RENDERERS, renderChunk, rendererFor, type ChunkRenderer } from '../../src/chunks/renderers.js'
import { chunk } from './helpers.js'

const T = (text: string, fields: Record<string, unknown> = {}) => ({ type: 'TEXT', text, ...fields })
const S = (fields: Record<string, unknown>) => ({ type: 'TEXT', ...fields })

// Every tag and attribute of seed 000's mapping tables, plus the fallbacks of each type.
const cases: ReadonlyArray<[string, MemoryChunk, string, ChunkRole]> = [
  ['system_context', chunk('chunk_1', 'SYSTEM', T('系统上下文内容'), { priority: 1000 }), '<system_context id="chunk_1" priority="1000">\n系统上下文内容\n</system_context>', 'system'],
  ['user_message', chunk('chunk_2', 'AGENT', T('用户消息内容', { role: 'user' })), '<user_message id="chunk_2" role="user">\n用户消息内容\n</user_message>', 'user'],
  ['assistant_response', chunk('chunk_3', 'AGENT', T('助手回复内容', { role: 'assistant' })), '<assistant_response id="chunk_3" role="assistant">\n助手回复内容\n</assistant_response>', 'assistant'],
  [
    'assistant_clarification',
    chunk('chunk_4', 'AGENT', T('澄清问题', { role: 'assistant', action: 'clarification' })),
    '<assistant_clarification id="chunk_4" role="assistant" action="clarification">\n澄清问题\n</assistant_clarification>',
    'assistant',
  ],
  ['agent_message (no role)', chunk('chunk_5', 'AGENT', T('hello')), '<agent_message id="chunk_5">\nhello\n</agent_message>', 'user'],
  [
    'tool_call',
    chunk('chunk_6', 'WORKFLOW', S({ action: 'tool_call', toolName: 'read_file', callId: 'call_123', status: 'pending', arguments: { path: '/src/main.ts' } })),
    '<tool_call id="chunk_6" action="tool_call" tool="read_file" call_id="call_123" status="pending">\n{"path":"/src/main.ts"}\n</tool_call>',
    'assistant',
  ],
  [
    'skill_call',
    chunk('chunk_7', 'WORKFLOW', S({ action: 'skill_call', skillName: 'code_review', callId: 'call_456', status: 'pending', input: { code: '...' } })),
    '<skill_call id="chunk_7" action="skill_call" skill="code_review" call_id="call_456" status="pending">\n{"code":"..."}\n</skill_call>',
    'assistant',
  ],
  ['workflow (other action)', chunk('chunk_8', 'WORKFLOW', T('planning', { action: 'plan' })), '<workflow id="chunk_8" action="plan">\nplanning\n</workflow>', 'assistant'],
  [
    'spawn_subagent',
    chunk('chunk_9', 'DELEGATION', S({ action: 'spawn_subagent', subAgentId: 'agent_123', agentType: 'researcher', task: 'Search for...' })),
    '<spawn_subagent id="chunk_9" subagent_id="agent_123" agent_type="researcher">\n{"task":"Search for..."}\n</spawn_subagent>',
    'assistant',
  ],
  [
    'message_to_subagent',
    chunk('chunk_10', 'DELEGATION', T('请继续调研...', { action: 'message_subagent', subAgentId: 'agent_123' })),
    '<message_to_subagent id="chunk_10" subagent_id="agent_123">\n请继续调研...\n</message_to_subagent>',
    'assistant',
  ],
  [
    'subagent_result',
    chunk('chunk_11', 'DELEGATION', T('调研结果...', { action: 'subagent_result', subAgentId: 'agent_123', success: true })),
    '<subagent_result id="chunk_11" subagent_id="agent_123" success="true">\n调研结果...\n</subagent_result>',
    'user',
  ],
  [
    'subagent_error',
    chunk('chunk_12', 'DELEGATION', T('timed out', { action: 'subagent_error', subAgentId: 'agent_123' })),
    '<subagent_error id="chunk_12" subagent_id="agent_123" success="false" error="true">\ntimed out\n</subagent_error>',
    'user',
  ],
  [
    'parent_agent_message',
    chunk('chunk_13', 'DELEGATION', T('父级任务指令', { parentAgentId: 'agent_000' })),
    '<parent_agent_message id="chunk_13" parent_agent_id="agent_000">\n父级任务指令\n</parent_agent_message>',
    'user',
  ],
  ['delegation (other)', chunk('chunk_14', 'DELEGATION', T('x', { action: 'handoff' })), '<delegation id="chunk_14" action="handoff">\nx\n</delegation>', 'assistant'],
  [
    'tool_result',
    chunk('chunk_15', 'ENVIRONMENT', T('文件内容...', { source: 'tool', toolName: 'read_file', callId: 'call_123', success: true })),
    '<tool_result id="chunk_15" tool="read_file" call_id="call_123" success="true">\n文件内容...\n</tool_result>',
    'user',
  ],
  [
    'tool_result, error form',
    chunk('chunk_16', 'ENVIRONMENT', T('File not found', { source: 'tool_error', toolName: 'read_file', callId: 'call_123' })),
    '<tool_result id="chunk_16" tool="read_file" call_id="call_123" success="false" error="true">\nFile not found\n</tool_result>',
    'user',
  ],
  [
    'skill_result',
    chunk('chunk_17', 'ENVIRONMENT', T('Review 结果...', { source: 'skill', skillName: 'code_review', callId: 'call_456', success: true })),
    '<skill_result id="chunk_17" skill="code_review" call_id="call_456" success="true">\nReview 结果...\n</skill_result>',
    'user',
  ],
  [
    'skill_result, error form',
    chunk('chunk_18', 'ENVIRONMENT', T('crashed', { source: 'skill_error', skillName: 'code_review', callId: 'call_456', success: false })),
    '<skill_result id="chunk_18" skill="code_review" call_id="call_456" success="false" error="true">\ncrashed\n</skill_result>',
    'user',
  ],
  ['environment (other source)', chunk('chunk_19', 'ENVIRONMENT', T('cwd=/app', { source: 'shell' })), '<environment id="chunk_19" source="shell">\ncwd=/app\n</environment>', 'user'],
  [
    'progress_summary',
    chunk('chunk_20', 'WORKING_FLOW', T('## Progress Summary\n### Completed Actions\n- Action 1\n- Action 2'), { subType: 'COMPACTED', custom: { compactedAt: 1703000000000, originalChunkCount: 15 } }),
    '<progress_summary id="chunk_20" compacted_at="1703000000000" original_count="15">\n## Progress Summary\n### Completed Actions\n- Action 1\n- Action 2\n</progress_summary>',
    'user',
  ],
  [
    'todo_update',
    chunk('chunk_21', 'WORKING_FLOW', S({ action: 'todo_set', todos: [{ text: 'a' }] }), { subType: 'AGENT_ACTION', custom: { subType: 'todo' } }),
    '<todo_update id="chunk_21" action="todo_set">\n{"todos":[{"text":"a"}]}\n</todo_update>',
    'assistant',
  ],
  ['thinking', chunk('chunk_22', 'WORKING_FLOW', T('思考过程...'), { subType: 'THINKING' }), '<thinking id="chunk_22" subtype="THINKING">\n思考过程...\n</thinking>', 'assistant'],
  ['user_intervention', chunk('chunk_23', 'WORKING_FLOW', T('用户中途的干预'), { subType: 'USER' }), '<user_intervention id="chunk_23" subtype="USER">\n用户中途的干预\n</user_intervention>', 'user'],
  ['intermediate_response', chunk('chunk_24', 'WORKING_FLOW', T('so far'), { subType: 'RESPONSE' }), '<intermediate_response id="chunk_24" subtype="RESPONSE">\nso far\n</intermediate_response>', 'assistant'],
  ['agent_action', chunk('chunk_25', 'WORKING_FLOW', T('call mcp'), { subType: 'AGENT_ACTION' }), '<agent_action id="chunk_25" subtype="AGENT_ACTION">\ncall mcp\n</agent_action>', 'assistant'],
  ['action_response', chunk('chunk_26', 'WORKING_FLOW', T('mcp said'), { subType: 'ACTION_RESPONSE' }), '<action_response id="chunk_26" subtype="ACTION_RESPONSE">\nmcp said\n</action_response>', 'user'],
  ['working_flow (no subtype)', chunk('chunk_27', 'WORKING_FLOW', T('note')), '<working_flow id="chunk_27">\nnote\n</working_flow>', 'assistant'],
  [
    'task_completed',
    chunk('chunk_28', 'OUTPUT', S({ action: 'task_completed', result: '...', summary: '...' })),
    '<task_completed id="chunk_28">\n{"result":"...","summary":"..."}\n</task_completed>',
    'assistant',
  ],
  [
    'task_abandoned',
    chunk('chunk_29', 'OUTPUT', S({ action: 'task_abandoned', reason: '无法完成', partialResult: '...' })),
    '<task_abandoned id="chunk_29" reason="无法完成">\n{"partialResult":"..."}\n</task_abandoned>',
    'assistant',
  ],
  [
    'task_terminated',
    chunk('chunk_30', 'OUTPUT', T('任务被终止', { action: 'task_terminated', terminatedBy: 'user' })),
    '<task_terminated id="chunk_30" terminated_by="user">\n任务被终止\n</task_terminated>',
    'assistant',
  ],
  ['output (other action)', chunk('chunk_31', 'OUTPUT', T('draft', { action: 'draft' })), '<output id="chunk_31" action="draft">\ndraft\n</output>', 'assistant'],
]

describe('default chunk renderers', () => {
  it.each(cases)('%s', (_, c, xml, role) => {
    const renderer = rendererFor([], c)
    expect(renderer.render(c)).toEqual([{ _tag: 'Text', text: xml }])
    expect(renderer.getRole(c)).toBe(role)
    expect(roleOfTag(classifyChunk(c).tag)).toBe(role)
  })

  it('reads attribute values from metadata.custom and snake_case names too', () => {
    const c = chunk('chunk_40', 'ENVIRONMENT', T('ok', { source: 'tool' }), { custom: { tool_name: 'ls', call_id: 'call_9', success: true } })
    expect(renderChunk(c)).toEqual([{ _tag: 'Text', text: '<tool_result id="chunk_40" tool="ls" call_id="call_9" success="true">\nok\n</tool_result>' }])
    expect(classifyChunk(c).callId).toBe('call_9')
  })

  it('renders images as parts after the element in user turns, and as a marker elsewhere', () => {
    const img = chunk('chunk_41', 'AGENT', { type: 'IMAGE', data: 'iVBORw0KGgo=', mimeType: 'image/png', altText: 'the chart', role: 'user' })
    expect(renderChunk(img)).toEqual([
      { _tag: 'Text', text: '<user_message id="chunk_41" role="user">\n[image: the chart]\n</user_message>' },
      { _tag: 'Image', source: { _tag: 'Base64', mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
    ])
    const mixed = chunk('chunk_42', 'ENVIRONMENT', {
      type: 'MIXED',
      source: 'tool',
      toolName: 'screenshot',
      parts: [
        { type: 'TEXT', text: 'page:' },
        { type: 'IMAGE', data: 'https://x.test/p.png', mimeType: 'image/png' },
        { type: 'IMAGE', data: 'data:image/jpeg;base64,/9j/', mimeType: 'image/jpeg' },
      ],
    })
    expect(renderChunk(mixed)).toEqual([
      { _tag: 'Text', text: '<tool_result id="chunk_42" tool="screenshot">\npage:\n[image]\n[image]\n</tool_result>' },
      { _tag: 'Image', source: { _tag: 'Url', url: 'https://x.test/p.png' } },
      { _tag: 'Image', source: { _tag: 'Base64', mimeType: 'image/jpeg', data: '/9j/' } },
    ])
    const assistantImage = chunk('chunk_43', 'OUTPUT', { type: 'IMAGE', data: 'AAAA', mimeType: 'image/png', action: 'task_completed' })
    expect(renderChunk(assistantImage)).toEqual([{ _tag: 'Text', text: '<task_completed id="chunk_43">\n[image]\n</task_completed>' }])
  })

  it('renders a chunk reference and an empty structured content', () => {
    expect(renderChunk(chunk('chunk_44', 'WORKING_FLOW', { type: 'CHUNK_REF', chunkId: 'chunk_1' }, { subType: 'RESPONSE' }))).toEqual([
      { _tag: 'Text', text: '<intermediate_response id="chunk_44" subtype="RESPONSE">\n[Reference to chunk: chunk_1]\n</intermediate_response>' },
    ])
    expect(renderChunk(chunk('chunk_45', 'OUTPUT', S({ action: 'task_completed' })))).toEqual([{ _tag: 'Text', text: '<task_completed id="chunk_45">\n\n</task_completed>' }])
  })

  it('has one default renderer per chunk type', () => {
    expect(DEFAULT_RENDERERS).toHaveLength(7)
  })

  it('lets a user renderer take precedence over the defaults (the seed\'s CustomChunkRenderer)', () => {
    const custom: ChunkRenderer = {
      canRender: (c) => c.metadata.custom?.myCustomType === true,
      getRole: () => 'assistant',
      render: (c) => `<my_custom_tag id="${c.id}">\n${JSON.stringify(c.content.fields)}\n</my_custom_tag>`,
    }
    const mine = chunk('chunk_50', 'ENVIRONMENT', S({ source: 'tool', n: 1 }), { custom: { myCustomType: true } })
    const other = chunk('chunk_51', 'ENVIRONMENT', T('x', { source: 'tool' }))
    expect(rendererFor([custom], mine)).toBe(custom)
    expect(rendererFor([custom], mine).render(mine)).toBe('<my_custom_tag id="chunk_50">\n{"source":"tool","n":1}\n</my_custom_tag>')
    expect(rendererFor([custom], other)).not.toBe(custom)
  })
})
