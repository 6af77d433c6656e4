/**
 * `npm run demo`: a tour of gssc on the shipped example data (examples/data, examples/workspace).
 * Every build below reports what it kept, what it cut or dropped, and why.
 */
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { anthropicRenderer, build, createTokenizer, layoutAware, openaiRenderer, sectioned, xml, type BuildResult, type GsscError } from 'gssc'
import { chunkToPackets, parseMemoryState } from 'gssc/chunks'
import { explain, renderExplain, renderReport } from 'gssc/inspect'
import { buildSession, loadWorkspace } from 'gssc/node'
import { historyCompressor, historyPackets, historyStrategy, sessionSource } from 'gssc/session'
import { nanobot, workspacePackets } from 'gssc/workspace'
import { history, isMain, NOW, packets, system } from './load.js'
import { knowledgeBase, recall, retrieve } from './memory-rag.js'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const rule = (title: string): string => `\n${'='.repeat(6)} ${title} ${'='.repeat(Math.max(2, 72 - title.length))}\n`
const ok = async <A>(te: TE.TaskEither<GsscError, A>): Promise<A> => {
  const r = await te()
  if (E.isLeft(r)) throw new Error(r.left.message)
  return r.right
}
const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url))
const table = (r: BuildResult<unknown>): string => renderExplain(explain(r), { width: 80, limit: 8 })

/** Chat output shown one line per turn, as a user would skim it. */
const chat = (turns: ReadonlyArray<{ readonly role: string; readonly content?: unknown }>): string =>
  turns
    .map((m) => {
      const text = typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? (m as { tool_calls?: unknown }).tool_calls)
      const flat = text.replace(/\s+/g, ' ')
      return `${m.role.padEnd(9)} ${flat.length > 100 ? `${flat.slice(0, 99)}…` : flat}`
    })
    .join('\n')

export const main = async (): Promise<string> => {
  const tokenizer = createTokenizer('gpt-4o')
  if (E.isLeft(tokenizer)) throw new Error(tokenizer.left.message)
  const t = tokenizer.right
  const out: string[] = []
  const query = 'Why does the CI build fail with a missing compile script, and what should I run?'
  const request = { query, instructions: system(), history: history(), packets: packets() }
  const rag = { retrieve: retrieve(knowledgeBase()), topK: 6 }

  const rich = await ok(build(request, { tokenizer: t, now: NOW, config: { maxTokens: 1200 }, rag, memory: { search: recall, limit: 3 } }))
  out.push(rule('1. memory + RAG (an Orama index) + history, 1,200 tokens'), rich.output, '', table(rich))

  const tight = await ok(build(request, { tokenizer: t, now: NOW, config: { maxTokens: 300, locale: 'zh' }, rag }))
  out.push(rule('2. the same request in 300 tokens, Chinese labels'), tight.output, '', table(tight))

  const session = await ok(buildSession(here('./data/sessions/pi-invoice-rounding.jsonl'), { tokenizer: t }))
  const structurer = sectioned({ output: false })
  const fromSession = await ok(
    build(
      { query: 'Where are we, and what is left to do?', packets: historyPackets(sessionSource(session))(session.history.items) },
      {
        tokenizer: t,
        now: NOW,
        config: { maxTokens: 900 },
        structurer,
        selector: layoutAware(structurer, { history: 'all' }),
        compressor: historyCompressor((budget) => historyStrategy('smart', { budget, tokenizer: t })),
        renderer: anthropicRenderer({ cache: { system: true } }),
      },
    ),
  )
  out.push(
    rule('3. a pi session (2 branches) fitted with the smart strategy, as an Anthropic request'),
    `${fromSession.output.system?.length ?? 0} system block(s), ${fromSession.output.messages.length} messages:`,
    chat(fromSession.output.messages),
    '',
    table(fromSession),
  )

  const ws = await ok(loadWorkspace(here('./workspace'), { now: () => new Date('2026-03-14T01:30:00Z'), timeZone: 'Asia/Shanghai' }))
  const wsPackets = workspacePackets(ws, { tokenizer: t, channel: 'telegram', chatId: '4242' })
  if (E.isLeft(wsPackets)) throw new Error(wsPackets.left.message)
  const fromWorkspace = await ok(
    build({ query: 'Will it rain in Hangzhou tomorrow?', packets: wsPackets.right }, { tokenizer: t, now: NOW, config: { maxTokens: 1400 }, structurer: nanobot(), renderer: openaiRenderer() }),
  )
  out.push(rule('4. an agent workspace (bootstrap files, memory, skills), nanobot layout, OpenAI'), chat(fromWorkspace.output), '', table(fromWorkspace))

  const state = parseMemoryState(JSON.parse(readFileSync(here('./data/chunks.json'), 'utf8')), 'chunks.json')
  if (E.isLeft(state)) throw new Error(state.left.message)
  const chunkPackets = state.right.chunkIds.flatMap((id) => chunkToPackets(state.right.chunks.get(id)!))
  const fromChunks = await ok(build({ query: '', packets: chunkPackets }, { tokenizer: t, now: NOW, config: { maxTokens: 1000 }, structurer: xml(), renderer: openaiRenderer() }))
  out.push(rule('5. agent memory chunks in XML tags, grouped by role, 1,000 tokens'), chat(fromChunks.output), '', table(fromChunks))

  const report = join(tmpdir(), 'gssc-demo-report.html')
  writeFileSync(report, renderReport(tight, { title: 'gssc demo: the 300-token build' }))
  out.push(rule('6. the HTML report'), `Open ${report} in a browser: build 2 as a sortable, filterable packet table with the linked context.`)
  return out.join('\n')
}

if (isMain(import.meta.url)) console.log(await main())
