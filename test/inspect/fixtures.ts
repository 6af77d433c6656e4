/** Real builds for the inspector's tests: every fate a packet can meet, hostile content included. */
import { gatherer } from '../../src/gather/gatherer.js'
import { message, text, toolCall, toolResult, type ChatMessage } from '../../src/message.js'
import type { PacketInput } from '../../src/packet.js'
import type { SimpleMessage } from '../../src/phase.js'
import { build } from '../../src/pipeline.js'
import type { BuildResult } from '../../src/report.js'
import { gpt4o, MINUTE, NOW, run } from '../helpers.js'

/** Content that must show as text in the report and never run. */
export const SCRIPT_PAYLOAD = '<script>window.__pwned = 1; document.title = "pwned"</script>'
export const SCRIPT_ID = 'evidence:<script>alert("id")</script>'

export const history: ReadonlyArray<SimpleMessage | ChatMessage> = [
  ...Array.from({ length: 8 }, (_, i): SimpleMessage => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `Turn ${i}: we looked at the CI build and the compile step again, without luck.`,
    timestamp: NOW - (20 - i) * MINUTE,
  })),
  message('assistant', [text('Let me read the CI log.'), toolCall('call_1', 'read_file', { path: 'ci.log' })], { timestamp: NOW - 5 * MINUTE }),
  message('tool', [toolResult('call_1', 'read_file', 'npm ERR! Missing script: "compile"')], { timestamp: NOW - 4 * MINUTE }),
  { role: 'user', content: 'So why does the CI build fail?', timestamp: NOW - MINUTE },
]

export const packets: ReadonlyArray<PacketInput> = [
  { id: 'why', type: 'evidence', content: 'The CI build fails because the compile script was renamed to build in v2.', source: 'CHANGELOG.md' },
  { id: 'lunch', type: 'evidence', content: 'Lunch is at noon.', source: 'calendar' },
  { id: SCRIPT_ID, type: 'evidence', content: `CI build fail note ${SCRIPT_PAYLOAD} and a stray </script> end tag`, source: 'evil "quoted" <source>' },
  { id: 'evidence:a-very-long-identifier-that-does-not-fit-in-any-terminal-column-at-all', type: 'evidence', content: 'The CI build fails on Node 18 only.', source: 'ci' },
  { id: 'cjk', type: 'evidence', content: 'CI build 构建失败：缺少 compile 脚本。', source: '构建日志' },
  { id: 'why', type: 'evidence', content: 'A second packet with the same id.', source: 'dup' },
  { id: 'state', type: 'task_state', content: 'Open: is the CI build config in ci.yml or in the shared template?', source: 'notes' },
  { id: 'note', type: 'custom', content: 'Team note: the CI build compile step moved last week. '.repeat(6), source: 'team' },
]

const broken = gatherer('broken-search', () => {
  throw new Error('connection refused')
})

/** A build with room for most things: kept, dropped below relevance, duplicates, a failed gatherer. */
export const roomy = (): Promise<BuildResult<string>> =>
  run(
    build(
      { query: 'Why does the CI build fail?', instructions: 'You are the build assistant. Give the exact command to run.', history, packets },
      { tokenizer: gpt4o, now: NOW, config: { maxTokens: 900, maxHistoryMessages: 20 }, gatherers: [broken] },
    ),
  )

/** The same request in a budget so small that instructions are cut and most packets dropped. */
export const tight = (maxTokens = 160): Promise<BuildResult<string>> =>
  run(
    build(
      {
        query: 'Why does the CI build fail?',
        instructions: `You are the build assistant. ${'Always give the exact command to run, and explain why it fixes the CI build. '.repeat(8)}`,
        history,
        packets,
      },
      { tokenizer: gpt4o, now: NOW, config: { maxTokens, maxHistoryMessages: 20 } },
    ),
  )
