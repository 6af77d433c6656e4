/**
 * Cache-stable prefixes: three turns of a conversation built for Anthropic, each compared
 * with the one before, then the same with fitMessages. Run: npx tsx examples/cache.ts
 */
import { anthropicRenderer, buildContext, fitMessages, loadEncoding, type BuildResult } from 'gssc'
import { isMain } from './load.js'

const instructions = 'You are a release assistant. Answer from the documents; say when they do not cover it.'
const exchanges = [
  ['Which services ship today?', 'api, web and the billing worker.'],
  ['Is billing behind a flag?', 'Yes: billing_v2, off by default.'],
  ['Who approves the flag?', 'The billing on-call, per the runbook.'],
]

export const main = async (): Promise<string> => {
  await loadEncoding('o200k_base')
  const lines: string[] = []
  let previous: BuildResult<unknown> | undefined
  for (const [turn, [question]] of exchanges.entries()) {
    const result = await buildContext(
      {
        query: question!,
        instructions,
        // what was said before: it only grows at its end
        history: exchanges.slice(0, turn).flatMap(([q, a]) => [
          { role: 'user' as const, content: q! },
          { role: 'assistant' as const, content: a! },
        ]),
        // retrieved for this question: it changes every turn, so it goes last
        packets: [{ type: 'evidence', content: `Runbook section ${turn + 1}: release steps for today.`, source: 'runbook.md', relevance: 0.9 }],
      },
      { renderer: anthropicRenderer(), now: 0, config: { maxHistoryMessages: Infinity }, ...(previous === undefined ? {} : { previous }) },
    )
    const marks = JSON.stringify(result.output).split('"cache_control"').length - 1
    const same = result.prefix.identical === undefined ? 'first turn' : `${result.prefix.identical.tokens} identical to the previous request`
    lines.push(`turn ${turn + 1}: ${result.tokenCount} tokens, stable prefix ${result.prefix.tokens} (${same}), ${marks} breakpoints`)
    previous = result
  }

  // the everyday job: the app's own Anthropic messages, fitted, with breakpoints placed
  const history = { system: instructions, messages: exchanges.flatMap(([q, a]) => [{ role: 'user', content: q }, { role: 'assistant', content: a }]) }
  const first = await fitMessages({ ...history, messages: history.messages.slice(0, 4) }, { model: 'claude-sonnet-4-5', maxTokens: 8000, breakpoints: true })
  const next = await fitMessages(history, { model: 'claude-sonnet-4-5', maxTokens: 8000, breakpoints: true, previous: first })
  lines.push(`fitMessages: ${next.tokenCount} tokens, ${next.prefix.identical?.tokens} identical to the previous call, breakpoints on messages ${next.breakpoints?.added.map((b) => b.message).join(' and ')}`)
  return lines.join('\n')
}

if (isMain(import.meta.url)) console.log(await main())
