/**
 * The shared Claude Code fixtures rebuild to exactly what Claude Code 2.1.330 sent for them
 * (see `./oracle.ts` for the comparison).
 */
import { describe, expect, it } from 'vitest'
import { fixture as shared } from '../../shared.js'
import { canonical, expectedMessages, rebuiltMessages } from './oracle.js'

describe.each(['short', 'tool_heavy'])('Claude Code fixture %s.jsonl', (name) => {
  it('rebuilds to the messages Claude Code 2.1.330 sent when resuming it', async () => {
    const got = await rebuiltMessages(shared('claude-code', `${name}.jsonl`), 'claude-opus-4-6')
    const want = expectedMessages(shared('claude-code', 'expected', `${name}.cc-2.1.330.messages.json`))
    expect(canonical(got)).toEqual(canonical(want))
  })
})
