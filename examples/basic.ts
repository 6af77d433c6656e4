/**
 * The common case in one call: instructions, a conversation and a query in; a context
 * within the budget and a report out.
 *
 * Run: npx tsx examples/basic.ts
 */
import * as E from 'fp-ts/lib/Either.js'
import { build, createTokenizer } from 'gssc'
import { history, isMain, NOW, system } from './load.js'

export const main = async (): Promise<string> => {
  const tokenizer = createTokenizer('gpt-4o')
  if (E.isLeft(tokenizer)) throw new Error(tokenizer.left.message)
  const result = await build(
    { query: 'Why does the CI build fail, and what should I run?', instructions: system(), history: history() },
    { tokenizer: tokenizer.right, now: NOW, config: { maxTokens: 1000 } },
  )()
  if (E.isLeft(result)) throw new Error(result.left.message)
  const r = result.right
  return `${r.output}\n\n-- ${r.tokenCount} of ${r.budget.available} tokens; kept ${r.included.join(', ')}`
}

if (isMain(import.meta.url)) console.log(await main())
