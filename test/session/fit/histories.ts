/** Histories for the fitting tests, counted with the real tokenizer. */
import { message, text, toolCall, toolResult, type ChatMessage } from '../../../src/message.js'
import { historyOf } from '../../../src/session/history.js'
import { messageCost } from '../../../src/render/cost.js'
import type { HistoryItem } from '../../../src/session/items.js'
import { tokenizer } from '../helpers.js'

export const user = (t: string): ChatMessage => message('user', t)
export const assistant = (t: string): ChatMessage => message('assistant', t)
export const calls = (...ids: ReadonlyArray<string>): ChatMessage => message('assistant', [text('Running tools.'), ...ids.map((id) => toolCall(id, 'read', { path: `${id}.ts` }))])
export const result = (id: string, out: string, isError = false): ChatMessage => message('tool', [toolResult(id, 'read', out, isError)])
export const system = (t: string): ChatMessage => message('system', t)

/** Items of some turns (ids `h<index>`), well formed. */
export const items = (turns: ReadonlyArray<ChatMessage>): ReadonlyArray<HistoryItem> => historyOf({ tokenizer })(turns).items

/** Items as given, not repaired: for inputs that break the pairing rules on purpose. */
export const raw = (turns: ReadonlyArray<ChatMessage>): ReadonlyArray<HistoryItem> =>
  turns.map((m, i) => ({ id: `h${i}`, kind: 'message', message: m, tokens: messageCost(m, tokenizer) }))

/** A fixed conversation: 12 turns, two tool units, an error, a long answer. */
export const conversation = (): ReadonlyArray<HistoryItem> =>
  items([
    user('Our nightly build fails. Can you look at it?'),
    assistant('Sure. Which branch does the nightly job build?'),
    user('The main branch, with Node 20.'),
    calls('c1'),
    result('c1', 'Error: Cannot find module "left-pad" imported from src/util.ts', true),
    assistant('The module left-pad is imported in src/util.ts but missing from package.json.'),
    user('Thanks. By the way, nice weather today.'),
    assistant('Indeed! Anything else about the build?'),
    calls('c2', 'c3'),
    result('c2', 'export const pad = (s: string) => s.padStart(8)'),
    result('c3', '{ "dependencies": {} }'),
    user('Please replace left-pad with String.prototype.padStart and update the tests.'),
  ])

/** Ids of items, in order. */
export const idsOf = (xs: ReadonlyArray<HistoryItem>): ReadonlyArray<string> => xs.map((i) => i.id)

/** True when every call is followed right away by all its results, and every result follows its call. */
export const paired = (xs: ReadonlyArray<HistoryItem>): boolean =>
  xs.every((item, i) => {
    const m = item.message
    if (m.role === 'tool') {
      let j = i - 1
      while (j >= 0 && xs[j]!.message.role === 'tool') j--
      const owner = xs[j]
      return owner !== undefined && m.parts.every((p) => p._tag !== 'ToolResult' || owner.message.parts.some((q) => q._tag === 'ToolCall' && q.id === p.callId))
    }
    const wanted = m.parts.flatMap((p) => (p._tag === 'ToolCall' ? [p.id] : []))
    const got: string[] = []
    for (let j = i + 1; j < xs.length && xs[j]!.message.role === 'tool'; j++) for (const p of xs[j]!.message.parts) if (p._tag === 'ToolResult') got.push(p.callId)
    return [...got].sort().join() === [...wanted].sort().join()
  })
