/** Hand-written chat outputs in the OpenAI and Anthropic request shapes, hostile content included. */
import { SCRIPT_PAYLOAD } from './fixtures.js'

export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

export const openaiOutput = [
  { role: 'system', content: '[Role & Policies]\nYou are the build assistant. Give the exact command to run.' },
  { role: 'user', content: 'Turn 6: we looked at the CI build and the compile step again, without luck.' },
  {
    role: 'assistant',
    content: 'Let me read the CI log.',
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"ci.log"}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'npm ERR! Missing script: "compile"' },
  { role: 'tool', tool_call_id: 'call_zzz', content: `orphan ${SCRIPT_PAYLOAD}` },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'So why does the CI build fail?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: 'image_url', image_url: { url: 'https://example.com/remote.png' } },
    ],
  },
]

/**
 * The provenance a renderer would report for {@link openaiOutput}: the packets of the inspector
 * fixtures' builds that each message shows (the orphan result shows none).
 */
export const openaiSources: ReadonlyArray<ReadonlyArray<string>> = [['instructions'], ['history:6'], ['history:8'], ['history:9'], [], ['history:10']]

export const anthropicOutput = {
  system: [{ type: 'text', text: `You are the build assistant. ${SCRIPT_PAYLOAD}` }],
  messages: [
    { role: 'user', content: 'Why does the CI build fail?' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Check the log first.', signature: 'sig' },
        { type: 'text', text: 'Reading the log.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'ci.log' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'npm ERR! Missing script: "compile"' }], is_error: true },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        { type: 'server_tool_use', id: 'x', name: 'web_search', input: {} },
      ],
    },
  ],
}
