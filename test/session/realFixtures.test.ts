/**
 * The two real pi sessions must rebuild to exactly the context pi itself would send.
 *
 * `referenceContext` below is an independent, deliberately naive reimplementation of pi's
 * loader (`loadEntriesFromFile` + `migrateSessionEntries`), `buildSessionContext` and
 * `convertToLlm`, written from formats.md §1 and pi's documented behaviour: whole-file
 * read, `Array.find` lookups, no shared code with src/session. Both sides are projected to
 * the same plain shape and compared message by message.
 */
import * as E from 'fp-ts/lib/Either.js'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { ChatMessage } from '../../src/message.js'
import { branchContext } from '../../src/session/context.js'
import { toHistory } from '../../src/session/history.js'
import { loadSession } from '../../src/session/load.js'
import type { BranchContext } from '../../src/session/model.js'
import { createTokenizer } from '../../src/tokenize/tokenizer.js'
import { fixture } from '../shared.js'

const FIXTURES = fixture('pi')
const BEFORE = `${FIXTURES}/before-compaction.jsonl`
const LARGE = `${FIXTURES}/large-session.jsonl`

// -------------------------------------------------------------------------------------
// reference implementation (slow, obvious)
// -------------------------------------------------------------------------------------

type Obj = Record<string, any>

const refLoad = (file: string): Obj[] => {
  const entries: Obj[] = []
  for (const line of readFileSync(file, 'utf8').trim().split('\n')) {
    if (!line.trim()) continue
    try {
      entries.push(JSON.parse(line))
    } catch {
      // pi skips malformed lines
    }
  }
  const header = entries.find((e) => e.type === 'session')
  const version = header?.version ?? 1
  if (version < 2) {
    // v1 → v2: chain entries in file order; ids are ours (pi's are random)
    let prev: string | null = null
    entries.forEach((e, index) => {
      if (e.type === 'session') return
      e.id = `v1-${index}`
      e.parentId = prev
      prev = e.id
    })
    for (const e of entries)
      if (e.type === 'compaction' && typeof e.firstKeptEntryIndex === 'number') {
        const target = entries[e.firstKeptEntryIndex]
        if (target && target.type !== 'session') e.firstKeptEntryId = target.id
      }
  }
  if (version < 3) for (const e of entries) if (e.type === 'message' && e.message.role === 'hookMessage') e.message.role = 'custom'
  return entries.filter((e) => e.type !== 'session')
}

const COMPACTION_PREFIX = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n'
const BRANCH_PREFIX = 'The following is a summary of a branch that this conversation came back from:\n\n<summary>\n'

const refBash = (m: Obj): string => {
  let t = 'Ran `' + m.command + '`\n'
  t += m.output ? '```\n' + m.output + '\n```' : '(no output)'
  if (m.cancelled) t += '\n\n(command cancelled)'
  else if (m.exitCode !== null && m.exitCode !== undefined && m.exitCode !== 0) t += '\n\nCommand exited with code ' + m.exitCode
  if (m.truncated && m.fullOutputPath) t += '\n\n[Output truncated. Full output: ' + m.fullOutputPath + ']'
  return t
}

const refContext = (entries: Obj[]): { messages: Obj[]; thinkingLevel: string; model: Obj | null } => {
  const leaf = entries[entries.length - 1]!
  const path: Obj[] = []
  for (let cur: Obj | undefined = leaf; cur; cur = cur.parentId ? entries.find((e) => e.id === cur!.parentId) : undefined) path.unshift(cur)
  let thinkingLevel = 'off'
  let model: Obj | null = null
  let compaction: Obj | null = null
  for (const e of path) {
    if (e.type === 'thinking_level_change') thinkingLevel = e.thinkingLevel
    else if (e.type === 'model_change') model = { provider: e.provider, modelId: e.modelId }
    else if (e.type === 'message' && e.message.role === 'assistant') model = { provider: e.message.provider, modelId: e.message.model }
    else if (e.type === 'compaction') compaction = e
  }
  const agent: Obj[] = []
  const add = (e: Obj): void => {
    if (e.type === 'message') agent.push(e.message)
    else if (e.type === 'custom_message') agent.push({ role: 'custom', content: e.content, timestamp: new Date(e.timestamp).getTime() })
    else if (e.type === 'branch_summary' && e.summary) agent.push({ role: 'branchSummary', summary: e.summary, timestamp: new Date(e.timestamp).getTime() })
  }
  if (compaction) {
    agent.push({ role: 'compactionSummary', summary: compaction.summary, timestamp: new Date(compaction.timestamp).getTime() })
    const at = path.indexOf(compaction)
    let found = false
    for (let i = 0; i < at; i++) {
      if (path[i]!.id === compaction.firstKeptEntryId) found = true
      if (found) add(path[i]!)
    }
    for (let i = at + 1; i < path.length; i++) add(path[i]!)
  } else path.forEach(add)
  const messages = agent.flatMap((m): Obj[] => {
    switch (m.role) {
      case 'bashExecution':
        return m.excludeFromContext ? [] : [{ role: 'user', content: [{ type: 'text', text: refBash(m) }], timestamp: m.timestamp }]
      case 'custom':
        return [{ role: 'user', content: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content, timestamp: m.timestamp }]
      case 'branchSummary':
        return [{ role: 'user', content: [{ type: 'text', text: BRANCH_PREFIX + m.summary + '</summary>' }], timestamp: m.timestamp }]
      case 'compactionSummary':
        return [{ role: 'user', content: [{ type: 'text', text: COMPACTION_PREFIX + m.summary + '\n</summary>' }], timestamp: m.timestamp }]
      default:
        return [m]
    }
  })
  return { messages, thinkingLevel, model }
}

// -------------------------------------------------------------------------------------
// one comparable shape for both sides
// -------------------------------------------------------------------------------------

const block = (b: Obj): Obj =>
  b.type === 'text'
    ? { type: 'text', text: b.text }
    : b.type === 'image'
      ? { type: 'image', data: b.data, mimeType: b.mimeType }
      : b.type === 'thinking'
        ? { type: 'thinking', thinking: b.thinking, signature: b.thinkingSignature, redacted: b.redacted === true }
        : { type: 'toolCall', id: b.id, name: b.name, arguments: b.arguments }

const projectRef = (m: Obj): Obj => {
  const content = (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content).map(block)
  if (m.role === 'toolResult') return { role: 'toolResult', toolCallId: m.toolCallId, toolName: m.toolName, isError: m.isError, content, timestamp: m.timestamp }
  if (m.role === 'assistant') return { role: 'assistant', content, api: m.api, provider: m.provider, model: m.model, stopReason: m.stopReason, timestamp: m.timestamp }
  return { role: m.role, content, timestamp: m.timestamp }
}

const projectOurs = (m: ChatMessage): Obj => {
  const content = m.parts.map((p): Obj => {
    switch (p._tag) {
      case 'Text':
        return { type: 'text', text: p.text }
      case 'Image':
        return p.source._tag === 'Base64' ? { type: 'image', data: p.source.data, mimeType: p.source.mimeType } : { type: 'image', url: p.source.url }
      case 'Thinking':
        return { type: 'thinking', thinking: p.text, signature: p.signature, redacted: p.redacted === true }
      case 'ToolCall':
        return { type: 'toolCall', id: p.id, name: p.name, arguments: p.args }
      case 'ToolResult':
        return { type: 'toolResult' }
      case 'Document':
        return { type: 'document' }
    }
  })
  if (m.role === 'tool') {
    const r = m.parts[0]!
    if (r._tag !== 'ToolResult') throw new Error('tool turn without a result')
    return { role: 'toolResult', toolCallId: r.callId, toolName: r.name, isError: r.isError, content: r.content.map((c) => projectOurs({ role: 'user', parts: [c] }).content[0]), timestamp: m.timestamp }
  }
  if (m.role === 'assistant')
    return { role: 'assistant', content, api: m.origin?.api, provider: m.origin?.provider, model: m.origin?.model, stopReason: m.stopReason, timestamp: m.timestamp }
  return { role: m.role, content, timestamp: m.timestamp }
}

const ours = async (file: string): Promise<BranchContext> => {
  const loaded = await loadSession(file)()
  if (E.isLeft(loaded)) throw new Error(loaded.left.message)
  expect(loaded.right.diagnostics).toEqual([])
  const context = branchContext()(loaded.right)
  if (E.isLeft(context)) throw new Error(context.left.message)
  return context.right
}

const roles = (messages: ReadonlyArray<{ readonly role: string }>): Record<string, number> =>
  messages.reduce<Record<string, number>>((acc, m) => ({ ...acc, [m.role]: (acc[m.role] ?? 0) + 1 }), {})

// -------------------------------------------------------------------------------------
// tests
// -------------------------------------------------------------------------------------

describe.each([BEFORE, LARGE])('%s rebuilds as pi rebuilds it', (file) => {
  it('gives the same messages, in the same order, with the same settings', async () => {
    const ref = refContext(refLoad(file))
    const got = await ours(file)
    expect(got.messages.length).toBe(ref.messages.length)
    got.messages.forEach((m, i) => expect(projectOurs(m.message), `message ${i}`).toEqual(projectRef(ref.messages[i]!)))
    expect(got.thinkingLevel).toBe(ref.thinkingLevel)
    expect(got.model).toEqual(ref.model)
  })
})

describe('before-compaction.jsonl', () => {
  it('starts from the second compaction: its summary, 77 kept messages, then 368 more', async () => {
    const got = await ours(BEFORE)
    const lines = readFileSync(BEFORE, 'utf8').trim().split('\n')
    const second = JSON.parse(lines[628]!)
    expect(second.type).toBe('compaction')
    expect(got.messages.length).toBe(446)
    expect(got.compaction).toEqual({ entryId: 'v1-628', firstKeptEntryId: 'v1-551', tokensBefore: 185014, firstKeptFound: true })
    const first = got.messages[0]!
    expect(first.kind).toBe('compactionSummary')
    expect(first.message.parts).toEqual([{ _tag: 'Text', text: `${COMPACTION_PREFIX}${second.summary}\n</summary>` }])
    // the first kept message is the user message at file index 551
    expect(got.messages[1]!.entryId).toBe('v1-551')
    expect(got.messages[1]!.message.parts[0]).toEqual({ _tag: 'Text', text: JSON.parse(lines[551]!).message.content[0].text })
    const kept = got.messages.slice(1, 78)
    expect(roles(kept.map((m) => m.message))).toEqual({ user: 3, assistant: 38, tool: 36 })
    expect(got.messages.slice(78).length).toBe(368)
    expect(roles(got.messages.map((m) => m.message))).toEqual({ user: 35, assistant: 219, tool: 192 })
    expect(got.thinkingLevel).toBe('off')
    expect(got.model).toEqual({ provider: 'anthropic', modelId: 'claude-opus-4-5' })
  })

  it('ends with the last bash execution, rendered as pi renders it', async () => {
    const got = await ours(BEFORE)
    const last = got.messages[got.messages.length - 1]!
    expect(last.kind).toBe('bashExecution')
    expect(last.entryId).toBe('v1-1001')
    const text = last.message.parts[0]
    expect(text?._tag === 'Text' && text.text.startsWith('Ran `find .`\n```\n./.git/objects/2d\n')).toBe(true)
    expect(got.changes.filter((c) => c._tag === 'ModelChange').map((c) => c.entryId)).toEqual(['v1-710', 'v1-711', 'v1-712', 'v1-713', 'v1-714'])
  })
})

describe('large-session.jsonl', () => {
  it('keeps all 914 messages (no compaction), starting with "/mode"', async () => {
    const got = await ours(LARGE)
    expect(got.compaction).toBeUndefined()
    expect(got.messages.length).toBe(914)
    expect(roles(got.messages.map((m) => m.message))).toEqual({ user: 88, assistant: 453, tool: 373 })
    expect(got.messages[0]!.message.parts).toEqual([{ _tag: 'Text', text: '/mode' }])
    expect(got.changes.filter((c) => c._tag === 'ThinkingLevelChange').length).toBe(103)
    expect(got.model).toEqual({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' })
  })
})

// before-compaction's context has calls without results in turns that completed; in
// large-session, every call without a result is in an aborted turn
describe.each([
  [BEFORE, true],
  [LARGE, false],
])('%s converts to turns a provider accepts', (file, hasUnanswered) => {
  it('answers every surviving tool call right after its turn and drops failed turns', async () => {
    const context = await ours(file)
    const tokenizer = E.getOrElseW(() => {
      throw new Error('no tokenizer')
    })(createTokenizer('gpt-4o'))
    const { items, repairs } = toHistory({ tokenizer })(context.messages)
    // independent expectations from the context itself
    const failed = context.messages.filter((m) => m.message.role === 'assistant' && (m.message.stopReason === 'aborted' || m.message.stopReason === 'error'))
    const answered = new Set(context.messages.flatMap((m) => m.message.parts.flatMap((p) => (p._tag === 'ToolResult' ? [p.callId] : []))))
    const unanswered = context.messages
      .filter((m) => !failed.includes(m))
      .flatMap((m) => m.message.parts.flatMap((p) => (p._tag === 'ToolCall' && !answered.has(p.id) ? [p.id] : [])))
    expect(failed.length).toBeGreaterThan(0)
    expect(unanswered.length > 0).toBe(hasUnanswered)
    expect(repairs.filter((r) => r._tag === 'DroppedFailedTurn').length).toBe(failed.length)
    expect(repairs.filter((r) => r._tag === 'SyntheticResult').map((r) => (r._tag === 'SyntheticResult' ? r.callId : '')).sort()).toEqual([...unanswered].sort())
    expect(items.some((i) => i.message.stopReason === 'aborted' || i.message.stopReason === 'error')).toBe(false)
    // provider rule: the results of a turn's calls come right after it, each exactly once
    for (let i = 0; i < items.length; i++) {
      const calls = items[i]!.message.parts.flatMap((p) => (p._tag === 'ToolCall' ? [p.id] : []))
      if (items[i]!.message.role === 'tool') continue
      const results: string[] = []
      for (let j = i + 1; j < items.length && items[j]!.message.role === 'tool'; j++)
        for (const p of items[j]!.message.parts) if (p._tag === 'ToolResult') results.push(p.callId)
      expect(results.sort()).toEqual([...calls].sort())
    }
    expect(items.every((i) => i.tokens > 0)).toBe(true)
  })
})
