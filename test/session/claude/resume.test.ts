import { describe, expect, it } from 'vitest'
import { buildSession } from '../../../src/session/build.js'
import { contextOf, right, texts, tokenizer, writeSession } from '../helpers.js'
import { assistant, call, result, system, text, user } from './lines.js'

const roles = (c: { readonly messages: ReadonlyArray<{ readonly message: { readonly role: string } }> }) => c.messages.map((m) => m.message.role)

describe("Claude Code's resume rules", () => {
  it('leaves out a call line whose result is nowhere (as Claude Code does), reporting it, and invents no result', async () => {
    const file = writeSession('u.jsonl', [user('u1', null, 0, 'go'), assistant('a1', 'u1', 1, 'm1', [text('Trying.')]), assistant('a2', 'a1', 2, 'm1', [call('t1')])])
    const build = right(await buildSession(file, { tokenizer })())
    expect(build.context.omitted).toEqual([{ entryId: 'a2', line: 3, reason: 'unresolvedToolUse' }])
    expect(build.history.repairs.filter((r) => r._tag === 'SyntheticResult')).toEqual([])
    expect(build.history.repairs).toContainEqual({ _tag: 'LeftOutByAgent', itemId: 'a2', line: 3, reason: 'unresolvedToolUse' })
    expect(build.history.items.map((i) => i.message.role)).toEqual(['user', 'assistant'])
  })

  it('adds "Continue from where you left off." and "No response requested." after a branch cut in a tool loop, when a prompt follows', async () => {
    const lines = [user('u1', null, 0, 'go'), assistant('a1', 'u1', 1, 'm1', [call('t1')]), user('r1', 'a1', 2, [result('t1')])]
    const file = writeSession('i.jsonl', lines)
    expect(roles(await contextOf(file))).toEqual(['user', 'assistant', 'tool'])
    const c = await contextOf(file, { withNextPrompt: true })
    expect(roles(c)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant'])
    expect(c.messages.slice(3).map((m) => [m.kind, texts(m.message.parts)])).toEqual([
      ['synthetic', ['Continue from where you left off.']],
      ['synthetic', ['No response requested.']],
    ])
  })

  it('sends /model command lines as user text after "No response requested.", with the line break the next prompt joins at, and legacy Task calls as Agent', async () => {
    const lines = [
      user('u1', null, 0, 'delegate'),
      assistant('a1', 'u1', 1, 'm1', [call('t1', 'Task', { prompt: 'look' })]),
      user('r1', 'a1', 2, [result('t1', 'looked')]),
      assistant('a2', 'r1', 3, 'm2', [text('Done.')]),
      user('u2', 'a2', 4, 'thanks'),
      system('s1', 'u2', 5, 'local_command', '<command-name>/model</command-name>'),
      system('s2', 's1', 6, 'turn_duration'),
    ]
    const c = await contextOf(writeSession('t.jsonl', lines), { withNextPrompt: true })
    expect(c.messages[1]!.message.parts).toEqual([{ _tag: 'ToolCall', id: 't1', name: 'Agent', args: { prompt: 'look' } }])
    expect(c.messages.slice(-3).map((m) => [m.kind, texts(m.message.parts)])).toEqual([
      ['message', ['thanks']],
      ['synthetic', ['No response requested.']],
      ['localCommand', ['<command-name>/model</command-name>\n']],
    ])
  })

  it('does not send an API error Claude Code recorded as an assistant line, and reports it', async () => {
    const error = JSON.parse(assistant('a1', 'u1', 1, 'm1', [text('API Error: 529 overloaded')]))
    const lines = [user('u1', null, 0, 'go'), JSON.stringify({ ...error, isApiErrorMessage: true }), user('u2', 'a1', 2, 'again')]
    const c = await contextOf(writeSession('e.jsonl', lines))
    expect(c.omitted).toEqual([{ entryId: 'a1', line: 2, reason: 'apiError' }])
    expect(c.messages.map((m) => texts(m.message.parts))).toEqual([['go\n', 'again']])
  })
})
