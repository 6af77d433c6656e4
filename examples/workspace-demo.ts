/**
 * The agent workspace end to end: read a nanobot-style workspace (examples/workspace), build
 * its system prompt within a token budget, send a turn with an image, and record a tool
 * loop, printing what was kept and why.
 *
 * The clock and the machine are fixed so the output is the same everywhere: it is
 * 2026-03-14 09:30 in Hangzhou, and of the skills' requirements only `curl` is installed.
 *
 * Run: npx tsx examples/workspace-demo.ts
 */
import { fileURLToPath } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { createTokenizer } from 'gssc'
import {
  addAssistantMessage,
  addToolResult,
  buildTurn,
  buildSystemPrompt,
  loadWorkspace,
  type TurnMessage,
  type PartReport,
} from 'gssc/workspace'
import { isMain } from './load.js'

/** The example workspace folder. */
export const WORKSPACE = fileURLToPath(new URL('./workspace', import.meta.url))

const orThrow = <A>(e: E.Either<{ readonly message: string }, A>): A => {
  if (E.isLeft(e)) throw new Error(e.left.message)
  return e.right
}

const row = (p: PartReport): string =>
  `${p.name.padEnd(24)} P${p.priority} ${String(p.tokens).padStart(5)}  ${p.detail}`

/** A message's content as one short line. */
const view = (m: TurnMessage): string => {
  if (m.role === 'assistant') return [m.content ?? '', ...(m.tool_calls ?? []).map((c) => (c.type === 'function' ? `→ ${c.function.name}(${c.function.arguments})` : `→ ${c.custom.name}: ${c.custom.input}`))].join(' ').trim()
  if (typeof m.content === 'string') return m.content
  return m.content.map((c) => (c.type === 'text' ? c.text : `[image ${c.image_url.url.slice(0, 22)}…]`)).join(' ')
}

/** One line per message: role and a short view of the content. */
const outline = (messages: ReadonlyArray<TurnMessage>): string =>
  messages
    .map((m) => {
      const flat = view(m).replace(/\s+/g, ' ')
      return `${m.role.padEnd(9)} ${flat.length > 90 ? `${flat.slice(0, 89)}…` : flat}`
    })
    .join('\n')

export const main = async (budget = 900, tight = 450): Promise<string> => {
  const tokenizer = orThrow(createTokenizer('gpt-4o'))
  const ws = orThrow(
    await loadWorkspace(WORKSPACE, {
      now: () => new Date('2026-03-14T01:30:00Z'),
      timeZone: 'Asia/Shanghai',
      host: { env: {}, hasCommand: async (name) => name === 'curl' },
    })(),
  )
  const options = { tokenizer, maxTokens: budget, identity: { name: 'Pip', emoji: '🐦' }, runtime: 'Linux x64, Node.js 20' }

  // 1. the system prompt alone, within the budget, and again in a tighter one
  const system = orThrow(buildSystemPrompt(ws, { ...options, channel: 'telegram', chatId: '4242' }))
  const squeezed = orThrow(buildSystemPrompt(ws, { ...options, maxTokens: tight, channel: 'telegram', chatId: '4242' }))

  // 2. a turn with an image, then a tool loop
  const turn = orThrow(
    await buildTurn(
      ws,
      { history: [], currentMessage: 'Add this receipt to the budget, and will it rain tomorrow?', media: ['images/receipt.png'], channel: 'telegram', chatId: '4242' },
      options,
    )(),
  )
  const weather = ws.skills.find((s) => s.name === 'weather')!
  const asked = addAssistantMessage(turn.messages, 'Let me read the weather skill first.', [
    { id: 'call_1', name: 'read_file', arguments: { path: 'skills/weather/SKILL.md' } },
  ])
  const read = addToolResult(asked, 'call_1', 'read_file', weather.file.text)
  const ran = addToolResult(
    addAssistantMessage(read, null, [{ id: 'call_2', name: 'exec', arguments: { cmd: 'curl -s "wttr.in/Hangzhou?format=3"' } }]),
    'call_2',
    'exec',
    'Hangzhou: 🌦 +14°C',
  )
  const done = addAssistantMessage(ran, 'Receipt noted. Tomorrow: light rain, 14 °C — take an umbrella.', null)

  return [
    `== system prompt: ${system.tokens} of ${system.budget} tokens ==`,
    ...system.parts.map(row),
    ...(ws.problems.length === 0 ? [] : ['', 'problems:', ...ws.problems.map((p) => `  ${p.message}`)]),
    '',
    '== the prompt ==',
    system.prompt,
    '',
    '== messages after the tool loop ==',
    outline(done as ReadonlyArray<TurnMessage>),
    '',
    `== the same workspace in ${squeezed.budget} tokens: ${squeezed.tokens} ==`,
    ...squeezed.parts.map(row),
  ].join('\n')
}

if (isMain(import.meta.url)) console.log(await main())
